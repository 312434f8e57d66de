import Testing
import TestSupport
@testable import CameraSource
import PipCore

/// Pausing, seeking and looping real files (docs/BEHAVIOUR.md, "Playing a file"): each test
/// file's frame n says n (a raw or Y4M frame's first byte; an MJPEG frame is the n-th JPEG), so
/// a seek is checked to the exact frame.
@Suite struct FilePlaybackTests {
    static let unpaced = SourceRequest(paced: false)
    static let frameCount = 150

    /// 16x16 I420 frames whose bytes are all n (mod 256).
    static func rawBytes(frames: Int = frameCount) -> [UInt8] {
        (0..<frames).flatMap { [UInt8](repeating: UInt8($0 % 256), count: 16 * 16 * 3 / 2) }
    }

    static func y4mBytes(frames: Int = frameCount) -> [UInt8] {
        Array("YUV4MPEG2 W16 H16 F30:1 C420jpeg\n".utf8)
            + (0..<frames).flatMap { Array("FRAME\n".utf8) + [UInt8](repeating: UInt8($0 % 256), count: 16 * 16 * 3 / 2) }
    }

    static let jpegs = (0..<frameCount).map { Fixture.jpeg(width: 16, height: 16, seed: UInt64($0), quality: 50) }

    enum Kind: String, CaseIterable { case raw, y4m, mjpeg }

    static func open(_ kind: Kind, loops: Bool = false, frames: Int = frameCount) throws -> FileFrameSource {
        let request = SourceRequest(paced: false, loops: loops)
        let source: FileFrameSource
        switch kind {
        case .raw: source = RawSource(path: Fixture.file(rawBytes(frames: frames), name: "clip.yuv"), width: 16, height: 16, format: .i420, request: request)
        case .y4m: source = Y4MSource(path: Fixture.file(y4mBytes(frames: frames), name: "clip.y4m"), request: request)
        case .mjpeg: source = MJPEGSource(path: Fixture.file(Array(jpegs.prefix(frames).joined()), name: "clip.mjpeg"), request: request)
        }
        try source.start()
        return source
    }

    /// Which frame of the test file `frame` is, from its bytes.
    static func number(_ kind: Kind, _ frame: VideoFrame) -> Int? {
        let bytes = payload(frame)
        switch kind {
        case .raw, .y4m: return Int(bytes[0])
        case .mjpeg: return jpegs.firstIndex(of: bytes)
        }
    }

    /// The next frame handed out: its number as the source says and as its bytes say.
    static func next(_ source: FileFrameSource, _ kind: Kind) throws -> (said: Int?, shows: Int?)? {
        guard case .frame(let frame) = try source.nextFrame(now: MonotonicInstant(nanoseconds: 1_000_000_000)) else { return nil }
        defer { source.recycle(bufferIndex: frame.bufferIndex) }
        return (frame.mediaFrame, number(kind, frame))
    }

    static func controls(_ change: (inout PlaybackRequest) -> Void, from controls: inout SourceControls) -> SourceControls {
        change(&controls.playback)
        return controls
    }

    @Test(arguments: Kind.allCases)
    func seeksLandOnTheExactFrameForwardBackAndRelative(kind: Kind) throws {
        let source = try Self.open(kind)
        var controls = SourceControls()
        for expected in 0..<3 { #expect(try Self.next(source, kind)! == (expected, expected)) }
        source.apply(Self.controls({ $0.seek(.frame(120)) }, from: &controls))
        #expect(try Self.next(source, kind)! == (120, 120), "forward past what was read")
        #expect(try Self.next(source, kind)! == (121, 121))
        source.apply(Self.controls({ $0.seek(.frame(5)) }, from: &controls))
        #expect(try Self.next(source, kind)! == (5, 5), "back to a frame read before")
        source.apply(Self.controls({ $0.seek(.relative(2)) }, from: &controls))
        #expect(try Self.next(source, kind)! == (65, 65), "2 s at 30 fps after frame 5")
        source.apply(Self.controls({ $0.seek(.seconds(1)) }, from: &controls))
        #expect(try Self.next(source, kind)! == (30, 30))
        #expect(source.playback?.seekable == true)
    }

    /// Raw and Y4M frames take equal bytes: a file's length says how many it holds from the start.
    @Test(arguments: Kind.allCases)
    func equalFramesTellTheLengthAtOnce(kind: Kind) throws {
        let source = try Self.open(kind, frames: 90)
        #expect(source.playback?.frameCount == (kind == .mjpeg ? nil : 90))
        #expect(source.playback?.length == (kind == .mjpeg ? nil : 3))
    }

    @Test(arguments: Kind.allCases)
    func aSeekPastTheEndShowsTheLastFrameAndLearnsTheLength(kind: Kind) throws {
        let source = try Self.open(kind, frames: 40)
        var controls = SourceControls()
        source.apply(Self.controls({ $0.seek(.frame(400)) }, from: &controls))
        #expect(try Self.next(source, kind)! == (39, 39))
        #expect(source.playback?.frameCount == 40 && source.playback?.length == 40.0 / 30)
        guard case .end = try source.nextFrame(now: MonotonicInstant(nanoseconds: 1)) else { throw HarnessError("no end after the last frame") }
    }

    /// Paused, nothing comes but the frame a seek goes to; playing again goes on from it.
    @Test func pausedOnlyASoughtStillComes() throws {
        let source = try Self.open(.raw)
        var controls = SourceControls()
        _ = try Self.next(source, .raw)
        source.apply(Self.controls({ $0.playing = false }, from: &controls))
        guard case .wait(nil) = try source.nextFrame(now: MonotonicInstant(nanoseconds: 1)) else { throw HarnessError("a paused file handed out a frame") }
        #expect(source.playback?.playing == false)
        source.apply(Self.controls({ $0.seek(.frame(90)) }, from: &controls))
        #expect(try Self.next(source, .raw)! == (90, 90))
        guard case .wait(nil) = try source.nextFrame(now: MonotonicInstant(nanoseconds: 1)) else { throw HarnessError("more than the still while paused") }
        source.apply(Self.controls({ $0.playing = true }, from: &controls))
        #expect(try Self.next(source, .raw)! == (91, 91))
    }

    @Test(arguments: Kind.allCases)
    func aLoopingFileStartsAgainAtItsEnd(kind: Kind) throws {
        let source = try Self.open(kind, loops: true, frames: 4)
        let numbers = try (0..<10).map { _ in try Self.next(source, kind)?.shows }
        #expect(numbers == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1])
        #expect(source.playback?.loops == true && source.playback?.frameCount == 4)
    }

    /// A pipe plays and pauses but cannot seek: a seek is refused with one line and playback goes on.
    @Test func aPipeCannotSeek() throws {
        let source = RawSource(
            fileDescriptor: Fixture.pipe(Self.rawBytes(frames: 20)), name: "stdin", width: 16, height: 16, format: .i420, request: Self.unpaced)
        var warned: [String] = []
        source.warn = { warned.append($0) }
        try source.start()
        var controls = SourceControls()
        _ = try Self.next(source, .raw)
        source.apply(Self.controls({ $0.seek(.frame(10)) }, from: &controls))
        #expect(try Self.next(source, .raw)! == (1, 1))
        #expect(warned == ["stdin: cannot seek (not a regular file); pausing still works"] && source.playback?.seekable == false)
    }

    /// A source taking over (a switch) is not sent to where an earlier source was sought.
    @Test func seeksOfAnEarlierSourceDoNotMoveANewOne() throws {
        var controls = SourceControls()
        controls.playback.seek(.frame(100))
        controls.playback.forgetSeek()
        let source = try Self.open(.raw)
        source.apply(controls)
        #expect(try Self.next(source, .raw)! == (0, 0))
        source.apply(Self.controls({ $0.seek(.frame(7)) }, from: &controls))
        #expect(try Self.next(source, .raw)! == (7, 7))
    }

    /// Held at its end (a file switched to, about to go back): it stays on its last frame and says
    /// so, instead of ending the stream; a seek back plays it again.
    @Test func heldAtItsEndAFileStaysOnItsLastFrame() throws {
        let source = try Self.open(.y4m, frames: 3)
        var controls = SourceControls()
        source.apply(Self.controls({ $0.holdsAtEnd = true }, from: &controls))
        for expected in 0..<3 { #expect(try Self.next(source, .y4m)! == (expected, expected)) }
        guard case .wait(nil) = try source.nextFrame(now: MonotonicInstant(nanoseconds: 1)) else { throw HarnessError("no hold at the end") }
        #expect(source.playback?.ended == true)
        source.apply(Self.controls({ $0.seek(.frame(1)) }, from: &controls))
        #expect(try Self.next(source, .y4m)! == (1, 1))
        #expect(source.playback?.ended == false)
    }
}
