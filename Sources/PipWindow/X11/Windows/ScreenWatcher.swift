import PipCore

/// The monitors, their work areas and the window manager as the server last told them. The
/// layout is read once, and again only after an event says it changed: a wheel spin zooms PiP
/// without a round trip per notch.
final class ScreenWatcher: PipScreen {
    private let loop: DisplayLoop
    private var display: XDisplay { loop.display }
    private(set) var windowManager: WindowManagerInfo
    /// `_GTK_WORKAREAS_D<n>` of the current desktop, whose changes move the work areas.
    private var monitorWorkAreasAtom: Atom?
    private var cached: ScreenLayout?
    private var token: Int?
    /// How many times the layout was read from the server; for tests.
    private(set) var layoutReads = 0
    /// The monitors or a work area changed (they come in bursts; the layout is read when asked).
    var onScreenChanged: () -> Void = {}
    /// A window manager started, was replaced or quit (`windowManager` is the new one's).
    var onWindowManagerChanged: () -> Void = {}
    /// Called first: the X11 surfaces and watches take the new window manager's ways.
    var onWindowManagerChangedInternally: () -> Void = {}

    init(loop: DisplayLoop) {
        self.loop = loop
        let display = loop.display
        windowManager = WindowManagerInfo(display: display)
        // A window manager replaced must be told again what pipcam's windows are; a monitor
        // unplugged (the root resized, the work area changed) may leave PiP nowhere.
        _ = display.watch(display.root, [.propertyChange, .structureNotify])
        monitorWorkAreasAtom = WindowManagerInfo.monitorWorkAreasAtom(display: display)
        if let check = windowManager.checkWindow { _ = display.watch(check, [.structureNotify]) }
        display.watchScreenChanges()
        // Weak: the loop may outlive the watcher (`stop` removes the observer).
        token = loop.observeOtherEvents { [weak self] in self?.handle($0) }
    }

    deinit { stop() }

    /// The monitors and their work areas.
    var layout: ScreenLayout {
        if let cached { return cached }
        let layout = ScreenLayout(display: display)
        layoutReads += 1
        cached = layout
        return layout
    }

    /// Where a new window goes: the work area of the monitor showing most of `window`, else the
    /// pointer's (a round trip each: the window may have moved).
    func homeArea(near window: WindowID?) -> Rect { layout.homeArea(display: display, near: window) }

    var windowManagerRunning: Bool { windowManager.isRunning }

    func stop() {
        if let token { loop.unregister(token) }
        token = nil
    }

    private func handle(_ event: WindowEvent) {
        let root = display.root
        switch event {
        case .property(root, display[._NET_SUPPORTING_WM_CHECK], _):
            windowManagerChanged()
        case .destroyed(let w) where w == windowManager.checkWindow:
            windowManagerChanged()
        case .property(root, let atom, _) where atom == display[._NET_WORKAREA] || atom == monitorWorkAreasAtom:
            screenChanged()
        case .property(root, display[._NET_CURRENT_DESKTOP], _):
            // Each desktop has its own work areas.
            monitorWorkAreasAtom = WindowManagerInfo.monitorWorkAreasAtom(display: display)
            screenChanged()
        case .configure(root, _, _), .screenChanged:
            screenChanged()
        default: break
        }
    }

    private func windowManagerChanged() {
        windowManager = WindowManagerInfo(display: display)
        cached = nil
        if let check = windowManager.checkWindow { _ = display.watch(check, [.structureNotify]) }
        onWindowManagerChangedInternally()
        onWindowManagerChanged()
    }

    private func screenChanged() {
        cached = nil
        onScreenChanged()
    }
}
