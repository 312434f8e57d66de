import TestSupport
import Testing
@testable import CameraSource
import PipCore
import MJPEG

@Suite struct MJPEGSourceTests {
    static let a = Fixture.jpeg(width: 32, height: 24, seed: 1)
    static let b = Fixture.jpeg(width: 48, height: 16, seed: 2, quality: 100)
    static let progressive = Fixture.jpeg(width: 40, height: 40, seed: 3, progressive: true)

    /// `b` with restart markers (FF D0…D7) spliced into its entropy-coded data.
    static let withRestarts: [UInt8] = {
        var bytes = b
        var position = Fixture.entropyStart(bytes) + 5
        var marker: UInt8 = 0xD0
        while position < bytes.count - 10 {
            if bytes[position - 1] != 0xFF {
                bytes.insert(contentsOf: [0xFF, marker], at: position)
                marker = marker == 0xD7 ? 0xD0 : marker + 1
            }
            position += 37
        }
        return bytes
    }()

    func open(_ bytes: [UInt8], fps: Double = 30, request: SourceRequest = unpaced) throws -> MJPEGSource {
        let source = MJPEGSource(path: Fixture.file(bytes, name: "cam.mjpeg"), fps: fps, request: request)
        try source.start()
        return source
    }

    func startError(_ bytes: [UInt8]) -> SourceError? {
        sourceError { try MJPEGSource(fileDescriptor: Fixture.pipe(bytes), name: "cam.mjpeg").start() }
    }

    @Test func fixturesHaveStuffingAndRestarts() {
        func count(_ bytes: [UInt8], _ second: ClosedRange<UInt8>) -> Int {
            let start = Fixture.entropyStart(bytes)
            return (start..<(bytes.count - 1)).filter { bytes[$0] == 0xFF && second.contains(bytes[$0 + 1]) }.count
        }
        #expect(count(Self.b, 0x00...0x00) > 10)
        #expect(count(Self.withRestarts, 0xD0...0xD7) > 10)
        // Progressive files have several scans, i.e. markers between entropy-coded segments.
        #expect(Self.progressive.indices.dropLast().filter { Self.progressive[$0] == 0xFF && Self.progressive[$0 + 1] == 0xDA }.count > 1)
    }

    @Test func splitsStreamWithGarbageBetweenFrames() throws {
        let garbage: [UInt8] = Array("hello\n".utf8) + [0xFF, 0x12, 0xFF, 0xFF, 0x00, 0xFF]
        let parts = [Self.a, Self.withRestarts, Self.progressive, Self.b, Self.a]
        var stream: [UInt8] = []
        for (i, part) in parts.enumerated() { stream += part + (i % 2 == 0 ? garbage : []) }
        let source = try open(stream, fps: 24)
        #expect(source.frameWidth == 32 && source.frameHeight == 24 && source.frameRate == 24)
        #expect(source.frameFormat == .mjpeg)
        let read = try drain(source)
        #expect(read.count == parts.count)
        #expect(read.map(\.bytes) == parts)
        let sizes = read.map { [$0.frame.width, $0.frame.height] }
        #expect(sizes == [[32, 24], [48, 16], [40, 40], [48, 16], [32, 24]])
        for (frame, bytes) in read {
            #expect(frame.format == .mjpeg && frame.byteCount == bytes.count && frame.colorimetry == .jpeg)
            #expect(frame.plane1 == nil)
        }
    }

    @Test func decodesWhatItSplits() throws {
        let source = try open(Self.a + Self.b)
        let decoder = JPEGDecoder()
        for (frame, _) in try drain(source) {
            let image = try decoder.decode(frame, minWidth: frame.width, minHeight: frame.height)
            #expect(image.width == frame.width && image.height == frame.height)
        }
    }

    @Test func corruptMiddleFrameIsStillDelivered() throws {
        let corrupt: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x12, 0x34, 0x99, 0x98, 0xFF, 0x00, 0x01, 0xFF, 0xD9]
        let source = try open(Self.a + corrupt + Self.b)
        let read = try drain(source)
        #expect(read.map(\.bytes) == [Self.a, corrupt, Self.b])
        // Its header cannot be read, so it keeps the stream's size; the decoder will reject it.
        #expect(read[1].frame.width == 32 && read[1].frame.height == 24)
        #expect(throws: JPEGError.self) { try JPEGDecoder().decode(read[1].frame, minWidth: 1, minHeight: 1) }
    }

    @Test func frameWithoutEndMarkerEndsAtNextStart() throws {
        let cut = Array(Self.b.prefix(Self.b.count / 2))
        let source = try open(Self.a + cut + Self.a)
        #expect(try drain(source).map(\.bytes) == [Self.a, cut, Self.a])
    }

    /// docs/pipcam.1, OPTIONS (`--source`): a last JPEG the file ends in before its end marker is dropped with
    /// one warning, as y4m and raw drop a short last frame (it was handed out, half a picture).
    @Test func truncatedTailIsDroppedWithAWarning() throws {
        func read(_ bytes: [UInt8]) throws -> (frames: [[UInt8]], warnings: [String]) {
            let source = MJPEGSource(fileDescriptor: Fixture.pipe(bytes), name: "cam.mjpeg", request: unpaced)
            let log = WarningLog(source)
            try source.start()
            let frames = try drain(source).map(\.bytes)
            #expect(try source.nextFrame(now: .now()).isEnd)
            return (frames, log.lines)
        }
        let tail = Array(Self.b.prefix(Self.b.count - 7))
        #expect(try read(Self.a + tail) == ([Self.a], ["cam.mjpeg: last frame truncated (\(tail.count) bytes, no end of image); ignored"]))
        // Cut inside the segment headers; cut in a stuffed FF 00 and before a restart marker's second byte.
        #expect(try read(Self.a + Self.b.prefix(9)).warnings == ["cam.mjpeg: last frame truncated (9 bytes, no end of image); ignored"])
        let stuffed = try #require((Fixture.entropyStart(Self.b)..<Self.b.count).first { Self.b[$0] == 0xFF && Self.b[$0 + 1] == 0 })
        #expect(try read(Self.a + Self.b.prefix(stuffed + 1)).frames == [Self.a])
        let restart = try #require((Fixture.entropyStart(Self.withRestarts)..<Self.withRestarts.count).first {
            Self.withRestarts[$0] == 0xFF && (0xD0...0xD7).contains(Self.withRestarts[$0 + 1])
        })
        #expect(try read(Self.a + Self.withRestarts.prefix(restart + 1)).frames == [Self.a])
        // Complete pictures, then trailing garbage without a start marker: no warning.
        #expect(try read(Self.a + Self.b + [0x00, 0xFF, 0xD9, 0xFF]) == ([Self.a, Self.b], []))
        // Regression: a segment header cut after its marker used to loop forever.
        let cutHeader: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC4, 0x00]
        #expect(try read(Self.a + cutHeader) == ([Self.a], ["cam.mjpeg: last frame truncated (5 bytes, no end of image); ignored"]))
    }

    /// A first (or only) JPEG cut short: nothing whole to show, so bad input, as for y4m and raw.
    @Test func truncatedFirstFrameIsBadInput() {
        #expect(startError(Array(Self.a.dropLast(2)))
            == .badInput(thing: "cam.mjpeg", reason: "truncated frame 0 (got \(Self.a.count - 2) bytes, no end of image)"))
    }

    @Test func firstFrameMustBeJPEG() {
        #expect(startError([]) == .badInput(thing: "cam.mjpeg", reason: "empty file"))
        #expect(startError(Array("not a jpeg at all".utf8) + Self.a)
            == .badInput(thing: "cam.mjpeg", reason: "not an MJPEG stream (no JPEG start marker at byte 0)"))
        #expect(startError([0xFF, 0xD8]) == .badInput(thing: "cam.mjpeg", reason: "not an MJPEG stream (no JPEG start marker at byte 0)"))
        let bogus = startError([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xD9])
        guard case .badInput(_, let reason)? = bogus else {
            Issue.record("expected badInput, got \(String(describing: bogus))")
            return
        }
        #expect(reason.hasPrefix("not an MJPEG stream (first frame: corrupt JPEG"))
        #expect(sourceError { try MJPEGSource(path: "/no/cam.mjpeg").start() }
            == .badInput(thing: "/no/cam.mjpeg", reason: "no such file or directory"))
    }

    @Test func buffersGrowForBigFramesAndKeepContent() throws {
        let big = Fixture.jpeg(width: 640, height: 480, seed: 9, quality: 100)
        #expect(big.count > MJPEGSource.initialBufferBytes)
        let frames = [Self.a, big, Self.b, big, big, Self.a]
        let fd = Fixture.pipe(frames.flatMap { $0 }, chunk: 5000)
        let source = MJPEGSource(fileDescriptor: fd, name: "pipe", request: unpaced)
        try source.start()
        #expect(try drain(source).map(\.bytes) == frames)
    }

    @Test func oversizedFrameIsRejected() throws {
        var stream = Self.a + [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02]
        stream += [UInt8](repeating: 0x11, count: FrameLimits.maxJPEGBytes + 10)
        let source = try open(stream)
        #expect(try source.nextFrame(now: .now()).frame != nil)
        let error = sourceError { _ = try source.nextFrame(now: .now()) }
        #expect(error?.description.hasSuffix("cam.mjpeg: frame 1 is larger than 32 MiB") == true)
    }

    @Test func fuzzMutatedStreams() throws {
        let valid = Self.a + Self.withRestarts + Self.progressive
        var rng = SplitMix(seed: 11)
        var delivered = 0, rejected = 0
        for round in 0..<600 {
            var bytes = valid
            if round % 4 == 0 {
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            } else {
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let i = Int.random(in: 0..<bytes.count, using: &rng)
                    let markers: [UInt8] = [0xFF, 0xD8, 0xD9, 0xDA, 0x00, 0xD0, 0xC4]
                    bytes[i] = Bool.random(using: &rng) ? markers.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                }
            }
            let source = MJPEGSource(fileDescriptor: Fixture.pipe(bytes), name: "fuzz", request: unpaced)
            do {
                try source.start()
                let read = try drain(source, limit: 1000)
                #expect(read.count < 1000)
                #expect(read.allSatisfy { $0.bytes.count >= 2 && $0.bytes[0] == 0xFF && $0.bytes[1] == 0xD8 })
                delivered += read.count
            } catch let error as SourceError {
                guard case .badInput = error else {
                    Issue.record("\(error)")
                    continue
                }
                rejected += 1
            }
        }
        #expect(delivered > 0 && rejected > 0)
    }
}
