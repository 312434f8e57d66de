import CameraSource
import PipCore

/// Nothing spent while nothing shows (docs/BEHAVIOUR.md, "When nothing shows the camera"): with no
/// window showing video — PiP closed and the main window minimized or unmapped — frames are taken
/// and given back unconverted, and after `--idle-release` seconds the camera lets its device go
/// (its light goes off) until a window shows video again.
extension PipcamApp {
    /// Called on every loop iteration: camera frames wake the loop while the camera streams, and
    /// a window coming back wakes it with its events.
    func followIdleness(now: MonotonicInstant) {
        // A file waits for a window by itself, every frame kept.
        guard options.idleReleaseSeconds > 0, pump.share == nil, status.isLive || cameraIdle else { return }
        // An animation's window shows video too.
        if pip.output.isShowingVideo || pip.phase != .idle {
            idleSince = nil
            if cameraIdle {
                cameraIdle = false
                pump.mailbox.noteIdle(false)
            }
            return
        }
        guard !cameraIdle else { return }
        let since = idleSince ?? now
        idleSince = since
        guard now.seconds(since: since) >= options.idleReleaseSeconds else { return }
        cameraIdle = true
        // The camera's buffers must all be back before it can close.
        releaseFrames()
        pump.mailbox.noteIdle(true)
    }
}
