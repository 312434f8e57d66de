/// What `pipcam play|pause|seek` (and the play/pause key, the window's controls, a media player)
/// ask of a file's playback: sent as the parameter of a `_PIPCAM_PLAYBACK` conversion, answered
/// with a `CameraReply` (`done` or the one line saying why not): at once, or for a seek once the
/// frame sought shows.
public enum PlaybackCommand: Sendable, Equatable {
    case play
    case pause
    /// Play when paused, pause when playing.
    case toggle
    /// To a `SeekTarget` in its text form: `+10`, `-5`, `90`, `1:30`, `f120`.
    case seek(String)

    /// A seek, which is answered once its frame shows.
    public var isSeek: Bool {
        if case .seek = self { return true }
        return false
    }

    /// The bytes sent: the word, then the seek's target on a line of its own.
    public var encoded: [UInt8] {
        switch self {
        case .play: return Array("play".utf8)
        case .pause: return Array("pause".utf8)
        case .toggle: return Array("toggle".utf8)
        case .seek(let target): return Array("seek\n\(target)".utf8)
        }
    }

    /// The command `bytes` hold; nil for anything else.
    public init?(_ bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch (lines.first, lines.count) {
        case ("play"?, 1): self = .play
        case ("pause"?, 1): self = .pause
        case ("toggle"?, 1): self = .toggle
        case ("seek"?, 2) where !lines[1].isEmpty: self = .seek(lines[1])
        default: return nil
        }
    }
}
