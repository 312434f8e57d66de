import TestSupport
import Testing
@testable import CameraSource
import PipCore

@Suite struct RawSourceTests {
    @Test(arguments: SourceSpec.rawFormats)
    func eachFormat(format: PixelFormat) throws {
        let (w, h) = (6, 4)
        let size = try #require(format.frameByteCount(width: w, height: h))
        let frames = (0..<3).map { Fixture.bytes(size, seed: UInt64($0) + 100) }
        let source = RawSource(path: Fixture.file(frames.flatMap { $0 }), width: w, height: h, format: format, fps: 12, request: unpaced)
        try source.start()
        #expect(source.frameWidth == w && source.frameHeight == h && source.frameRate == 12)
        #expect(source.frameFormat == format)
        let read = try drain(source)
        #expect(read.map(\.bytes) == frames)
        #expect(read.map(\.frame.sequence) == [0, 1, 2])
        for (frame, _) in read {
            #expect(frame.format == format && frame.width == w && frame.height == h && frame.byteCount == size)
            #expect(frame.plane0.stride == format.packedLayout(width: w, height: h)!.strides.0)
        }
        #expect(try source.nextFrame(now: .now()).isEnd)
    }

    @Test func nv12PlanesAndOddSize() throws {
        // 5×3 NV12: 15 bytes Y, then 2 rows of 3 interleaved UV pairs (6 bytes each).
        let frame = Array(0..<27).map(UInt8.init)
        let source = RawSource(path: Fixture.file(frame), width: 5, height: 3, format: .nv12, request: unpaced)
        try source.start()
        let f = try #require(try drain(source).first?.frame)
        #expect(f.plane1?.stride == 6 && f.plane1?.base.load(as: UInt8.self) == 15 && f.plane2 == nil)
    }

    /// docs/pipcam.1, OPTIONS (`--source`): a truncated last frame is dropped with one warning, and the stream
    /// ends normally (it was an error, exit 2).
    @Test func truncatedLastFrameIsDroppedWithAWarning() throws {
        let path = Fixture.file([UInt8](repeating: 1, count: 2 * 32 + 10), name: "x.yuv")
        let source = RawSource(path: path, width: 4, height: 4, format: .yuyv, request: unpaced)
        let log = WarningLog(source)
        try source.start()
        #expect(try drain(source).count == 2)
        #expect(log.lines == ["\(path): last frame truncated (10 of 32 bytes); ignored"])
        #expect(try source.nextFrame(now: .now()).isEnd)
    }

    @Test func shorterThanOneFrameOrEmpty() {
        let short = Fixture.file([1, 2, 3], name: "x.yuv")
        #expect(sourceError { try RawSource(path: short, width: 4, height: 4, format: .bgra).start() }
            == .badInput(thing: short, reason: "truncated frame 0 (got 3 of 64 bytes)"))
        let empty = Fixture.file([], name: "x.yuv")
        #expect(sourceError { try RawSource(path: empty, width: 4, height: 4, format: .bgra).start() }
            == .badInput(thing: empty, reason: "empty file"))
        #expect(sourceError { try RawSource(path: "/no/such.yuv", width: 4, height: 4, format: .bgra).start() }
            == .badInput(thing: "/no/such.yuv", reason: "no such file or directory"))
    }

    @Test func badParameters() {
        let path = Fixture.file([1, 2, 3])
        #expect(sourceError { try RawSource(path: path, width: 0, height: 4, format: .bgra).start() }?.exitCode == 2)
        #expect(sourceError { try RawSource(path: path, width: 20000, height: 4, format: .bgra).start() }?.exitCode == 2)
        #expect(sourceError { try RawSource(path: path, width: 4, height: 4, format: .mjpeg).start() }
            == .badInput(thing: path, reason: "raw frames cannot be mjpeg"))
        #expect(sourceError { try RawSource(path: path, width: 4, height: 4, format: .gray, fps: 0).start() } != nil)
    }

    @Test func pipeLargerThanPipeBuffer() throws {
        let size = PixelFormat.yuyv.frameByteCount(width: 640, height: 360)!
        let frames = (0..<5).map { Fixture.bytes(size, seed: UInt64($0)) }
        let fd = Fixture.pipe(frames.flatMap { $0 }, chunk: 7777)
        let source = RawSource(fileDescriptor: fd, name: "stdin-like", width: 640, height: 360, format: .yuyv, request: unpaced)
        try source.start()
        #expect(try drain(source).map(\.bytes) == frames)
        source.stop()
    }

    @Test func pipeWithTruncatedTail() throws {
        let fd = Fixture.pipe([UInt8](repeating: 3, count: 48 + 20))
        let source = RawSource(fileDescriptor: fd, name: "pipe", width: 4, height: 4, format: .rgb24, request: unpaced)
        let log = WarningLog(source)
        try source.start()
        #expect(try source.nextFrame(now: .now()).frame != nil)
        #expect(try source.nextFrame(now: .now()).isEnd)
        #expect(log.lines == ["pipe: last frame truncated (20 of 48 bytes); ignored"])
    }
}
