/// The PiP window's timings and gesture sizes, named in one place. What users see of them is in
/// docs/BEHAVIOUR.md and the man page.
enum PipTuning {
    /// Two presses this close in time (milliseconds of server time)…
    static let doubleClickMilliseconds: UInt = 400
    /// …and in place (pixels each way) are a double-click.
    static let doubleClickDistance = 8
    /// A wheel notch zooms by this factor…
    static let wheelZoomFactor = 1.1
    /// …and `+` or `-` by this one.
    static let keyZoomFactor = 1.15
    /// Seconds the skip controls (and Left, Right) move content that plays.
    static let skipSeconds = 10.0
    /// Zooms this close together (a wheel spin) start from the last one's rect, not the window's,
    /// which only its ConfigureNotify updates.
    static let zoomBurstSeconds = 0.3
    /// A move or resize is settled (snapped and remembered) this long after pipcam saw it (each zoom
    /// or drag handed to the window manager starts the wait again; a button still held extends it).
    static let settleNanoseconds: Int64 = 250_000_000
    /// Screen and work-area changes come in bursts: PiP is placed once none came for this long.
    static let screenChangeQuietNanoseconds: Int64 = 300_000_000
    /// For this long after a screen change, the window manager's moves of PiP are its pulling PiP
    /// onto the new screen, not the user's.
    static let screenChangeMoveSeconds = 1.0
    /// For this long, a ConfigureNotify at the place pipcam asked for answers that request.
    static let ownMoveAnswerNanoseconds: Int64 = 1_000_000_000
    /// How far a window manager's decoration offset (i3's) may put a window from where it asked.
    static let decorationOffset = 32
    /// A map request a window manager dropped is made again after this long, at most `mapRetries` times.
    static let mapRetryNanoseconds: Int64 = 1_000_000_000
    static let mapRetries = 10
}
