import PipCore

/// Headerless frames of a known size and format, one after another (`ffmpeg -f rawvideo`).
public final class RawSource: FileFrameSource {
    /// The frames' pixel format.
    public let format: PixelFormat
    private let width: Int
    private let height: Int
    private let fps: Double
    private var frameBytes = 0

    public override var spec: SourceSpec { .raw(path: path, width: width, height: height, format: format, fps: fps) }

    /// Reads `width`×`height` frames of `format` at `fps` from `path` (`-`: standard input).
    public init(
        path: String, width: Int, height: Int, format: PixelFormat, fps: Double = 30,
        request: SourceRequest = SourceRequest()
    ) {
        (self.width, self.height, self.format, self.fps) = (width, height, format, fps)
        super.init(path: path, request: request)
    }

    /// Reads an already open descriptor (closed by `stop()`); `name` is used in messages.
    public init(
        fileDescriptor: Int32, name: String, width: Int, height: Int, format: PixelFormat, fps: Double = 30,
        request: SourceRequest = SourceRequest()
    ) {
        (self.width, self.height, self.format, self.fps) = (width, height, format, fps)
        super.init(fileDescriptor: fileDescriptor, name: name, request: request)
    }

    override var framesTakeEqualBytes: Bool { true }

    override func openStream(_ reader: ByteReader) throws -> Int {
        if let problem = FrameLimits.problem(width: width, height: height) { throw badInput(problem) }
        guard let bytes = format.frameByteCount(width: width, height: height) else {
            throw badInput("raw frames cannot be \(format)")
        }
        guard fps >= 0.01 && fps <= 1000 else { throw badInput("bad frame rate \(fps): expected a number from 0.01 to 1000") }
        frameBytes = bytes
        frameWidth = width
        frameHeight = height
        frameRate = fps
        return bytes
    }

    override func readFrame(_ reader: ByteReader, into index: Int) throws -> FileFrame? {
        if let bytes = reader.borrow(frameBytes) {
            return FileFrame(
                format: format, width: width, height: height, byteCount: frameBytes,
                colorimetry: .standard(forHeight: height), base: bytes)
        }
        let got = try reader.read(into: ring.bases[index], count: frameBytes)
        if got == 0 { return nil }
        if got < frameBytes { throw TruncatedFrame(got: got, expected: frameBytes) }
        return FileFrame(
            format: format, width: width, height: height, byteCount: frameBytes,
            colorimetry: .standard(forHeight: height))
    }
}
