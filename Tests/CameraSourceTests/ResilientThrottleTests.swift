import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// Under pressure a camera hands out one frame in 2^level; the others go straight back to the
/// driver, and sequence numbers are renumbered so a gap still means a frame the driver dropped.
@Suite struct ResilientThrottleTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    /// A streaming camera whose device will deliver driver sequence numbers `sequences`.
    private func streaming(_ sequences: [UInt32]) throws -> (ResilientCamera, FakeV4L2Device) {
        let shop = FakeCameraShop()
        shop.prepare = { dev in dev.dequeueScript = sequences.map { .frame(sequence: $0) } }
        let cam = shop.resilient()
        try cam.start(now: t0)
        return (cam, shop.device)
    }

    /// Takes one frame and gives it back; returns it with the device calls that call made.
    private func take(_ cam: ResilientCamera, _ dev: FakeV4L2Device) throws -> (frame: VideoFrame, calls: [String])? {
        let mark = dev.log.count
        guard let f = expectFrame(try cam.nextFrame(now: t0)) else { return nil }
        let calls = Array(dev.log[mark...])
        cam.recycle(bufferIndex: f.bufferIndex)
        return (f, calls)
    }

    @Test func levelOneHandsOutEveryOtherFrameAndRequeuesTheRestAtOnce() throws {
        let (cam, dev) = try streaming(Array(0..<8))
        #expect(cam.cameraState == .streaming)
        cam.apply(SourceControls(throttle: 1))
        #expect(cam.cameraState == .interrupted(.pressure))
        #expect(cam.cameraState.description == "interrupted:pressure")
        var sequences: [UInt64] = []
        var handedOut: [Int] = []
        for _ in 0..<4 {
            let (f, calls) = try #require(try take(cam, dev))
            sequences.append(f.sequence)
            handedOut.append(f.bufferIndex)
            // One frame dequeued and queued again right away, the next handed out.
            #expect(calls.count == 3)
            #expect(calls.first == "DQBUF" && calls.last == "DQBUF")
            if calls.count == 3 {
                #expect(calls[1].hasPrefix("QBUF ") && calls[1] != "QBUF \(f.bufferIndex)")
            }
        }
        // Buffers 0 and 2 carried the frames left out (driver 0, 2, 4, 6); 1 and 3 the ones shown.
        let requeued = dev.log.filter { $0.hasPrefix("QBUF") }.suffix(8)
        #expect(Array(requeued) == ["QBUF 0", "QBUF 1", "QBUF 2", "QBUF 3", "QBUF 0", "QBUF 1", "QBUF 2", "QBUF 3"])
        #expect(handedOut == [1, 3, 1, 3])
        // Driver frames 1, 3, 5, 7 went out numbered without gaps.
        #expect(sequences == [0, 1, 2, 3])
        #expect(try cam.nextFrame(now: t0).waitDeadline == t0.advanced(byNanoseconds: V4L2Camera.stallNanoseconds))
    }

    @Test func levelTwoHandsOutOneFrameInFour() throws {
        let (cam, dev) = try streaming(Array(0..<12))
        cam.apply(SourceControls(throttle: 2))
        var sequences: [UInt64] = []
        for _ in 0..<3 {
            let (f, calls) = try #require(try take(cam, dev))
            sequences.append(f.sequence)
            #expect(calls.filter { $0 == "DQBUF" }.count == 4)
        }
        #expect(sequences == [0, 1, 2])
        #expect(cam.cameraState == .interrupted(.pressure))
    }

    @Test func realDriverGapsStillShowWhileThrottled() throws {
        // The driver skipped frame 9.
        let (cam, dev) = try streaming([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13])
        cam.apply(SourceControls(throttle: 1))
        var sequences: [UInt64] = []
        for _ in 0..<6 { sequences.append(try #require(try take(cam, dev)).frame.sequence) }
        // 0 1 2 3 from driver 1 3 5 7; driver 10 and 12 come out as 5 and 6: the gap after 3 is the lost frame 9.
        #expect(sequences == [0, 1, 2, 3, 5, 6])
    }

    @Test func levelZeroRestoresEveryFrameAndKeepsNumbering() throws {
        let (cam, dev) = try streaming(Array(0..<10))
        cam.apply(SourceControls(throttle: 1))
        var sequences: [UInt64] = []
        for _ in 0..<3 { sequences.append(try #require(try take(cam, dev)).frame.sequence) }
        cam.apply(SourceControls(throttle: 0))
        #expect(cam.cameraState == .streaming)
        for _ in 0..<4 {
            let (f, calls) = try #require(try take(cam, dev))
            sequences.append(f.sequence)
            #expect(calls == ["DQBUF"])
        }
        // Driver 1 3 5 then 6 7 8 9: consecutive, no gap invented or hidden.
        #expect(sequences == [0, 1, 2, 3, 4, 5, 6])
    }

    @Test func throttleLevelsAreClamped() throws {
        let (cam, _) = try streaming([])
        cam.apply(SourceControls(throttle: -3))
        #expect(cam.cameraState == .streaming)
        cam.apply(SourceControls(throttle: 99))
        #expect(cam.cameraState == .interrupted(.pressure))
    }

    /// An interruption says more than pressure: it wins while both apply, and pressure shows again after.
    @Test func interruptionWinsOverPressure() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.fail(.noDevice)] }
        let cam = shop.resilient()
        try cam.start(now: t0)
        cam.apply(SourceControls(throttle: 1))
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(t0 + ms(250)))
        #expect(cam.cameraState == .interrupted(.disconnected))
        shop.prepare = { $0.dequeueScript = (0..<4).map { .frame(sequence: $0) } }
        #expect(try cam.nextFrame(now: t0 + ms(250)).waitDeadline == .some(nil))
        #expect(cam.cameraState == .interrupted(.pressure))
        // The reopened stream starts numbering afresh, throttled as before.
        let f = try #require(expectFrame(try cam.nextFrame(now: t0 + ms(250))))
        #expect(f.sequence == 0)
        #expect(shop.device.log.filter { $0 == "DQBUF" }.count == 2)
    }

    /// Regression: the driver numbers frames from 0 again after a stream restart (repeated EIO);
    /// subtracting the frames throttled before it wrapped the sequence to nearly 2^64, which the
    /// display's drop counter turns into a trap (`Int(sequence - last - 1)`).
    @Test func streamRestartWhileThrottledDoesNotWrapSequences() throws {
        let (cam, dev) = try streaming(Array(0..<4))
        cam.apply(SourceControls(throttle: 1))
        #expect(try #require(try take(cam, dev)).frame.sequence == 0)
        #expect(try #require(try take(cam, dev)).frame.sequence == 1)
        dev.dequeueScript = Array(repeating: .fail(.io), count: V4L2Camera.ioErrorsBeforeRestart)
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(nil))
        #expect(dev.log.contains("STREAMOFF"))
        dev.dequeueScript = (0..<4).map { .frame(sequence: $0) }
        let a = try #require(try take(cam, dev)).frame
        let b = try #require(try take(cam, dev)).frame
        // Numbering starts over like the driver's (a drop counter sees no gap going backwards).
        #expect([a.sequence, b.sequence] == [0, 1])
    }
}
