import PipCore

/// The source window on X, watched by a `SourceWindowWatcher` (ICCCM and EWMH states), and
/// restored by mapping and activating it.
final class X11SourceWatch: SourceWatch, WindowManagerListener {
    private unowned let system: X11WindowSystem
    private let watcher: SourceWindowWatcher
    private var tokens: [Int] = []

    init?(system: X11WindowSystem, content: PipContentSource, hiding: AutomaticPip, report: @escaping (PipEvent) -> Void) {
        self.system = system
        let wm = system.windowManager
        watcher = SourceWindowWatcher(
            display: system.display, window: content.sourceWindow, frameWindow: content.animationWindow,
            windowManagerRunning: wm.isRunning)
        watcher.mode = hiding
        watcher.windowManagerMarksMinimized = wm.supports(system.display[._NET_WM_STATE_HIDDEN])
        watcher.report = report
        guard watcher.begin() else { return nil }
        tokens = [system.loop.register(watcher.window) { [unowned watcher] in watcher.handle($0) }]
        if watcher.frameWindow != watcher.window {
            // The view PiP grows out of gets its frame once it is shown, and moves with its top-level.
            tokens.append(system.loop.register(watcher.frameWindow) { [unowned watcher] in watcher.handle($0) })
        }
    }

    var window: WindowID { watcher.window }
    var frame: Rect? { watcher.frame }
    var isHidden: Bool { watcher.isHidden }
    var hiding: AutomaticPip {
        get { watcher.mode }
        set { watcher.mode = newValue }
    }

    func recheck() { watcher.recheck() }

    /// Unmapping hides the source window only with no window manager; what it means now may differ.
    func windowManagerChanged(to info: WindowManagerInfo) {
        watcher.windowManagerRunning = info.isRunning
        watcher.windowManagerMarksMinimized = info.supports(system.display[._NET_WM_STATE_HIDDEN])
    }

    /// Maps (de-iconifies, ICCCM 4.1.4) and activates the window; its frame is the one it had.
    func restore() {
        guard !watcher.withdrawnByItsApplication else { return }
        let display = system.display
        let w = watcher.window
        display.map(w)
        let wm = system.windowManager
        if wm.isRunning && wm.supports(display[._NET_ACTIVE_WINDOW]) {
            display.sendToRoot(about: w, ._NET_ACTIVE_WINDOW, [EWMH.sourceApplication, 0, 0])
        } else {
            display.raise(w)
        }
    }

    func stop() {
        for token in tokens { system.loop.unregister(token) }
        tokens = []
    }
}
