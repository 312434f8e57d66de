import PipCore

/// Watches the window PiP grows out of and shrinks back into (pipcam's main window, another
/// application's window, or an embedder's top-level) and reports what the state machine needs:
/// hidden/shown, its on-screen frame, and its destruction.
///
/// Hidden means iconified (`WM_STATE` Iconic) or `_NET_WM_STATE_HIDDEN` when a window manager runs,
/// and unmapped when none does — an unmap alone is no signal under a window manager (reparenting).
/// With `AutomaticPip.hidden`, also on another desktop or workspace, or left unviewable by the
/// window manager (`WindowHiding`).
final class SourceWindowWatcher {
    let window: WindowID
    /// The window whose frame is reported (the source window, or a view inside it).
    let frameWindow: WindowID
    private let display: XDisplay
    /// Whether a window manager runs: what hiding means (see above). Kept current by the owner.
    var windowManagerRunning: Bool
    /// Which hiding counts (see above). Kept current by the owner, who then calls `recheck()`.
    var mode: AutomaticPip = .hidden
    /// Whether the window manager marks minimized windows `_NET_WM_STATE_HIDDEN` (then `WM_STATE`
    /// Iconic alone may mean another desktop). Kept current by the owner.
    var windowManagerMarksMinimized = false
    private(set) var isHidden = false
    private(set) var frame: Rect?
    private(set) var isGone = false
    /// Called with what changed: `.sourceHidden`, `.sourceShown`, `.sourceFrameChanged`, `.sourceDestroyed`.
    var report: (PipEvent) -> Void = { _ in }

    init(display: XDisplay, window: WindowID, frameWindow: WindowID? = nil, windowManagerRunning: Bool) {
        self.display = display
        self.window = window
        self.frameWindow = frameWindow ?? window
        self.windowManagerRunning = windowManagerRunning
    }

    /// Starts watching; false if the window does not exist.
    func begin() -> Bool {
        guard display.watch(window, [.structureNotify, .propertyChange]) else {
            isGone = true
            return false
        }
        isHidden = computeHidden() ?? true
        // Also when hidden: a window minimized (or on another desktop) before PiP starts is still
        // where it comes back, and stopping PiP restores it only with a frame to shrink into.
        refreshFrame()
        return !isGone
    }

    /// Handles an event about the source window.
    func handle(_ event: WindowEvent) {
        switch event {
        case .destroyed:
            guard !isGone else { return }
            isGone = true
            report(.sourceDestroyed)
        case .configure, .mapped:
            if !isHidden { refreshFrame() }
            updateVisibility()
        case .unmapped:
            updateVisibility()
        case .property(_, let atom, _) where atom == display[.WM_STATE] || atom == display[._NET_WM_STATE]
            || atom == display[._NET_FRAME_EXTENTS] || atom == display[._NET_WM_DESKTOP]:
            updateVisibility()
            if !isHidden { refreshFrame() }
        default:
            break
        }
    }

    /// Its application withdrew it while it was hidden (closed to the tray): stopping PiP must not
    /// show it again (ICCCM: only its client takes a window out of Withdrawn).
    private(set) var withdrawnByItsApplication = false

    /// Reads again whether the window is hidden (what that means changed: a window manager came or
    /// went, the mode changed, another desktop is shown).
    func recheck() { updateVisibility() }

    private func updateVisibility() {
        guard let hidden = computeHidden() else { return }
        guard hidden != isHidden else { return }
        // Withdrawn by its application (closed to the tray) while minimized: the window manager
        // drops WM_STATE, which is no sign the window came back, and restoring it would show a
        // window its application hid.
        if windowManagerRunning, !hidden, isWithdrawn {
            withdrawnByItsApplication = true
            return
        }
        withdrawnByItsApplication = false
        isHidden = hidden
        if !hidden { refreshFrame() }
        report(hidden ? .sourceHidden : .sourceShown)
    }

    /// nil when the window is gone.
    private func computeHidden() -> Bool? {
        guard let mapped = display.isMapped(window) else { return nil }
        guard windowManagerRunning else { return !mapped }
        var hiding = Self.hiding(
            wmState: display.integers(window, .WM_STATE), netWMState: display.integers(window, ._NET_WM_STATE),
            hiddenAtom: display[._NET_WM_STATE_HIDDEN], marksMinimized: windowManagerMarksMinimized)
        if mode == .hidden {
            hiding.unviewable = mapped && display.isViewable(window) == false
            hiding.desktop = display.integers(window, ._NET_WM_DESKTOP).first
            hiding.currentDesktop = display.integers(display.root, ._NET_CURRENT_DESKTOP).first
        }
        return hiding.isHidden(under: mode)
    }

    /// What a window's `WM_STATE` (Iconic) and `_NET_WM_STATE` (holding `hiddenAtom`) say, as any
    /// client may have written them.
    static func hiding(wmState: [Int], netWMState: [Int], hiddenAtom: Atom, marksMinimized: Bool) -> WindowHiding {
        WindowHiding(
            iconic: wmState.first == WMState.iconic, netHidden: netWMState.contains { Atom(bitPattern: $0) == hiddenAtom },
            marksMinimized: marksMinimized)
    }

    /// Unmapped with no `WM_STATE` or `WM_STATE` Withdrawn (ICCCM 4.1.4): no window manager manages it.
    private var isWithdrawn: Bool {
        display.isMapped(window) == false && (display.integers(window, .WM_STATE).first ?? WMState.withdrawn) == WMState.withdrawn
    }

    /// The frame window's rectangle in root coordinates; for the source window itself, grown by its
    /// window-manager frame.
    private func refreshFrame() {
        // A window never shown (the main window under `--pip`) has no on-screen frame to grow from;
        // one a window manager manages (WM_STATE Normal or Iconic) has, even while unmapped.
        guard display.isViewable(frameWindow) == true || [WMState.normal, WMState.iconic].contains(display.integers(window, .WM_STATE).first),
            let inner = display.rootGeometry(of: frameWindow), inner.width > 1 || inner.height > 1
        else { return }
        let outer = Self.outerFrame(
            inner: inner, extents: frameWindow == window ? display.integers(window, ._NET_FRAME_EXTENTS) : [])
        guard outer != frame else { return }
        frame = outer
        report(.sourceFrameChanged(outer))
    }

    /// `inner` grown by `_NET_FRAME_EXTENTS` (left, right, top, bottom) when they are sizes a frame could have.
    static func outerFrame(inner: Rect, extents: [Int]) -> Rect {
        // Written by the window manager, or by anyone: sizes a frame could have, else none.
        guard extents.count == 4, extents.allSatisfy({ (0...4096).contains($0) }) else { return inner }
        return Rect(
            x: inner.x - extents[0], y: inner.y - extents[2],
            width: inner.width + extents[0] + extents[1], height: inner.height + extents[2] + extents[3])
    }
}
