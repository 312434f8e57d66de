import CameraSource
import PipCore

/// Nothing spent while nothing shows: `ViewingPolicy` decides, this carries it out on the capture
/// side and wakes the loop when the policy is due to act with nothing else happening (frames no
/// longer wake it once unseen).
extension PipcamApp {
    /// Called on every loop iteration: a window coming back wakes the loop with its events, and a
    /// timer wakes it at the policy's next deadline.
    func followIdleness(now: MonotonicInstant) {
        // An animation's window shows video too.
        let showing = output.isShowingVideo || pip.phase != .idle
        // A file waits for a window by itself, and a camera shared with a call (`--share`) serves
        // it whatever shows.
        let releasable = pump.share == nil && status.isLive
        for action in viewing.update(showing: showing, releasable: releasable, now: now) {
            switch action {
            case .framesUnseen(let unseen):
                pump.mailbox.noteUnseen(unseen)
                // The frames given back meanwhile were not for showing: they are not drops.
                if !unseen { stats.restartSequence() }
            case .releaseCamera:
                // The camera's buffers must all be back before it can close.
                releaseFrames()
                pump.mailbox.noteIdle(true)
            case .resumeCamera:
                pump.mailbox.noteIdle(false)
            }
        }
        viewingWake.set(viewing.nextDeadline(releasable: releasable))
    }
}
