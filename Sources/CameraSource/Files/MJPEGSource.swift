import PipCore
import MJPEG

/// Frames from a concatenated JPEG stream: what cameras send and `ffmpeg -f mjpeg` writes.
///
/// Frames are handed out still compressed (`.mjpeg`, plane 0 = the JPEG bytes); the display side
/// decodes them, at a reduced DCT scale when the window is small. Splitting follows the JPEG
/// structure (marker segments up to SOS, then entropy-coded data up to EOI) rather than looking
/// for FF D9 alone, so it copes with garbage between images, byte stuffing, restart markers and
/// progressive files. A frame that turns out corrupt mid-stream is still handed out (the decoder
/// counts and skips it); a stream whose first frame is not a JPEG fails at `start()`. A last JPEG
/// the file ends in before its end marker is truncated (see `FileFrameSource`).
public final class MJPEGSource: FileFrameSource {
    private let fps: Double
    /// Reads headers only (the display side decodes): it never needs a second thread.
    private let decoder = JPEGDecoder(threads: 1)
    /// Bytes of the JPEG copied so far into buffer `current`.
    private var length = 0
    private var current = 0
    /// Buffers start at this size and double when a bigger JPEG arrives (then stay big).
    static let initialBufferBytes = 256 * 1024

    public override var spec: SourceSpec { .mjpeg(path: path, fps: fps) }

    /// Reads the stream at `path` (`-`: standard input), shown at `fps` frames per second.
    public init(path: String, fps: Double = 30, request: SourceRequest = SourceRequest()) {
        self.fps = fps
        super.init(path: path, request: request)
    }

    /// Reads an already open descriptor (closed by `stop()`); `name` is used in messages.
    public init(fileDescriptor: Int32, name: String, fps: Double = 30, request: SourceRequest = SourceRequest()) {
        self.fps = fps
        super.init(fileDescriptor: fileDescriptor, name: name, request: request)
    }

    override func openStream(_ reader: ByteReader) throws -> Int {
        guard fps >= 0.01 && fps <= 1000 else { throw badInput("bad frame rate \(fps): expected a number from 0.01 to 1000") }
        frameRate = fps
        guard try reader.ensureAvailable(1) else { throw badInput("empty file") }
        _ = try reader.ensureAvailable(3)
        let head = reader.available
        guard head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF else {
            throw badInput("not an MJPEG stream (no JPEG start marker at byte 0)")
        }
        return Self.initialBufferBytes
    }

    override func readFrame(_ reader: ByteReader, into index: Int) throws -> FileFrame? {
        current = index
        length = 0
        guard try skipToStartOfImage(reader) else { return nil }
        guard try copyImage(reader) else { throw TruncatedFrame(got: length, expected: nil) }
        let bytes = UnsafeRawBufferPointer(start: ring.bases[index], count: length)
        var size = (width: frameWidth, height: frameHeight)
        do {
            size = try decoder.header(of: bytes)
        } catch {
            if framesRead == 0 { throw badInput("not an MJPEG stream (first frame: \(error))") }
        }
        if framesRead == 0 {
            if let problem = FrameLimits.problem(width: size.width, height: size.height) { throw badInput(problem) }
            (frameWidth, frameHeight) = size
        }
        return FileFrame(format: .mjpeg, width: size.width, height: size.height, byteCount: length, colorimetry: .jpeg)
    }

    /// Skips anything before the next SOI (FF D8), leaving it unconsumed; false at end of stream.
    private func skipToStartOfImage(_ reader: ByteReader) throws -> Bool {
        while true {
            guard let ff = reader.firstBuffered(0xFF) else {
                reader.consume(reader.availableCount)
                if try !reader.fill() { return false }
                continue
            }
            reader.consume(ff)
            guard try reader.ensureAvailable(2) else {
                reader.consume(reader.availableCount)
                return false
            }
            if reader.available[1] == 0xD8 { return true }
            reader.consume(1)
        }
    }

    private enum Part { case segments, entropyCodedData }

    /// Copies one image, SOI included, up to and including its EOI. Stops early at the next SOI,
    /// handing out what it has as a corrupt frame; false when the stream ends first.
    private func copyImage(_ reader: ByteReader) throws -> Bool {
        try append(reader, 2)
        var part = Part.segments
        while true {
            guard try reader.ensureAvailable(2) else {
                try append(reader, reader.availableCount)
                return false
            }
            let head = reader.available
            switch part {
            case .segments:
                guard head[0] == 0xFF else {
                    part = .entropyCodedData  // corrupt: look for the next marker instead
                    continue
                }
                let marker = head[1]
                switch marker {
                case 0xFF: try append(reader, 1)  // fill byte before a marker
                case 0xD9: try append(reader, 2); return true
                case 0xD8: return true
                case 0xD0...0xD7, 0x01: try append(reader, 2)
                case 0x00: part = .entropyCodedData
                default:
                    guard try reader.ensureAvailable(4) else {
                        try append(reader, reader.availableCount)
                        return false
                    }
                    let segment = Int(reader.available[2]) << 8 | Int(reader.available[3])
                    guard segment >= 2 else {
                        try append(reader, 2)
                        part = .entropyCodedData
                        continue
                    }
                    guard try append(reader, 2 + segment) else { return false }
                    if marker == 0xDA { part = .entropyCodedData }
                }
            case .entropyCodedData:
                guard let ff = reader.firstBuffered(0xFF) else {
                    try append(reader, reader.availableCount)
                    continue
                }
                if ff > 0 {
                    try append(reader, ff)
                    continue
                }
                switch head[1] {
                case 0x00, 0xD0...0xD7: try append(reader, 2)  // stuffed FF, restart marker
                case 0xFF: try append(reader, 1)
                case 0xD9: try append(reader, 2); return true
                case 0xD8: return true
                default: part = .segments  // another table or scan (progressive JPEG)
                }
            }
        }
    }

    /// Appends the next `count` stream bytes to the image, reading more as needed; false at end of stream.
    @discardableResult
    private func append(_ reader: ByteReader, _ count: Int) throws -> Bool {
        var remaining = count
        while remaining > 0 {
            if reader.availableCount == 0, try !reader.fill() { return false }
            let take = min(remaining, reader.availableCount)
            guard length + take <= FrameLimits.maxJPEGBytes else {
                throw badInput("frame \(framesRead) is larger than 32 MiB")
            }
            ring.reserve(current, byteCount: length + take, keeping: length)
            (ring.bases[current] + length).copyMemory(from: reader.available.baseAddress!, byteCount: take)
            reader.consume(take)
            length += take
            remaining -= take
        }
        return true
    }
}
