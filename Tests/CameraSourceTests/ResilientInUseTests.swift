import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// Another application holds the camera (EBUSY): pipcam stays up and retries once a second.
@Suite struct ResilientInUseTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)
    private let second: Int64 = 1_000_000_000  // the in-use retry interval

    @Test(arguments: ["S_FMT", "REQBUFS", "STREAMON"])
    func busyAtStartWaitsAndRetriesEachSecond(call: String) throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.fail(call, EBUSY) }
        let cam = shop.resilient()
        try cam.start(now: t0)  // does not throw
        #expect(cam.cameraState == .interrupted(.inUse))
        #expect(cam.currentInterruption == .inUse)
        #expect(cam.cameraState.description == "interrupted:in-use")
        #expect(shop.opens == 1)
        // The failed attempt let go of the device (the other application may need it to be closed).
        let busy = shop.device
        #expect(busy.isClosed && busy.mapped.isEmpty)
        #expect(!busy.log.contains("STREAMOFF"))
        #expect(cam.pollDescriptor == nil)
        #expect(!cam.needsBuffersBack)

        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(t0 + second))
        // Asking again before the deadline does not touch the device.
        #expect(try cam.nextFrame(now: t0 + second - 1).waitDeadline == .some(t0 + second))
        #expect(shop.opens == 1)

        // Still busy at the deadline: it tried once and waits another second.
        #expect(try cam.nextFrame(now: t0 + second).waitDeadline == .some(t0 + 2 * second))
        #expect(shop.opens == 2 && shop.devices.count == 2)
        #expect(shop.device !== busy)
        #expect(cam.cameraState == .interrupted(.inUse))
        #expect(try cam.nextFrame(now: t0 + 2 * second - 1).waitDeadline == .some(t0 + 2 * second))
        #expect(shop.opens == 2)

        // Free at the next attempt (late, as a loaded machine may be): it streams.
        shop.prepare = { $0.dequeueScript = [.frame(sequence: 0), .frame(sequence: 1)] }
        let late = t0 + 2 * second + ms(30)
        #expect(try cam.nextFrame(now: late).waitDeadline == .some(nil))
        #expect(shop.opens == 3)
        #expect(shop.openedPaths == Array(repeating: "/nonexistent/video0", count: 3))
        #expect(cam.cameraState == .streaming && cam.currentInterruption == nil)
        #expect(cam.pollDescriptor == 42)
        #expect(cam.frameWidth == 640 && cam.frameHeight == 480)
        let a = try #require(expectFrame(try cam.nextFrame(now: late)))
        cam.recycle(bufferIndex: a.bufferIndex)
        let b = try #require(expectFrame(try cam.nextFrame(now: late)))
        #expect([a.sequence, b.sequence] == [0, 1])
        #expect(shop.device.log.last == "DQBUF")
        #expect(shop.device.log.contains("QBUF \(a.bufferIndex)"))
    }

    @Test func busyAtOpenWaitsToo() throws {
        let shop = FakeCameraShop()
        shop.openErrno = EBUSY
        let cam = shop.resilient()
        try cam.start(now: t0)
        #expect(cam.cameraState == .interrupted(.inUse))
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(t0 + second))
        shop.openErrno = nil
        #expect(try cam.nextFrame(now: t0 + second).waitDeadline == .some(nil))
        #expect(cam.cameraState == .streaming)
    }

    /// Each failed attempt waits one second from that attempt, not from the first.
    @Test func busyRetriesKeepAOneSecondRhythmFromEachAttempt() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.fail("S_FMT", EBUSY) }
        let cam = shop.resilient()
        try cam.start(now: t0)
        var attempt = t0 + second
        for n in 2...6 {
            attempt = attempt + ms(7)  // the loop wakes a little late
            #expect(try cam.nextFrame(now: attempt).waitDeadline == .some(attempt + second))
            #expect(shop.opens == n)
            attempt = attempt + second
        }
        #expect(cam.cameraState == .interrupted(.inUse))
    }

    /// Taken away while streaming (EBUSY from DQBUF): stream off, close, retry a second later.
    @Test func busyWhileStreamingStopsTheStreamAndRetries() throws {
        let shop = FakeCameraShop()
        shop.prepare = { $0.dequeueScript = [.frame(sequence: 0), .fail(.other(EBUSY))] }
        let cam = shop.resilient()
        try cam.start(now: t0)
        let first = shop.device
        let f = try #require(expectFrame(try cam.nextFrame(now: t0)))
        cam.recycle(bufferIndex: f.bufferIndex)
        let mark = first.log.count
        let t1 = t0 + ms(500)
        #expect(try cam.nextFrame(now: t1).waitDeadline == .some(t1 + second))
        #expect(cam.cameraState == .interrupted(.inUse))
        // Not disconnected: STREAMOFF is safe and releases the buffers.
        #expect(Array(first.log[mark...]) == ["DQBUF", "STREAMOFF", "MUNMAP 0", "MUNMAP 1", "MUNMAP 2", "MUNMAP 3", "CLOSE"])
        #expect(try cam.nextFrame(now: t1 + second).waitDeadline == .some(nil))
        #expect(cam.cameraState == .streaming && shop.opens == 2)
    }
}
