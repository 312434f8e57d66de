import CameraSource
import PipWindow

/// A file's playback from the display side (docs/BEHAVIOUR.md, "Playing a file"): what a
/// command, a key or a media player asks becomes a `PlaybackRequest` for the capture side, or
/// the one line saying why not.
enum PlaybackDesk {
    /// Seconds Left and Right (and the window's skip controls) move.
    static let skipSeconds = 10

    /// The playback command a plain key stands for: Space plays or pauses, Left and Right skip.
    static func command(forKey keysym: Keysym) -> PlaybackCommand? {
        switch keysym {
        case .space: return .toggle
        case .left: return .seek("-\(skipSeconds)")
        case .right: return .seek("+\(skipSeconds)")
        default: return nil
        }
    }

    /// Carries out `command` for the source `name`, whose playback is `status` (nil: no file).
    static func carryOut(_ command: PlaybackCommand, on status: PlaybackStatus?, named name: String, mailbox: FrameMailbox) -> CameraReply {
        guard let status else { return .failed("pipcam: '\(name)' is not a file: only a file plays, pauses and seeks") }
        switch command {
        case .play: mailbox.notePlayback { $0.playing = true }
        case .pause: mailbox.notePlayback { $0.playing = false }
        case .toggle: mailbox.notePlayback { $0.playing.toggle() }
        case .seek(let text):
            guard let target = SeekTarget.parse(text) else { return .failed("pipcam: seek: '\(text)' is not +S, -S, S, M:SS or fN") }
            guard status.seekable else { return .failed("pipcam: '\(name)' cannot seek (a pipe or standard input); it can pause") }
            mailbox.notePlayback { $0.seek(target) }
        }
        return .done("")
    }
}
