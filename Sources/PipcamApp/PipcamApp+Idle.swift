import CameraSource
import PipCore

/// Nothing spent while nothing shows (docs/BEHAVIOUR.md, "When nothing shows the camera"): with no
/// window showing video — PiP closed and the main window minimized, unmapped or covered — a live
/// source's frames go straight back to it on the capture thread, this thread not woken, and after
/// `--idle-release` seconds the camera lets its device go (its light goes off) until a window
/// shows video again.
extension PipcamApp {
    /// How long no window must show video before frames stop coming here: a hand-over between
    /// windows (PiP stopping, the main window mapping) must not cost a frame.
    static let unseenGraceSeconds = 0.25

    /// Called on every loop iteration: a window coming back wakes the loop with its events, and a
    /// timer wakes it when the camera is due to be let go.
    func followIdleness(now: MonotonicInstant) {
        // An animation's window shows video too.
        let showing = pip.output.isShowingVideo || pip.phase != .idle
        if showing {
            idleSince = nil
            if let timer = idleTimer { loop.cancelTimer(timer) }
            idleTimer = nil
            videoShown = true
            noteUnseen(false)
            if cameraIdle {
                cameraIdle = false
                pump.mailbox.noteIdle(false)
            }
            return
        }
        let since = idleSince ?? now
        if idleSince == nil {
            idleSince = since
            // Frames do not wake this thread once unseen: the loop must wake to let the camera go.
            if releasesWhenIdle {
                let wait = Int64(options.idleReleaseSeconds * 1e9)
                idleTimer = loop.schedule(at: since.advanced(byNanoseconds: wait)) { [unowned self] in idleTimer = nil }
            }
        }
        // Before any window showed video the first frame is kept for the window about to map.
        if videoShown, now.seconds(since: since) >= Self.unseenGraceSeconds { noteUnseen(true) }
        guard releasesWhenIdle, !cameraIdle, now.seconds(since: since) >= options.idleReleaseSeconds else { return }
        cameraIdle = true
        // The camera's buffers must all be back before it can close.
        releaseFrames()
        pump.mailbox.noteIdle(true)
    }

    /// Whether the camera is let go after `--idle-release` seconds unseen: a file waits for a
    /// window by itself, and a camera shared with a call (`--share`) serves it whatever shows.
    private var releasesWhenIdle: Bool {
        options.idleReleaseSeconds > 0 && pump.share == nil && (status.isLive || cameraIdle)
    }

    private func noteUnseen(_ unseen: Bool) {
        guard unseen != framesUnseen else { return }
        framesUnseen = unseen
        pump.mailbox.noteUnseen(unseen)
        // The frames given back meanwhile were not for showing: they are not drops.
        if !unseen { stats.restartSequence() }
    }
}
