import TestSupport
import Testing
@testable import CameraSource
import PipCore

/// Pacing, buffer lending and end of stream, shared by all file sources.
@Suite struct SourcePacingTests {
    static let t0 = MonotonicInstant(nanoseconds: 5_000_000_000)

    func at(_ milliseconds: Double) -> MonotonicInstant {
        Self.t0.advanced(byNanoseconds: Int64(milliseconds * 1_000_000))
    }

    func raw(frames: Int, fps: Double, paced: Bool) throws -> RawSource {
        let bytes = (0..<frames).flatMap { [UInt8](repeating: UInt8($0), count: 16) }
        let source = RawSource(path: Fixture.file(bytes), width: 4, height: 4, format: .gray, fps: fps, request: SourceRequest(paced: paced))
        try source.start()
        return source
    }

    @Test func pacedFramesAreDueAtExactDeadlines() throws {
        let source = try raw(frames: 5, fps: 25, paced: true)
        let f0 = try #require(try source.nextFrame(now: at(0)).frame)
        #expect(f0.sequence == 0)
        source.recycle(bufferIndex: f0.bufferIndex)
        #expect(try source.nextFrame(now: at(0)).waitDeadline == .some(at(40)))
        #expect(try source.nextFrame(now: at(39.999999)).waitDeadline == .some(at(40)))
        let f1 = try #require(try source.nextFrame(now: at(40)).frame)
        #expect(f1.sequence == 1 && payload(f1) == [UInt8](repeating: 1, count: 16))
        #expect(try source.nextFrame(now: at(41)).waitDeadline == .some(at(80)))
        // Woken slightly late: the schedule is kept (frame 3 is still due at 120 ms).
        #expect(try source.nextFrame(now: at(100)).frame?.sequence == 2)
        #expect(try source.nextFrame(now: at(100)).waitDeadline == .some(at(120)))
    }

    /// The pump asks for the next frame once the display took the last. Taken late (a window not
    /// mapped yet) or just before the next is due, the last frame still gets a whole period on
    /// screen: the schedule restarts there instead of the next frame following at once.
    @Test func aFrameTakenLateStillGetsAWholePeriod() throws {
        let source = try raw(frames: 5, fps: 10, paced: true)
        func frame(at ms: Double) throws -> UInt64? {
            guard let f = try source.nextFrame(now: at(ms)).frame else { return nil }
            source.recycle(bufferIndex: f.bufferIndex)
            return f.sequence
        }
        #expect(try frame(at: 0) == 0)
        #expect(try source.nextFrame(now: at(180)).waitDeadline == .some(at(280)), "frame 0 taken at 180 ms")
        #expect(try frame(at: 280) == 1)
        #expect(try source.nextFrame(now: at(281)).waitDeadline == .some(at(380)), "on schedule again")
        #expect(try frame(at: 380) == 2)
        #expect(try source.nextFrame(now: at(440)).waitDeadline == .some(at(540)), "frame 2 taken 60 ms late: under half a period left")
        #expect(try frame(at: 540) == 3)
    }

    @Test func fractionalRatesRoundDeadlinesUp() throws {
        let source = try raw(frames: 4, fps: 30, paced: true)
        #expect(try source.nextFrame(now: at(0)).frame != nil)
        #expect(try source.nextFrame(now: at(0)).waitDeadline == .some(Self.t0.advanced(byNanoseconds: 33_333_334)))
        #expect(try source.nextFrame(now: Self.t0.advanced(byNanoseconds: 33_333_333)).frame == nil)
        #expect(try source.nextFrame(now: Self.t0.advanced(byNanoseconds: 33_333_334)).frame != nil)
        #expect(try source.nextFrame(now: at(34)).waitDeadline == .some(Self.t0.advanced(byNanoseconds: 66_666_667)))
    }

    @Test func afterAStallTheScheduleRestartsInsteadOfBursting() throws {
        let source = try raw(frames: 6, fps: 10, paced: true)
        #expect(try source.nextFrame(now: at(0)).frame != nil)
        #expect(try source.nextFrame(now: at(1)).waitDeadline == .some(at(100)))
        // Woken 1.9 s late (the thread stalled): frame 1 at once, and the schedule starts again there.
        #expect(try source.nextFrame(now: at(2000)).frame?.sequence == 1)
        #expect(try source.nextFrame(now: at(2001)).waitDeadline == .some(at(2100)))
        #expect(try source.nextFrame(now: at(2100)).frame?.sequence == 2)
    }

    @Test func unpacedFramesComeBackToBack() throws {
        let source = try raw(frames: 3, fps: 1, paced: false)
        let read = try drain(source)
        #expect(read.map(\.frame.sequence) == [0, 1, 2])
        #expect(try source.nextFrame(now: at(0)).isEnd)
        #expect(try source.nextFrame(now: at(0)).isEnd)
    }

    @Test func allBuffersOutMeansWaitWithoutDeadlineUntilRecycled() throws {
        let source = try raw(frames: 6, fps: 30, paced: false)
        var lent: [VideoFrame] = []
        for _ in 0..<3 { lent.append(try #require(try source.nextFrame(now: at(0)).frame)) }
        #expect(Set(lent.map(\.bufferIndex)) == [0, 1, 2])
        #expect(try source.nextFrame(now: at(0)).waitDeadline == .some(nil))
        // Frames already lent stay intact while we wait.
        #expect(lent.map { payload($0)[0] } == [0, 1, 2])
        source.recycle(bufferIndex: 7)  // unknown: ignored
        #expect(try source.nextFrame(now: at(0)).waitDeadline == .some(nil))
        source.recycle(bufferIndex: lent[1].bufferIndex)
        let next = try #require(try source.nextFrame(now: at(0)).frame)
        #expect(next.bufferIndex == lent[1].bufferIndex && next.sequence == 3 && payload(next)[0] == 3)
        #expect(payload(lent[0])[0] == 0 && payload(lent[2])[0] == 2)
        for frame in [lent[0], lent[2], next] { source.recycle(bufferIndex: frame.bufferIndex) }
        #expect(try drain(source).map(\.frame.sequence) == [4, 5])
    }

    @Test func endAndExhaustionWorkTheSameForY4MAndMJPEG() throws {
        let y = Y4MSource(path: Fixture.file(y4m("W2 H2 F50:1", frames: Array(repeating: [1, 2, 3, 4, 5, 6], count: 4))), request: SourceRequest(paced: true))
        try y.start()
        #expect(y.frameRate == 50)
        for i in 0..<3 {
            // As the pump does: asked once the last frame was taken, then at the deadline.
            if i > 0 { #expect(try y.nextFrame(now: at(Double(i) * 20 - 19)).waitDeadline == .some(at(Double(i) * 20))) }
            #expect(try y.nextFrame(now: at(Double(i) * 20)).frame?.sequence == UInt64(i))
        }
        #expect(try y.nextFrame(now: at(40)).waitDeadline == .some(at(60)))
        #expect(try y.nextFrame(now: at(60)).waitDeadline == .some(nil))
        y.recycle(bufferIndex: 0)
        #expect(try y.nextFrame(now: at(60)).frame?.bufferIndex == 0)
        #expect(try y.nextFrame(now: at(61)).waitDeadline == .some(at(80)))
        // The end is only found by reading, which needs a free buffer.
        #expect(try y.nextFrame(now: at(80)).waitDeadline == .some(nil))
        y.recycle(bufferIndex: 1)
        #expect(try y.nextFrame(now: at(80)).isEnd)

        let jpeg = Fixture.jpeg(width: 16, height: 16, seed: 4)
        let m = MJPEGSource(path: Fixture.file(jpeg + jpeg), fps: 5, request: SourceRequest(paced: true))
        try m.start()
        #expect(try m.nextFrame(now: at(0)).frame != nil)
        #expect(try m.nextFrame(now: at(0)).waitDeadline == .some(at(200)))
        #expect(try m.nextFrame(now: at(200)).frame != nil)
        #expect(try m.nextFrame(now: at(201)).waitDeadline == .some(at(400)))
        #expect(try m.nextFrame(now: at(400)).isEnd)
    }

    @Test func timestampsAreTakenWhenFramesAreRead() throws {
        let source = try raw(frames: 2, fps: 30, paced: false)
        let before = MonotonicInstant.now()
        let frame = try #require(try source.nextFrame(now: at(0)).frame)
        #expect(frame.timestamp >= before && frame.timestamp <= MonotonicInstant.now())
    }

    @Test func stopEndsPlayback() throws {
        let source = try raw(frames: 3, fps: 30, paced: false)
        source.stop()
        #expect(try source.nextFrame(now: at(0)).isEnd)
        source.stop()
        try source.start()  // a stopped source stays stopped
        #expect(try source.nextFrame(now: at(0)).isEnd)
    }

    @Test func pacerOffsets() {
        #expect(FramePacer.offset(frames: 1, fps: 30) == 33_333_334)
        #expect(FramePacer.offset(frames: 3, fps: 30) == 100_000_000)
        #expect(FramePacer.offset(frames: 1001, fps: 30000.0 / 1001) == 33_400_033_334)
    }
}
