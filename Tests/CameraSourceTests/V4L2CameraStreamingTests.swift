import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct V4L2CameraStreamingTests {
    private let now = MonotonicInstant(nanoseconds: 5_000_000_000)

    /// A started UVC camera (YUYV 640x480, 4 buffers) and its device, log cleared of the start.
    private func streaming(_ w: Int = 480, _ h: Int = 270) throws -> (V4L2Camera, FakeV4L2Device, Int) {
        let dev = FakeCameras.uvcWebcam()
        let cam = makeCamera(dev, w, h)
        try cam.start()
        return (cam, dev, dev.log.count)
    }

    private func frame(_ step: SourceStep, sourceLocation: SourceLocation = #_sourceLocation) -> VideoFrame? {
        guard case .frame(let f) = step else {
            Issue.record("expected a frame, got \(step)", sourceLocation: sourceLocation)
            return nil
        }
        return f
    }

    @Test func wouldBlockWaitsForThePollUntilTheStallDeadline() throws {
        let (cam, dev, start) = try streaming()
        guard case .wait(let deadline) = try cam.nextFrame(now: now) else { Issue.record("no wait"); return }
        #expect(deadline == now.advanced(byNanoseconds: V4L2Camera.firstFrameStallNanoseconds))
        #expect(Array(dev.log[start...]) == ["DQBUF"])
    }

    /// Buffers queued and no frame (the driver stopped filling them without an error): the stream
    /// is restarted after 3 s (6 s for the first frame), then after twice as long each time, up
    /// to 48 s, and never given up on; a frame resets the wait.
    @Test func aStalledStreamIsRestartedAndNeverGivenUp() throws {
        let (cam, dev, _) = try streaming()
        dev.dequeueScript = [.frame(sequence: 0)]
        let f = try #require(frame(try cam.nextFrame(now: now)))
        cam.recycle(bufferIndex: f.bufferIndex)
        var t = now, restarts: [Int64] = []
        for _ in 0..<8 {
            guard case .wait(let next) = try cam.nextFrame(now: t), let next else { Issue.record("no deadline"); return }
            let before = cam.streamRestarts
            t = next
            guard case .wait = try cam.nextFrame(now: t) else { Issue.record("no wait"); return }
            if cam.streamRestarts > before { restarts.append(Int64(t.nanoseconds - now.nanoseconds) / 1_000_000_000) }
        }
        // Restarted at 3, 3+6, 9+12, 21+24, then every 48 s.
        #expect(Array(restarts.prefix(6)) == [3, 9, 21, 45, 93, 141], "\(restarts)")
        #expect(cam.stalls == restarts.count && cam.streamRestarts == cam.stalls)
        #expect(dev.log.suffix(6).contains("STREAMON"))
        // A frame again: the next stall is 3 s away.
        dev.dequeueScript = [.frame(sequence: 0)]
        let g = try #require(frame(try cam.nextFrame(now: t)))
        cam.recycle(bufferIndex: g.bufferIndex)
        guard case .wait(let next) = try cam.nextFrame(now: t) else { Issue.record("no wait"); return }
        #expect(next == t.advanced(byNanoseconds: V4L2Camera.stallNanoseconds))
    }

    /// While the display holds every buffer no frame can come: no stall deadline, no restart.
    @Test func noStallWhileTheDisplayHoldsEveryBuffer() throws {
        let (cam, dev, _) = try streaming()
        dev.dequeueScript = (0..<4).map { .frame(sequence: UInt32($0)) }
        for _ in 0..<4 { _ = try #require(frame(try cam.nextFrame(now: now))) }
        guard case .wait(let deadline) = try cam.nextFrame(now: now.advanced(byNanoseconds: 60_000_000_000)) else {
            Issue.record("no wait")
            return
        }
        #expect(deadline == nil && cam.streamRestarts == 0)
    }

    @Test func deliversFramesWithBufferTimestampAndSequence() throws {
        let (cam, dev, _) = try streaming()
        let stamp = MonotonicInstant(nanoseconds: 4_990_000_000)
        dev.dequeueScript = [.frame(sequence: 7, timestamp: stamp)]
        let f = try #require(frame(try cam.nextFrame(now: now)))
        #expect(f.bufferIndex == 0 && f.sequence == 7 && f.timestamp == stamp)
        #expect(f.format == .yuyv && f.plane0.stride == 1280 && f.byteCount == 640 * 480 * 2)
        #expect(f.colorimetry == Colorimetry(matrix: .bt601, range: .limited))
        #expect(cam.framesCaptured == 1 && cam.droppedFrames == 0)
    }

    @Test func nonMonotonicTimestampUsesNow() throws {
        let (cam, dev, _) = try streaming()
        dev.dequeueScript = [.frame(sequence: 0, monotonic: false, timestamp: MonotonicInstant(nanoseconds: 123))]
        #expect(frame(try cam.nextFrame(now: now))?.timestamp == now)
    }

    @Test func interruptedDequeueIsRetried() throws {
        let (cam, dev, start) = try streaming()
        dev.dequeueScript = [.fail(.interrupted), .frame(sequence: 0)]
        #expect(frame(try cam.nextFrame(now: now)) != nil)
        #expect(Array(dev.log[start...]) == ["DQBUF", "DQBUF"])
    }

    @Test func errorFlagDropsAndRequeues() throws {
        let (cam, dev, start) = try streaming()
        dev.dequeueScript = [.frame(sequence: 0, hasError: true), .frame(sequence: 1)]
        let f = try #require(frame(try cam.nextFrame(now: now)))
        #expect(f.bufferIndex == 1 && f.sequence == 1)
        #expect(cam.droppedFrames == 1 && cam.framesCaptured == 1)
        #expect(Array(dev.log[start...]) == ["DQBUF", "QBUF 0", "DQBUF"])
    }

    @Test func shortBufferIsDropped() throws {
        let (cam, dev, start) = try streaming()
        dev.dequeueScript = [.frame(sequence: 0, bytesUsed: 640 * 2 * 100), .frame(sequence: 1)]
        #expect(frame(try cam.nextFrame(now: now))?.sequence == 1)
        #expect(cam.droppedFrames == 1)
        #expect(Array(dev.log[start...]) == ["DQBUF", "QBUF 0", "DQBUF"])
    }

    @Test func emptyMJPEGIsDroppedAndPayloadSizeKept() throws {
        let (cam, dev, _) = try streaming(1280, 720)
        #expect(cam.format?.fourcc == .mjpeg && cam.frameFormat == .mjpeg)
        dev.dequeueScript = [.frame(sequence: 0, bytesUsed: 0), .frame(sequence: 1, bytesUsed: 54321)]
        let f = try #require(frame(try cam.nextFrame(now: now)))
        #expect(f.format == .mjpeg && f.byteCount == 54321 && f.colorimetry == .jpeg)
        #expect(cam.droppedFrames == 1)
    }

    @Test func sequenceGapsCountAsDropped() throws {
        let (cam, dev, _) = try streaming()
        dev.dequeueScript = [.frame(sequence: 0), .frame(sequence: 3), .frame(sequence: 4)]
        for _ in 0..<3 {
            let f = try #require(frame(try cam.nextFrame(now: now)))
            cam.recycle(bufferIndex: f.bufferIndex)
        }
        #expect(cam.droppedFrames == 2 && cam.framesCaptured == 3)
    }

    @Test func recycleQueuesThatBufferOnce() throws {
        let (cam, dev, start) = try streaming()
        dev.dequeueScript = [.frame(sequence: 0), .frame(sequence: 1)]
        let a = try #require(frame(try cam.nextFrame(now: now)))
        let b = try #require(frame(try cam.nextFrame(now: now)))
        cam.recycle(bufferIndex: b.bufferIndex)
        cam.recycle(bufferIndex: b.bufferIndex)
        cam.recycle(bufferIndex: 3)  // still queued: not ours to give back
        cam.recycle(bufferIndex: 99)
        #expect(Array(dev.log[start...]) == ["DQBUF", "DQBUF", "QBUF 1"])
        cam.recycle(bufferIndex: a.bufferIndex)
        #expect(dev.log.last == "QBUF 0")
        #expect(dev.queue == [2, 3, 1, 0])
    }

    @Test func disconnectThrowsAndStopSkipsStreamOff() throws {
        let (cam, dev, start) = try streaming()
        dev.dequeueScript = [.fail(.noDevice)]
        let e = sourceError { _ = try cam.nextFrame(now: now) }
        #expect(e == .interrupted(thing: "/dev/video0", .disconnected))
        #expect(e?.cameraInterruption == .disconnected && e?.exitCode == 1)
        #expect(cam.interruption == .disconnected)
        // Asking again reports the same without touching the device.
        #expect(sourceError { _ = try cam.nextFrame(now: now) } == e)
        cam.stop()
        #expect(Array(dev.log[start...]) == ["DQBUF", "MUNMAP 0", "MUNMAP 1", "MUNMAP 2", "MUNMAP 3", "CLOSE"])
    }

    @Test func repeatedIOErrorsRestartTheStream() throws {
        let (cam, dev, _) = try streaming()
        dev.dequeueScript = [.frame(sequence: 0)]
        let held = try #require(frame(try cam.nextFrame(now: now)))
        let start = dev.log.count
        dev.dequeueScript = [.fail(.io), .fail(.io), .fail(.io)]
        guard case .wait(nil) = try cam.nextFrame(now: now) else { Issue.record("no wait after restart"); return }
        // The buffer the display holds stays out until it is recycled.
        #expect(Array(dev.log[start...]) == [
            "DQBUF", "DQBUF", "DQBUF", "STREAMOFF", "QBUF 1", "QBUF 2", "QBUF 3", "STREAMON",
        ])
        #expect(cam.streamRestarts == 1 && cam.ioErrors == 3)
        cam.recycle(bufferIndex: held.bufferIndex)
        #expect(dev.log.last == "QBUF 0")
        // Sequence numbers restart at 0: no gap is counted.
        dev.dequeueScript = [.frame(sequence: 0)]
        #expect(frame(try cam.nextFrame(now: now)) != nil)
        #expect(cam.droppedFrames == 0)
    }

    @Test func fewIOErrorsDoNotRestart() throws {
        let (cam, dev, _) = try streaming()
        dev.dequeueScript = [.fail(.io), .fail(.io), .frame(sequence: 0), .fail(.io), .fail(.io)]
        #expect(frame(try cam.nextFrame(now: now)) != nil)
        guard case .wait = try cam.nextFrame(now: now) else { Issue.record("no wait"); return }
        #expect(cam.streamRestarts == 0 && cam.ioErrors == 4)
    }

    @Test func endlessIOErrorsFail() throws {
        let (cam, dev, _) = try streaming()
        var failed: SourceError?
        for _ in 0..<10 where failed == nil {
            dev.dequeueScript = Array(repeating: .fail(.io), count: V4L2Camera.ioErrorsBeforeRestart)
            failed = sourceError { _ = try cam.nextFrame(now: now) }
        }
        #expect(cam.streamRestarts == V4L2Camera.restartsBeforeFailure)
        guard case .runtime(let thing, _) = failed else { Issue.record("no runtime error"); return }
        #expect(thing == "/dev/video0")
    }

    @Test func failedRecycleIsReportedByNextFrame() throws {
        let (cam, dev, _) = try streaming()
        dev.dequeueScript = [.frame(sequence: 0)]
        let f = try #require(frame(try cam.nextFrame(now: now)))
        dev.fail("QBUF", ENODEV)
        cam.recycle(bufferIndex: f.bufferIndex)
        #expect(sourceError { _ = try cam.nextFrame(now: now) }?.cameraInterruption == .disconnected)
        cam.stop()
        #expect(!dev.log.contains("STREAMOFF"))
    }

    /// A driver that flagged a fatal queue error refuses QBUF with EIO too (vb2): the buffer waits,
    /// and the restart that the DQBUF errors bring queues it again.
    @Test func aBufferRefusedWithEIOIsQueuedAgainByTheRestart() throws {
        let (cam, dev, _) = try streaming()
        let count = V4L2Camera.requestedBufferCount
        dev.dequeueScript = [.frame(sequence: 0)]
        let f = try #require(frame(try cam.nextFrame(now: now)))
        dev.fail("QBUF", EIO)
        cam.recycle(bufferIndex: f.bufferIndex)
        dev.dequeueScript = [.fail(.io), .fail(.io), .fail(.io), .frame(sequence: 0)]
        guard case .wait = try cam.nextFrame(now: now) else {
            Issue.record("the third EIO from DQBUF restarts the stream and waits")
            return
        }
        #expect(cam.streamRestarts == 1)
        #expect(dev.queue.count == count, "every buffer is queued again")
        #expect(frame(try cam.nextFrame(now: now)) != nil)
    }
}
