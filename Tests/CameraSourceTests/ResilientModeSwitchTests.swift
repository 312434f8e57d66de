import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// A resized window makes the camera switch modes (`SourceControls.displaySize`): once
/// the display gave back every frame, the device is closed and opened again in the mode that suits
/// the new size; small changes keep the stream as it is.
@Suite struct ResilientModeSwitchTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    private func streaming() throws -> (ResilientCamera, FakeCameraShop) { try FakeCameraShop.streamingCamera(at: t0) }

    @Test func aMuchLargerWindowReopensTheCameraInALargerModeOnceFramesAreBack() throws {
        let (cam, shop) = try streaming()
        #expect(shop.device.log.contains("S_FMT YUYV 640x480"))
        #expect(cam.frameWidth == 640 && cam.frameHeight == 480)
        let held = try #require(expectFrame(try cam.nextFrame(now: t0)))
        #expect(cam.pollDescriptor != nil)

        cam.apply(SourceControls(displaySize: .init(width: 1000, height: 750)))
        // The display still holds a frame mapped from the device: it is asked for it, nothing else happens.
        #expect(cam.needsBuffersBack)
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(nil))
        #expect(shop.opens == 1 && !shop.device.isClosed)
        // Nor is the device polled meanwhile: its frames stay undequeued, so it would always be readable.
        #expect(cam.pollDescriptor == nil)

        cam.recycle(bufferIndex: held.bufferIndex)
        #expect(!cam.needsBuffersBack)
        _ = try cam.nextFrame(now: t0)
        #expect(shop.opens == 2 && shop.devices[0].isClosed)
        // No 4:3 mode smooth enough covers 1000x750 here: the smallest that does, MJPEG 1280x720
        // (1920x1080 would be decoded whole for it: no cheaper).
        #expect(shop.device.log.contains("S_FMT MJPG 1280x720"), "\(shop.device.log)")
        #expect(cam.frameWidth == 1280 && cam.frameHeight == 720 && cam.frameFormat == .mjpeg)
        #expect(cam.modeSwitches == 1 && cam.cameraState == .streaming)
        #expect(expectFrame(try cam.nextFrame(now: t0)) != nil, "streams in the new mode")
        #expect(cam.pollDescriptor != nil)
    }

    /// Unplugged while the mode switch waits for its frames: the reopen finds no node, for the new
    /// mode and the old one; that is a disconnect to wait out, not an error that ends pipcam.
    @Test func unpluggedDuringASwitchIsADisconnect() throws {
        let (cam, shop) = try streaming()
        let held = try #require(expectFrame(try cam.nextFrame(now: t0)))
        cam.apply(SourceControls(displaySize: .init(width: 800, height: 600)))
        cam.recycle(bufferIndex: held.bufferIndex)
        shop.openErrno = ENOENT
        let step = try cam.nextFrame(now: t0)
        #expect(step.waitDeadline != nil, "\(step)")
        #expect(cam.cameraState == .interrupted(.disconnected))
        // Plugged back in: it streams again.
        shop.openErrno = nil
        var now = t0
        var frame: VideoFrame?
        for _ in 0..<20 where frame == nil {
            now = now + 500_000_000
            if case .frame(let f) = try cam.nextFrame(now: now) { frame = f }
        }
        #expect(frame != nil && cam.cameraState == .streaming)
    }

    @Test func smallChangesAndSettledSizesKeepTheStream() throws {
        let (cam, shop) = try streaming()
        cam.apply(SourceControls(displaySize: .init(width: 700, height: 525)))  // within a tenth of 640x480
        cam.apply(SourceControls(displaySize: .init(width: 480, height: 360)))  // smaller, but 640x480 is the smallest 4:3 mode covering it
        #expect(!cam.needsBuffersBack)
        #expect(expectFrame(try cam.nextFrame(now: t0)) != nil)
        #expect(shop.opens == 1 && cam.modeSwitches == 0)
        // A switch asked for and then taken back before it happened does not happen.
        cam.apply(SourceControls(displaySize: .init(width: 1920, height: 1080)))
        cam.apply(SourceControls(displaySize: .init(width: 640, height: 480)))
        _ = try cam.nextFrame(now: t0)
        #expect(shop.opens == 1 && cam.modeSwitches == 0)
    }

    @Test func aMuchSmallerWindowSwitchesDownAndAFailedModeFallsBack() throws {
        // An MJPEG-only camera with 16:9 modes.
        let shop = FakeCameraShop()
        var refuseNext = false
        shop.prepare = { dev in
            dev.formats = [V4L2FormatDescription(fourcc: .mjpeg, description: "Motion-JPEG", isCompressed: true)]
            dev.sizes = [.mjpeg: .discrete([V4L2Size(640, 360), V4L2Size(1280, 720), V4L2Size(1920, 1080)])]
            dev.defaultIntervals = .discrete([.interval(fps: 30)])
            dev.dequeueScript = (0..<8).map { .frame(sequence: $0) }
            if refuseNext { dev.fail("S_FMT", EINVAL) }
            refuseNext = false
        }
        let cam = shop.resilient()
        try cam.start(now: t0)
        #expect(cam.frameWidth == 640 && cam.frameHeight == 360)
        cam.apply(SourceControls(displaySize: .init(width: 1920, height: 1080)))
        _ = try cam.nextFrame(now: t0)
        #expect(cam.frameWidth == 1920 && cam.modeSwitches == 1)
        // 480x270 is covered by 640x360, a quarter of the area: down again.
        cam.apply(SourceControls(displaySize: .init(width: 480, height: 270)))
        _ = try cam.nextFrame(now: t0)
        #expect(cam.frameWidth == 640 && cam.frameHeight == 360 && cam.modeSwitches == 2)

        // The next device refuses the new format: the camera takes its old mode again.
        refuseNext = true
        cam.apply(SourceControls(displaySize: .init(width: 1280, height: 720)))
        _ = try cam.nextFrame(now: t0)
        #expect(shop.opens == 5, "the failed open and the reopen in the old mode")
        #expect(shop.device.log.contains("S_FMT MJPG 640x360"))
        #expect(cam.frameWidth == 640 && cam.frameHeight == 360 && cam.modeSwitches == 2)
        #expect(cam.cameraState == .streaming)
        #expect(expectFrame(try cam.nextFrame(now: t0)) != nil)
    }
}
