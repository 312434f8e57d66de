import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// With no window showing video for a while the camera lets its device go (`SourceControls.idle`: its
/// light off, `interrupted:idle`) once every frame is back, and opens it again as it was when a
/// window shows video again — docs/BEHAVIOUR.md, "When nothing shows the camera".
@Suite struct ResilientIdleTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    private func streaming() throws -> (ResilientCamera, FakeCameraShop) { try FakeCameraShop.streamingCamera(at: t0) }

    @Test func idleClosesTheDeviceOnceFramesAreBackAndReopensItAsItWas() throws {
        let (cam, shop) = try streaming()
        let held = try #require(expectFrame(try cam.nextFrame(now: t0)))
        cam.apply(SourceControls(idle: true))
        #expect(cam.cameraState == .interrupted(.idle))
        // A frame is still out: it is asked for, and the device stays open and unpolled meanwhile.
        #expect(cam.needsBuffersBack && cam.pollDescriptor == nil)
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(nil))
        #expect(!shop.device.isClosed)
        cam.recycle(bufferIndex: held.bufferIndex)
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(nil))
        #expect(shop.device.isClosed && shop.opens == 1, "let go once the frame is back")
        #expect(cam.pollDescriptor == nil && !cam.needsBuffersBack)
        #expect(try cam.nextFrame(now: t0 + ms(5000)).waitDeadline == .some(nil), "stays closed however long")
        #expect(shop.opens == 1)

        cam.apply(SourceControls(idle: false))
        #expect(cam.cameraState == .streaming)
        #expect(try cam.nextFrame(now: t0 + ms(6000)).waitDeadline == .some(nil))
        #expect(shop.opens == 2 && !shop.device.isClosed)
        #expect(shop.device.log.contains("S_FMT YUYV 640x480"), "the same mode again: \(shop.device.log)")
        #expect(expectFrame(try cam.nextFrame(now: t0 + ms(6000))) != nil)
        #expect(cam.pollDescriptor != nil)
    }

    /// Unplugged while idle: back from idle, that is a disconnect to wait out.
    @Test func unpluggedWhileIdleIsADisconnectOnceWanted() throws {
        let (cam, shop) = try streaming()
        cam.apply(SourceControls(idle: true))
        _ = try cam.nextFrame(now: t0)
        #expect(shop.device.isClosed)
        shop.openErrno = ENOENT
        cam.apply(SourceControls(idle: false))
        let step = try cam.nextFrame(now: t0)
        #expect(step.waitDeadline != nil)
        #expect(cam.cameraState == .interrupted(.disconnected))
        shop.openErrno = nil
        _ = try cam.nextFrame(now: t0 + ms(2000))
        #expect(cam.cameraState == .streaming && shop.opens == 3)
    }

    /// Idle over an interruption: the interruption is what is said, and the retries wait.
    @Test func idleWhileInUseWaitsWithoutRetrying() throws {
        let shop = FakeCameraShop()
        shop.prepare = { dev in dev.fail("REQBUFS", EBUSY, times: 100) }
        let cam = shop.resilient()
        try cam.start(now: t0)
        #expect(cam.cameraState == .interrupted(.inUse))
        cam.apply(SourceControls(idle: true))
        #expect(cam.cameraState == .interrupted(.inUse))
        _ = try cam.nextFrame(now: t0 + ms(5000))
        #expect(shop.opens == 1, "no retry while idle")
    }
}
