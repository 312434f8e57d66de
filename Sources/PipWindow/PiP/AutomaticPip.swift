/// Which hiding of the source window starts Picture in Picture by itself, and its showing again
/// stops it (`--auto-pip`, `PipController.automaticPip`): AVKit's
/// `canStartPictureInPictureAutomaticallyFromInline`, with what "the app went to the background"
/// means on a desktop.
public enum AutomaticPip: String, Sendable, CaseIterable {
    /// Any hiding: minimized, on a desktop or workspace other than the one shown (a desktop switch,
    /// a window sent elsewhere), in i3's scratchpad, or unmapped — as an iOS app going to the
    /// background starts PiP. Tiling window managers, which minimize nothing, hide windows so.
    case hidden
    /// Only minimizing (iconified, or `_NET_WM_STATE_HIDDEN`; unmapped when no window manager runs).
    case minimize
    /// Never: PiP starts and stops only by key, command or API.
    case never
}

/// What the X facts about a window say about its being hidden (pure, for `SourceWindowWatcher`).
struct WindowHiding: Sendable, Equatable {
    /// `WM_STATE` Iconic: minimized, or (openbox, fluxbox: ICCCM allows it) on another desktop.
    var iconic = false
    /// `_NET_WM_STATE_HIDDEN`: minimized, for a window manager that marks it so.
    var netHidden = false
    /// Whether the window manager lists `_NET_WM_STATE_HIDDEN`: then only that says "minimized".
    var marksMinimized = false
    /// Mapped by its client but not viewable: the window manager unmapped its frame (a desktop or
    /// workspace switch on openbox, fluxbox and i3; i3's scratchpad).
    var unviewable = false
    /// Its `_NET_WM_DESKTOP`, and the root's `_NET_CURRENT_DESKTOP`.
    var desktop: Int?
    var currentDesktop: Int?

    /// Whether the window counts as hidden under `mode` (with a window manager running).
    func isHidden(under mode: AutomaticPip) -> Bool {
        let minimized = netHidden || (iconic && !marksMinimized)
        guard mode == .hidden else { return minimized }
        var elsewhere = false
        if let desktop, let currentDesktop { elsewhere = desktop != EWMH.allDesktops && desktop != currentDesktop }
        return minimized || iconic || unviewable || elsewhere
    }
}
