import PipCore

/// Frames from a YUV4MPEG2 (`.y4m`) file or pipe, e.g. `ffmpeg -i clip.mp4 -f yuv4mpegpipe -`.
///
/// 4:2:0 (all siting variants), 4:2:2, 4:4:4 and mono, 8 bits; `XCOLORRANGE` sets the range.
public final class Y4MSource: FileFrameSource {
    /// The frames' pixel format (known after `start()`).
    public private(set) var format = PixelFormat.i420
    /// The frames' colorimetry (known after `start()`).
    public private(set) var colorimetry = Colorimetry.standard(forHeight: 0)
    private var frameBytes = 0

    /// Reads the file at `path` (`-`: standard input).
    public override var spec: SourceSpec { .y4m(path: path) }

    public override init(path: String, request: SourceRequest = SourceRequest()) {
        super.init(path: path, request: request)
    }

    /// Reads an already open descriptor (closed by `stop()`); `name` is used in messages.
    public override init(fileDescriptor: Int32, name: String, request: SourceRequest = SourceRequest()) {
        super.init(fileDescriptor: fileDescriptor, name: name, request: request)
    }

    override var framesTakeEqualBytes: Bool { true }

    override var noFramesReason: String { "no frames after the header" }

    override func openStream(_ reader: ByteReader) throws -> Int {
        guard try reader.ensureAvailable(1) else { throw badInput("empty file") }
        let limit = Y4MHeader.maxLineLength
        guard let newline = try reader.find(0x0A, within: limit) else {
            // Judge the magic first: a file that is not Y4M at all should say so.
            let line = Array(reader.available.prefix(limit))
            if let at = Y4MHeader.magic.indices.first(where: { $0 >= line.count || line[$0] != Y4MHeader.magic[$0] }) {
                throw badInput(Y4MHeaderError.bad(at: at, expected: "'YUV4MPEG2 '").reason)
            }
            throw badInput("bad header at byte \(line.count): expected end of header line")
        }
        let line = Array(reader.available[0..<newline])
        reader.consume(newline + 1)
        let header: Y4MHeader
        do { header = try Y4MHeader.parse(line) } catch { throw badInput(error.reason) }
        if let problem = FrameLimits.problem(width: header.width, height: header.height) {
            throw badInput(problem)
        }
        frameWidth = header.width
        frameHeight = header.height
        frameRate = header.fps ?? 30
        format = header.format
        colorimetry = Colorimetry.standard(forHeight: header.height)
        colorimetry.range = header.range
        frameBytes = format.frameByteCount(width: header.width, height: header.height)!
        return frameBytes
    }

    override func readFrame(_ reader: ByteReader, into index: Int) throws -> FileFrame? {
        let markerOffset = reader.offset
        guard try reader.ensureAvailable(1) else { return nil }
        let marker: [UInt8] = [0x46, 0x52, 0x41, 0x4D, 0x45]  // "FRAME"
        _ = try reader.ensureAvailable(marker.count + 1)
        let head = reader.available
        for i in 0...marker.count where i < head.count {
            let ok = i < marker.count ? head[i] == marker[i] : (head[i] == 0x20 || head[i] == 0x0A)
            if !ok { throw badInput("bad frame marker at byte \(markerOffset): expected 'FRAME'") }
        }
        guard let newline = try reader.find(0x0A, within: Y4MHeader.maxLineLength) else {
            if reader.reachedEOF && reader.availableCount < Y4MHeader.maxLineLength {
                throw TruncatedFrame(got: 0, expected: frameBytes)
            }
            throw badInput("bad frame marker at byte \(markerOffset): expected end of line after 'FRAME'")
        }
        reader.consume(newline + 1)
        if let bytes = reader.borrow(frameBytes) {
            return FileFrame(
                format: format, width: frameWidth, height: frameHeight, byteCount: frameBytes,
                colorimetry: colorimetry, base: bytes)
        }
        let got = try reader.read(into: ring.bases[index], count: frameBytes)
        if got < frameBytes { throw TruncatedFrame(got: got, expected: frameBytes) }
        return FileFrame(
            format: format, width: frameWidth, height: frameHeight, byteCount: frameBytes, colorimetry: colorimetry)
    }
}
