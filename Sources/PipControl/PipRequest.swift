import CameraSource

/// Everything a running pipcam can be asked, by whichever door: a subcommand, a key in either
/// window, the main window's playback bar, PiP's own controls, a media player (MPRIS), the hotkey.
/// Each door makes one from what it read; the program carries it out in one place.
public enum PipRequest: Sendable, Equatable {
    /// Start, stop or toggle Picture in Picture.
    case pip(PipAction)
    /// The state, as one JSON object.
    case status
    /// Show another source.
    case switchSource(SwitchTarget)
    /// The camera's controls.
    case camera(CameraAsk)
    /// A file's playback.
    case playback(PlaybackAction)
    /// Exit.
    case quit
}

/// What `toggle`, `start` and `stop` ask of PiP.
public enum PipAction: String, Sendable, CaseIterable {
    case toggle, start, stop
}

/// What `pipcam switch` shows.
public enum SwitchTarget: Sendable, Equatable {
    /// The camera after the one shown, round to the first.
    case next
    /// A source, as its spec and the text naming it (a file's path made absolute), which `status` says.
    case source(SourceSpec, text: String)
}

/// What `pipcam controls` and `pipcam set` ask about the camera's controls.
public enum CameraAsk: Sendable, Equatable {
    /// The controls, listed.
    case list
    /// Set controls: `NAME=VALUE` each (checked against the camera's controls where they are).
    case set([String])
    /// Controls back to their defaults: the one named, or every one (nil).
    case reset(String?)
}

/// What `pipcam play|pause|seek`, the play/pause and skip keys and controls, and a media player ask
/// of a file's playback.
public enum PlaybackAction: Sendable, Equatable {
    case play, pause
    /// Play when paused, pause when playing.
    case toggle
    case seek(SeekTarget)

    /// A seek, which is answered once its frame shows.
    public var isSeek: Bool {
        if case .seek = self { return true }
        return false
    }
}

/// The answer to a request: text for standard output (often none), or the one line saying why not.
public enum PipReply: Sendable, Equatable {
    case done(String)
    case failed(String)

    /// The exit status a subcommand ends with for this answer.
    public var exitCode: Int32 {
        if case .done = self { return 0 }
        return 1
    }
}
