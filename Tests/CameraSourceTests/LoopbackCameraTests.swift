import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// Reading a virtual camera (v4l2loopback), as OBS, phone-as-webcam tools and ffmpeg make them:
/// its reader gets whichever buffer the writer filled last, its format exists only while a writer
/// streams, and its writer may stop and come back at another size (docs/BEHAVIOUR.md, "Virtual
/// cameras").
@Suite struct LoopbackCameraTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    private func streaming() throws -> (V4L2Camera, FakeV4L2Device) {
        let dev = FakeCameras.loopback()
        let cam = makeCamera(dev)
        try cam.start()
        return (cam, dev)
    }

    /// The driver hands out the buffer its writer filled last — here the same one each time, as
    /// for a writer that dequeues its output buffers — whether the reader queued it or not: never
    /// a fatal "not queued". Each frame is copied out, so a frame the display holds keeps its
    /// picture however often the writer fills the driver's buffer again.
    @Test func framesAreCopiedOutOfTheWritersBuffers() throws {
        let (cam, dev) = try streaming()
        func fill(_ value: UInt8) { dev.mapped[1]!.initializeMemory(as: UInt8.self, repeating: value, count: 640 * 360 * 2) }
        func first(_ f: VideoFrame) -> UInt8 { f.plane0.base.load(as: UInt8.self) }
        dev.dequeueScript = (0..<4).map { .buffer(index: 1, sequence: UInt32($0)) }
        fill(0xAA)
        let a = try #require(expectFrame(try cam.nextFrame(now: t0)))
        fill(0xBB)
        let b = try #require(expectFrame(try cam.nextFrame(now: t0 + ms(33))))
        #expect(first(a) == 0xAA && first(b) == 0xBB && a.bufferIndex != b.bufferIndex)
        #expect(dev.queue.contains(1), "the driver's buffer goes back at once")
        let c = try #require(expectFrame(try cam.nextFrame(now: t0 + ms(66))))
        #expect(cam.clientHeldBuffers == 3)
        // The display holds every copy: the next frame is dropped, not written over one it holds.
        guard case .wait = try cam.nextFrame(now: t0 + ms(100)) else { Issue.record("expected a wait"); return }
        #expect(cam.droppedFrames == 1 && first(a) == 0xAA)
        cam.recycle(bufferIndex: a.bufferIndex)
        dev.dequeueScript = [.buffer(index: 1, sequence: 4)]
        fill(0xCC)
        let d = try #require(expectFrame(try cam.nextFrame(now: t0 + ms(133))))
        #expect(d.bufferIndex == a.bufferIndex && first(d) == 0xCC && first(b) == 0xBB)
        for f in [b, c, d] { cam.recycle(bufferIndex: f.bufferIndex) }
        #expect(cam.clientHeldBuffers == 0)
    }

    /// No frame for `loopbackWriterGoneNanoseconds`: the writer is gone. The camera reports a
    /// disconnect (so the device is let go and a new writer may set another size), not a stall
    /// to restart forever.
    @Test func aQuietLoopbackIsAWriterGone() throws {
        let (cam, dev) = try streaming()
        dev.dequeueScript = [.buffer(index: 0, sequence: 0)]
        let f = try #require(expectFrame(try cam.nextFrame(now: t0)))
        cam.recycle(bufferIndex: f.bufferIndex)
        guard case .wait(let deadline?) = try cam.nextFrame(now: t0 + ms(10)) else { Issue.record("no deadline"); return }
        #expect(deadline == t0 + ms(10) + V4L2Camera.loopbackWriterGoneNanoseconds)
        let error = sourceError { _ = try cam.nextFrame(now: deadline) }
        #expect(error == .interrupted(thing: "/dev/video0", .disconnected))
        #expect(cam.stalls == 0 && cam.streamRestarts == 0)
    }

    /// Even while the display holds both buffers, a loopback can deliver (and its writer can
    /// go): the writer-gone deadline runs.
    @Test func theWriterGoneDeadlineRunsWhileTheDisplayHoldsEveryBuffer() throws {
        let (cam, dev) = try streaming()
        dev.dequeueScript = [.buffer(index: 0, sequence: 0), .buffer(index: 1, sequence: 1)]
        _ = try #require(expectFrame(try cam.nextFrame(now: t0)))
        _ = try #require(expectFrame(try cam.nextFrame(now: t0)))
        guard case .wait(let deadline) = try cam.nextFrame(now: t0) else { Issue.record("no wait"); return }
        #expect(deadline == t0 + V4L2Camera.loopbackWriterGoneNanoseconds)
    }

    /// With `exclusive_caps=1` a loopback nobody writes is an output device: a camera not plugged
    /// in yet, not a bad input.
    @Test func aLoopbackWithNoWriterIsDisconnectedNotBadInput() {
        let cam = makeCamera(FakeCameras.loopback(writing: false))
        let error = sourceError { try cam.start() }
        #expect(error == .interrupted(thing: "/dev/video0", .disconnected))
    }

    /// Any other output-only device stays a bad input.
    @Test func anOutputDeviceThatIsNoLoopbackIsBadInput() {
        let dev = FakeCameras.loopback(writing: false)
        dev.capabilities.driver = "vim2m"
        let error = sourceError { try makeCamera(dev).start() }
        #expect(error == .badInput(thing: "/dev/video0", reason: "not a video capture device"))
    }

    /// The whole story through `ResilientCamera`: started before the writer (no error, waiting),
    /// the writer comes, frames flow; the writer stops, the device is closed and retried; the
    /// writer comes back at another size, frames flow at the new size.
    @Test func resilientCameraWaitsForTheWriterAndFollowsItsRestarts() throws {
        var writing = false
        var size = V4L2Size(640, 360)
        var devices: [FakeV4L2Device] = []
        let camera = ResilientCamera(path: "/nonexistent/video10", request: SourceRequest()) { path, request in
            V4L2Camera(path: path, request: request, openDevice: { _ throws(V4L2Error) in
                let d = FakeCameras.loopback(writing: writing)
                d.sizes = [.yuyv: .discrete([size])]
                d.dequeueScript = (0..<3).map { .buffer(index: Int($0) % 2, sequence: $0) }
                devices.append(d)
                return d
            })
        }
        try camera.start(now: t0)
        #expect(camera.cameraState == .interrupted(.disconnected))
        #expect(devices.last?.isClosed == true)
        var now = t0
        // Retries while nobody writes; each attempt closes the device again.
        now = now + ms(5_000)
        _ = try camera.nextFrame(now: now)
        #expect(camera.cameraState == .interrupted(.disconnected))
        writing = true
        now = now + ms(5_000)
        _ = try camera.nextFrame(now: now)
        #expect(camera.cameraState == .streaming)
        var frame = try #require(expectFrame(try camera.nextFrame(now: now)))
        #expect(frame.width == 640 && frame.height == 360)
        camera.recycle(bufferIndex: frame.bufferIndex)
        // The writer stops: a disconnect once the quiet time is over, and the device is closed.
        writing = false
        for _ in 0..<3 { if case .frame(let f) = try camera.nextFrame(now: now) { camera.recycle(bufferIndex: f.bufferIndex) } }
        #expect(camera.cameraState == .streaming)
        now = now + V4L2Camera.loopbackWriterGoneNanoseconds
        _ = try camera.nextFrame(now: now)
        _ = try camera.nextFrame(now: now)
        #expect(camera.cameraState == .interrupted(.disconnected))
        #expect(devices.last?.isClosed == true)
        // Back at another size.
        writing = true
        size = V4L2Size(320, 180)
        now = now + ms(10_000)
        _ = try camera.nextFrame(now: now)
        #expect(camera.cameraState == .streaming)
        frame = try #require(expectFrame(try camera.nextFrame(now: now)))
        #expect(frame.width == 320 && frame.height == 180)
    }
}
