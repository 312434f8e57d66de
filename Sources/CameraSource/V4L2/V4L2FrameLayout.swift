import PipCore

/// Where a frame's planes lie in a capture buffer, worked out once from the format the driver
/// accepted (`G_FMT`), so each frame costs only pointer arithmetic.
public struct V4L2FrameLayout: Sendable, Equatable {
    public var pixelFormat: PixelFormat
    public var width: Int
    public var height: Int
    /// Plane strides and byte offsets (unused planes 0), from the driver's `bytesperline`.
    public var planes: PlaneLayout
    /// Bytes a complete uncompressed frame fills; nil for MJPEG (any non-empty payload).
    public var minimumBytes: Int?
    public var colorimetry: Colorimetry

    /// The layout of `format`, or nil when pipcam cannot show that format.
    public init?(format: V4L2PixFormat) {
        // A driver's answer is outside input: a size past pipcam's limits is no format it shows.
        guard let pixelFormat = format.fourcc.pixelFormat, FrameLimits.problem(width: format.width, height: format.height) == nil
        else { return nil }
        self.init(
            pixelFormat: pixelFormat, width: format.width, height: format.height, bytesPerLine: format.bytesPerLine,
            colorimetry: Self.colorimetry(of: format, pixelFormat: pixelFormat))
    }

    /// The layout of frames of `pixelFormat` whose first plane's rows are `bytesPerLine` apart
    /// (0: tightly packed), as V4L2 lays out the other planes (PipeWire's producers do the same).
    public init(pixelFormat: PixelFormat, width w: Int, height h: Int, bytesPerLine: Int, colorimetry: Colorimetry) {
        self.pixelFormat = pixelFormat
        width = w
        height = h
        self.colorimetry = colorimetry
        guard let packed = pixelFormat.packedLayout(width: w, height: h) else {
            planes = PlaneLayout(count: 1, strides: (0, 0, 0), rows: (1, 0, 0))
            minimumBytes = nil
            return
        }
        // Drivers may pad rows; bytesperline 0 or too small means "tightly packed".
        let line = max(bytesPerLine, packed.strides.0)
        let ch = (h + 1) / 2
        switch pixelFormat {
        case .nv12:
            // The interleaved CbCr plane is as wide in bytes as the Y plane (V4L2 spec, NV12).
            planes = PlaneLayout(count: 2, strides: (line, line, 0), rows: (h, ch, 0))
        case .i420:
            // Cb and Cr rows carry half the Y plane's padding (V4L2 spec, YUV420).
            let c = max((line + 1) / 2, packed.strides.1)
            planes = PlaneLayout(count: 3, strides: (line, c, c), rows: (h, ch, ch))
        default:
            planes = PlaneLayout(count: packed.count, strides: (line, packed.strides.1, packed.strides.2), rows: packed.rows)
        }
        minimumBytes = planes.byteCount
    }

    /// The frame in a buffer starting at `base` with `bytesUsed` bytes of payload.
    @inline(__always)
    func frame(
        base: UnsafeRawPointer, bytesUsed: Int, timestamp: MonotonicInstant, sequence: UInt64, bufferIndex: Int
    ) -> VideoFrame {
        let o = planes.offsets
        return VideoFrame(
            format: pixelFormat, width: width, height: height,
            plane0: FramePlane(base: base, stride: minimumBytes == nil ? bytesUsed : planes.strides.0),
            plane1: planes.count > 1 ? FramePlane(base: base + o.1, stride: planes.strides.1) : nil,
            plane2: planes.count > 2 ? FramePlane(base: base + o.2, stride: planes.strides.2) : nil,
            byteCount: bytesUsed, colorimetry: colorimetry, timestamp: timestamp, sequence: sequence,
            bufferIndex: bufferIndex)
    }

    /// The colour interpretation the driver states, with V4L2's own defaults for what it leaves
    /// open (`V4L2_MAP_YCBCR_ENC_DEFAULT`, `V4L2_MAP_QUANTIZATION_DEFAULT`), and BT.601/709 by
    /// height when it says nothing at all. MJPEG is always JFIF.
    public static func colorimetry(of format: V4L2PixFormat, pixelFormat: PixelFormat) -> Colorimetry {
        if pixelFormat == .mjpeg { return .jpeg }
        let guess = Colorimetry.standard(forHeight: format.height)
        let matrix: ColorMatrix
        switch format.ycbcrEncoding {
        case .bt601: matrix = .bt601
        case .bt709, .bt2020: matrix = .bt709
        case .default, .other:
            switch format.colorspace {
            case .smpte170m, .srgb, .jpeg: matrix = .bt601
            case .rec709, .bt2020: matrix = .bt709
            case .default, .other: matrix = guess.matrix
            }
        }
        let range: ColorRange
        switch format.quantization {
        case .fullRange: range = .full
        case .limitedRange: range = .limited
        case .default: range = format.colorspace == .jpeg || !pixelFormat.isYUV ? .full : .limited
        }
        return Colorimetry(matrix: matrix, range: range)
    }
}
