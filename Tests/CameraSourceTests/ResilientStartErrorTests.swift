import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// What is not an interruption still fails `start()`, as with a plain `V4L2Camera`.
@Suite struct ResilientStartErrorTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    @Test func invalidArgumentAtSetFormatThrows() {
        let shop = FakeCameraShop()
        shop.prepare = { $0.fail("S_FMT", EINVAL) }
        let cam = shop.resilient()
        let error = sourceError { try cam.start(now: t0) }
        #expect(error == .runtime(thing: "/nonexistent/video0", reason: "VIDIOC_S_FMT failed: invalid argument"))
        #expect(error?.exitCode == 1)
        #expect(error?.cameraInterruption == nil)
        #expect(shop.device.isClosed)
    }

    @Test func notACaptureDeviceIsBadInput() {
        let shop = FakeCameraShop()
        shop.prepare = { dev in
            dev.capabilities = V4L2Capabilities(
                driver: "uvcvideo", card: "Metadata", busInfo: "usb-1", canCapture: false, canStream: true)
        }
        let cam = shop.resilient()
        let error = sourceError { try cam.start(now: t0) }
        #expect(error == .badInput(thing: "/nonexistent/video0", reason: "not a video capture device"))
        #expect(error?.exitCode == 2)
    }

    @Test func notAV4L2NodeAtOpenIsBadInput() {
        let shop = FakeCameraShop()
        shop.openErrno = ENOTTY
        let error = sourceError { try shop.resilient().start(now: t0) }
        #expect(error == .badInput(thing: "/nonexistent/video0", reason: "not a video capture device"))
    }

    /// A camera named on the command line that does not exist is a mistake, not an interruption.
    @Test func missingDeviceAtStartIsBadInput() {
        let shop = FakeCameraShop()
        shop.openErrno = ENOENT
        let error = sourceError { try shop.resilient().start(now: t0) }
        #expect(error == .badInput(thing: "/nonexistent/video0", reason: "no such device"))
        #expect(shop.opens == 1)
    }

    @Test func startingNormallyStreams() throws {
        let shop = FakeCameraShop()
        let cam = shop.resilient()
        try cam.start(now: t0)
        #expect(cam.cameraState == .streaming && cam.currentInterruption == nil)
        #expect(cam.isLive && cam.mirroredByDefault)
        #expect(cam.frameWidth == 640 && cam.frameHeight == 480 && cam.frameRate == 30)
        // Nothing yet: the poll, and the stall deadline for a first frame.
        #expect(try cam.nextFrame(now: t0).waitDeadline == t0.advanced(byNanoseconds: V4L2Camera.firstFrameStallNanoseconds))
        cam.stop()
        #expect(Array(shop.device.log.suffix(6)) == ["STREAMOFF", "MUNMAP 0", "MUNMAP 1", "MUNMAP 2", "MUNMAP 3", "CLOSE"])
    }
}

/// `StableDevicePath.find`: the `/dev/v4l/by-id` (or by-path) link that resolves to a node.
@Suite struct ResilientStablePathTests {
    @Test func findsTheLinkThatResolvesToTheNode() throws {
        let dev = try TempDeviceTree()
        let video0 = try dev.node("video0")
        let video2 = try dev.node("video2")
        _ = try dev.link("by-id/usb-Other_Cam-video-index0", to: video2)
        let link = try dev.link("by-id/usb-Acme_Cam-video-index0", to: "../video0")
        #expect(StableDevicePath.find(for: video0, directories: [dev.path + "/by-id"]) == link)
    }

    @Test func fallsBackToByPathAndPrefersByID() throws {
        let dev = try TempDeviceTree()
        let video0 = try dev.node("video0")
        let byPath = try dev.link("by-path/pci-0000:00:14.0-usb-0:8:1.0-video-index0", to: "../video0")
        let dirs = [dev.path + "/by-id", dev.path + "/by-path"]  // by-id does not exist
        #expect(StableDevicePath.find(for: video0, directories: dirs) == byPath)
        let byID = try dev.link("by-id/usb-Acme_Cam-video-index0", to: "../video0")
        #expect(StableDevicePath.find(for: video0, directories: dirs) == byID)
    }

    @Test func nodeNamedThroughALinkResolvesToo() throws {
        let dev = try TempDeviceTree()
        _ = try dev.node("video0")
        let alias = try dev.link("camera", to: "video0")
        let link = try dev.link("by-id/usb-Acme_Cam-video-index0", to: "../video0")
        #expect(StableDevicePath.find(for: alias, directories: [dev.path + "/by-id"]) == link)
    }

    @Test func nilWhenNoLinkMatches() throws {
        let dev = try TempDeviceTree()
        let video0 = try dev.node("video0")
        let video2 = try dev.node("video2")
        _ = try dev.link("by-id/usb-Other_Cam-video-index0", to: video2)
        _ = try dev.link("by-id/dangling", to: "../video9")
        #expect(StableDevicePath.find(for: video0, directories: [dev.path + "/by-id"]) == nil)
        #expect(StableDevicePath.find(for: video0, directories: []) == nil)
    }

    @Test func nilForAMissingNode() throws {
        let dev = try TempDeviceTree()
        _ = try dev.link("by-id/usb-Acme_Cam-video-index0", to: "../video0")
        #expect(StableDevicePath.find(for: dev.path + "/video0", directories: [dev.path + "/by-id"]) == nil)
    }
}
