import PipCore
import Testing
@testable import PipcamApp

/// `ViewingPolicy` (docs/BEHAVIOUR.md, "When nothing shows the camera") at exact milliseconds: a
/// quarter of a second unseen before frames go straight back, `--idle-release` before a camera
/// lets its device go, both undone as soon as a window shows video.
@Suite struct ViewingPolicyTests {
    static func at(_ ms: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms) * 1_000_000) }

    /// Shown from 0 ms, hidden at 1000 ms, with `--idle-release 10`.
    static func hiddenAt1000(idleRelease: Double = 10, releasable: Bool = true) -> ViewingPolicy {
        var policy = ViewingPolicy(configuration: .init(idleReleaseSeconds: idleRelease))
        #expect(policy.update(showing: true, releasable: releasable, now: at(0)) == [])
        #expect(policy.update(showing: false, releasable: releasable, now: at(1000)) == [])
        return policy
    }

    @Test func framesGoBackAQuarterOfASecondAfterTheLastWindowStoppedShowing() {
        var policy = Self.hiddenAt1000()
        #expect(policy.nextDeadline(releasable: true) == Self.at(1250))
        #expect(policy.update(showing: false, releasable: true, now: Self.at(1249)) == [])
        #expect(policy.update(showing: false, releasable: true, now: Self.at(1250)) == [.framesUnseen(true)])
        #expect(policy.update(showing: false, releasable: true, now: Self.at(1300)) == [], "said once")
        #expect(policy.nextDeadline(releasable: true) == Self.at(11_000), "next: the camera's release")
    }

    /// A hand-over between windows (PiP stopping, the main window mapping) within the grace
    /// loses no frame, and the grace starts afresh after it.
    @Test func aHandOverWithinTheGraceChangesNothing() {
        var policy = Self.hiddenAt1000()
        #expect(policy.update(showing: true, releasable: true, now: Self.at(1200)) == [])
        #expect(policy.nextDeadline(releasable: true) == nil)
        #expect(policy.update(showing: false, releasable: true, now: Self.at(1400)) == [])
        #expect(policy.update(showing: false, releasable: true, now: Self.at(1649)) == [])
        #expect(policy.update(showing: false, releasable: true, now: Self.at(1650)) == [.framesUnseen(true)])
    }

    @Test func theCameraGoesAfterIdleReleaseAndComesBackWhenShown() {
        var policy = Self.hiddenAt1000()
        _ = policy.update(showing: false, releasable: true, now: Self.at(1250))
        #expect(policy.update(showing: false, releasable: true, now: Self.at(10_999)) == [])
        #expect(policy.update(showing: false, releasable: true, now: Self.at(11_000)) == [.releaseCamera])
        #expect(policy.cameraReleased && policy.nextDeadline(releasable: true) == nil)
        // Released, the source may no longer say it is live: it comes back all the same.
        #expect(policy.update(showing: true, releasable: false, now: Self.at(20_000)) == [.framesUnseen(false), .resumeCamera])
        #expect(!policy.framesUnseen && !policy.cameraReleased && policy.idleSince == nil)
    }

    /// A file, a camera shared with a call (`--share`), or `--idle-release 0`: frames still go
    /// back unseen, the device stays open.
    @Test(arguments: [(10.0, false), (0.0, true)])
    func nothingReleasableStaysOpen(idleRelease: Double, releasable: Bool) {
        var policy = Self.hiddenAt1000(idleRelease: idleRelease, releasable: releasable)
        #expect(policy.update(showing: false, releasable: releasable, now: Self.at(1250)) == [.framesUnseen(true)])
        #expect(policy.nextDeadline(releasable: releasable) == nil)
        #expect(policy.update(showing: false, releasable: releasable, now: Self.at(3_600_000)) == [])
    }

    /// Before any window showed video, the first frames are kept for the window about to map;
    /// an unseen camera is let go all the same.
    @Test func beforeAnyWindowShowedVideoFramesKeepComing() {
        var policy = ViewingPolicy(configuration: .init(idleReleaseSeconds: 2))
        #expect(policy.update(showing: false, releasable: true, now: Self.at(0)) == [])
        #expect(policy.nextDeadline(releasable: true) == Self.at(2000))
        #expect(policy.update(showing: false, releasable: true, now: Self.at(1000)) == [])
        #expect(policy.update(showing: false, releasable: true, now: Self.at(2000)) == [.releaseCamera])
        #expect(!policy.framesUnseen)
        #expect(policy.update(showing: true, releasable: true, now: Self.at(2500)) == [.resumeCamera])
    }

    /// Both due at one look (the loop was busy past both deadlines): unseen first, then released.
    @Test func bothDueAtOnceComeInOrder() {
        var policy = Self.hiddenAt1000(idleRelease: 0.1)
        #expect(policy.nextDeadline(releasable: true) == Self.at(1100))
        #expect(policy.update(showing: false, releasable: true, now: Self.at(5000)) == [.framesUnseen(true), .releaseCamera])
    }
}
