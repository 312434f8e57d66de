import CameraSource
import PipCore
import Testing

/// `CapturePolicy`: what of the display side's requests reaches the source, with and without a
/// virtual camera to feed, and the other exceptions `--share` makes.
@Suite struct CapturePolicyTests {
    let asked = SourceControls(idle: true, unseen: true, displaySize: .init(width: 640, height: 360))
    let alone = CapturePolicy(fed: nil)
    let sharing = CapturePolicy(fed: "/dev/video10")
    /// Paths as a test's file system resolves them: `/dev/v4l/by-id/loop` links to `/dev/video10`.
    let resolve: (String) -> String = { $0 == "/dev/v4l/by-id/loop" ? "/dev/video10" : $0 }

    @Test func withoutSharingTheSourceGetsWhatIsAskedAndTheThrottle() {
        #expect(!alone.sharing)
        #expect(alone.controls(requested: asked, throttle: 2)
            == SourceControls(throttle: 2, idle: true, unseen: true, displaySize: .init(width: 640, height: 360)))
        #expect(alone.controls(requested: SourceControls(), throttle: 0) == SourceControls())
        #expect(alone.throttlesUnderPressure)
    }

    /// The call sees every frame at the camera's own rate, in the mode the share opened it for,
    /// whatever the windows show.
    @Test func sharingTheSourceGetsNothing() {
        #expect(sharing.sharing)
        #expect(sharing.controls(requested: asked, throttle: 3) == SourceControls())
        #expect(!sharing.throttlesUnderPressure)
    }

    @Test func aSwitchedToSourceFollowsTheWindowOnlyWithoutSharing() {
        #expect(alone.switchedToSourceFollowsDisplaySize)
        #expect(!sharing.switchedToSourceFollowsDisplaySize)
    }

    @Test func onlyALiveSourceNotSharedIsLetGoUnseen() {
        #expect(alone.releasesUnseen(isLive: true))
        #expect(!alone.releasesUnseen(isLive: false))
        #expect(!sharing.releasesUnseen(isLive: true))
        #expect(!sharing.releasesUnseen(isLive: false))
    }

    @Test func theVirtualCameraFedIsNeverSwitchedTo() {
        #expect(sharing.feeds(camera: "/dev/video10", resolve: resolve))
        #expect(sharing.feeds(camera: "/dev/v4l/by-id/loop", resolve: resolve))
        #expect(!sharing.feeds(camera: "/dev/video0", resolve: resolve))
        #expect(!alone.feeds(camera: "/dev/video10", resolve: resolve))
        #expect(sharing.camerasNeverSwitchedTo(resolve: resolve) == ["/dev/video10"])
        #expect(alone.camerasNeverSwitchedTo(resolve: resolve) == [])
        #expect(CapturePolicy(fed: "/dev/v4l/by-id/loop").camerasNeverSwitchedTo(resolve: resolve) == ["/dev/video10"])
    }

    @Test func theCamerasLeftOutAreTheOneFedResolved() {
        #expect(CapturePolicy.camerasLeftOut(fed: "/dev/v4l/by-id/loop", resolve: resolve) == ["/dev/video10"])
        #expect(CapturePolicy.camerasLeftOut(fed: "pipewire:pipcam", resolve: resolve) == ["pipewire:pipcam"])
        #expect(CapturePolicy.camerasLeftOut(fed: nil, resolve: resolve) == [])
    }

    @Test func theCameraStartsAtTheCallsSizeWhileSharing() {
        let shown = (width: 960, height: 540)
        let notShared = CapturePolicy.startingSize(shown: shown, shared: nil)
        #expect(notShared.width == 960 && notShared.height == 540)
        let shared = CapturePolicy.startingSize(shown: shown, shared: (width: 1280, height: 720))
        #expect(shared.width == 1280 && shared.height == 720)
    }

    @Test func theCallSeesTheFramedPictureUnlessFullFrame() {
        let framed = Framing(zoom: 2, centreX: 0.25, centreY: 0.75)
        #expect(CapturePolicy.sharedFraming(framed, fullFrame: false) == framed)
        #expect(CapturePolicy.sharedFraming(framed, fullFrame: true) == .full)
    }
}
