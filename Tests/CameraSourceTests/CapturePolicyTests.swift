import CameraSource
import Testing

/// `CapturePolicy`: what of the display side's requests reaches the source, with and without a
/// virtual camera to feed.
@Suite struct CapturePolicyTests {
    let asked = SourceControls(idle: true, unseen: true, displaySize: .init(width: 640, height: 360))

    @Test func withoutSharingTheSourceGetsWhatIsAskedAndTheThrottle() {
        let policy = CapturePolicy(sharing: false)
        #expect(policy.controls(requested: asked, throttle: 2)
            == SourceControls(throttle: 2, idle: true, unseen: true, displaySize: .init(width: 640, height: 360)))
        #expect(policy.controls(requested: SourceControls(), throttle: 0) == SourceControls())
        #expect(policy.throttlesUnderPressure)
    }

    /// The call sees every frame at the camera's own rate, in the mode the share opened it for,
    /// whatever the windows show.
    @Test func sharingTheSourceGetsNothing() {
        let policy = CapturePolicy(sharing: true)
        #expect(policy.controls(requested: asked, throttle: 3) == SourceControls())
        #expect(!policy.throttlesUnderPressure)
    }
}
