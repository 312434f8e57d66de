import CameraSource
import PipCore
import PipWindow

/// Carries out `ViewingPolicy` (what the capture side is told while no window shows video), with
/// the timer that wakes the loop when the policy is due and nothing else happens (frames no longer
/// wake it once unseen).
final class ViewingDesk {
    private(set) var policy: ViewingPolicy
    private let wake: DeadlineWake

    init(loop: any EventLoop, idleReleaseSeconds: Double) {
        policy = ViewingPolicy(configuration: .init(idleReleaseSeconds: idleReleaseSeconds))
        wake = DeadlineWake(loop: loop)
    }

    /// Whether the source's frames go back to it unseen now.
    var framesUnseen: Bool { policy.framesUnseen }

    /// Feeds the policy whether a window shows video and whether the source may be let go, and
    /// hands its actions to `frames`.
    func follow(showing: Bool, releasable: Bool, now: MonotonicInstant, frames: FrameDesk) {
        for action in policy.update(showing: showing, releasable: releasable, now: now) { frames.follow(action) }
        wake.set(policy.nextDeadline(releasable: releasable))
    }

    /// `follow` with what the program has: `output` or an animation (PiP's `phase` not idle)
    /// shows video; a file waits for a window by itself, and a camera shared with a call
    /// (`--share`) serves it whatever shows (`capture`'s rule).
    func follow(output: VideoOutput, phase: PipPhase, capture: CapturePolicy, frames: FrameDesk, now: MonotonicInstant) {
        let releasable = capture.releasesUnseen(isLive: frames.status.isLive)
        follow(showing: output.isShowingVideo || phase != .idle, releasable: releasable, now: now, frames: frames)
    }
}
