import PipConvert
import PipCore

/// Turns camera frames into the frames a virtual camera carries: YUYV or I420, tightly packed,
/// limited range, at one fixed size — what call apps (Chromium, Firefox, Zoom) open.
///
/// The picture is the camera's own: never mirrored or rotated (call apps mirror their self-view
/// themselves), cropped only as the window's digital zoom frames it (`Framing`). The conversion is
/// `PipConvert`'s (`YCbCrConverter`): a frame of another size (another mode, another source) is
/// resampled and fitted at its own shape with black bars, so readers never see the format change.
/// This owns the share's buffers and chooses its format; a frame that already is what readers get
/// (YUYV of the output's size, packed rows) goes out from its own memory.
/// Compressed frames must be decoded first (`ShareJPEGWorker`). The output buffer is allocated
/// once: a result is valid until the next `convert`.
public final class ShareFrameConverter {
    /// `.yuyv` or `.i420`.
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    /// Bytes of one output frame.
    public let byteCount: Int
    private let output: UnsafeMutableRawPointer
    private let placeholderFrame: UnsafeMutableRawPointer
    private let converter = YCbCrConverter()

    /// The output format for frames of `source` format: YUYV stays YUYV (written as the camera
    /// sent it), everything else becomes I420.
    public static func outputFormat(for source: PixelFormat?) -> PixelFormat { source == .yuyv ? .yuyv : .i420 }

    public init(format: PixelFormat, width: Int, height: Int) {
        precondition(format == .yuyv || format == .i420, "a shared stream is YUYV or I420")
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "shared frames have even sizes")
        self.format = format
        self.width = width
        self.height = height
        byteCount = format.packedLayout(width: width, height: height)!.byteCount
        output = .allocate(byteCount: byteCount, alignment: 64)
        placeholderFrame = .allocate(byteCount: byteCount, alignment: 64)
        Self.paintPlaceholder(placeholderFrame, format: format, width: width, height: height)
        // Touch the output once so the first frame does not pay for the page faults.
        output.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    deinit {
        output.deallocate()
        placeholderFrame.deallocate()
    }

    /// The frame shown to readers while the camera gives none: dark grey, the same size and format.
    public var placeholder: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: placeholderFrame, count: byteCount) }

    /// The bytes to write for `frame`'s part `framing` shows: the frame's own memory when it
    /// already is what readers get, else the converter's buffer. nil for a compressed frame.
    public func convert(_ frame: VideoFrame, framing: Framing = .full) -> UnsafeRawBufferPointer? {
        if YCbCrConverter.frameIsConverted(frame, format: format, width: width, height: height, framing: framing) {
            return UnsafeRawBufferPointer(start: frame.plane0.base, count: byteCount)
        }
        guard converter.convert(frame, into: output, format: format, width: width, height: height, framing: framing) else {
            return nil
        }
        return UnsafeRawBufferPointer(start: output, count: byteCount)
    }

    private static func paintPlaceholder(_ p: UnsafeMutableRawPointer, format: PixelFormat, width: Int, height: Int) {
        let dark: UInt8 = 32
        switch format {
        case .yuyv:
            let b = p.assumingMemoryBound(to: UInt8.self)
            for i in Swift.stride(from: 0, to: 2 * width * height, by: 2) {
                b[i] = dark
                b[i + 1] = 128
            }
        default:
            let b = p.assumingMemoryBound(to: UInt8.self)
            b.update(repeating: dark, count: width * height)
            (b + width * height).update(repeating: 128, count: width * height / 2)
        }
    }
}
