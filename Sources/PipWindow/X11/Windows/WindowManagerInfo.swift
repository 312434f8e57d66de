import PipCore

/// What the running window manager (if any) says it supports, read from the root window.
public struct WindowManagerInfo: Sendable {
    /// Whether an EWMH window manager is running (`_NET_SUPPORTING_WM_CHECK` names a window that exists).
    public var isRunning: Bool { checkWindow != nil }
    /// The window manager's check window; it goes when the window manager quits.
    public var checkWindow: WindowID?
    private var supported: Set<Atom>

    /// Reads `_NET_SUPPORTING_WM_CHECK` and `_NET_SUPPORTED` from the root window.
    public init(display: XDisplay) {
        // A window manager that quit (openbox) leaves the property naming its destroyed window,
        // whose id another client may have since: EWMH's check window names itself.
        let check = display.integers(display.root, ._NET_SUPPORTING_WM_CHECK).first.map { WindowID(bitPattern: $0) }
        checkWindow = check.flatMap {
            $0 != 0 && display.integers($0, ._NET_SUPPORTING_WM_CHECK).first.map { WindowID(bitPattern: $0) } == $0 ? $0 : nil
        }
        supported = checkWindow != nil ? Set(display.integers(display.root, ._NET_SUPPORTED).map(Atom.init(bitPattern:))) : []
    }

    public func supports(_ atom: Atom) -> Bool { supported.contains(atom) }

    /// The work area of the current desktop (`_NET_WORKAREA`), or the whole screen.
    public static func workArea(display: XDisplay) -> Rect {
        workArea(
            values: display.integers(display.root, ._NET_WORKAREA), desktop: currentDesktop(display: display),
            screen: display.rootGeometry(of: display.root) ?? Rect(x: 0, y: 0, width: 1280, height: 720))
    }

    /// The work area `_NET_WORKAREA`'s `values` give `desktop` on `screen`, or `screen`.
    static func workArea(values area: [Int], desktop: Int, screen: Rect) -> Rect {
        // Another client's values: a negative desktop (0xFFFFFFFF comes back as -1) must not index,
        // and an area off the screen would place windows where X coordinates do not reach.
        if desktop >= 0, area.count >= 4 * (desktop + 1) {
            let a = Array(area[(4 * desktop)..<(4 * desktop + 4)])
            if a[0] >= 0, a[1] >= 0, a[2] > 0, a[3] > 0, a[0] + a[2] <= screen.maxX, a[1] + a[3] <= screen.maxY {
                return Rect(x: a[0], y: a[1], width: a[2], height: a[3])
            }
        }
        return screen
    }

    /// The current desktop's number (0 when the window manager names none).
    static func currentDesktop(display: XDisplay) -> Int {
        display.integers(display.root, ._NET_CURRENT_DESKTOP).first ?? 0
    }

    /// The atom of mutter's per-monitor work areas for the current desktop, `_GTK_WORKAREAS_D<n>`
    /// (GTK reads it for the same reason: `_NET_WORKAREA` takes a panel on one monitor off all).
    public static func monitorWorkAreasAtom(display: XDisplay) -> Atom? {
        let desktop = currentDesktop(display: display)
        return desktop >= 0 ? display.intern("_GTK_WORKAREAS_D\(desktop)") : nil
    }

    /// The current desktop's per-monitor work areas, where the window manager sets them (mutter:
    /// one rectangle per monitor, in no promised order), else none. Only while the running window
    /// manager lists `_GTK_WORKAREAS` in `_NET_SUPPORTED`, as GTK checks: one that replaced mutter
    /// (or none at all) leaves mutter's property behind, stale.
    public static func monitorWorkAreas(display: XDisplay) -> [Rect] {
        guard WindowManagerInfo(display: display).supports(display.intern("_GTK_WORKAREAS")),
            let atom = monitorWorkAreasAtom(display: display)
        else { return [] }
        return monitorWorkAreas(values: display.integers(display.root, atom: atom))
    }

    /// The non-empty rectangles in a `_GTK_WORKAREAS_D<n>` property's `values` (x, y, width, height each).
    static func monitorWorkAreas(values: [Int]) -> [Rect] {
        stride(from: 0, to: values.count - 3, by: 4).compactMap {
            let r = Rect(x: values[$0], y: values[$0 + 1], width: values[$0 + 2], height: values[$0 + 3])
            return r.width > 0 && r.height > 0 ? r : nil
        }
    }
}

extension ScreenLayout {
    /// The monitors and work area the X server and the window manager describe now.
    public init(display: XDisplay) {
        self.init(
            monitors: display.monitors(), workArea: WindowManagerInfo.workArea(display: display),
            monitorWorkAreas: WindowManagerInfo.monitorWorkAreas(display: display))
    }

    /// The usable area a new window goes on: the monitor showing most of `window` (the window PiP
    /// grows out of, or the one it follows), else the monitor with the pointer, as new windows
    /// open where the user is.
    public func homeArea(display: XDisplay, near window: WindowID?) -> Rect {
        if let window, window != 0, let r = display.rootGeometry(of: window), r.width > 1 || r.height > 1 {
            return area(for: r)
        }
        let pointer = display.pointerPosition()
        return area(containing: pointer.x, pointer.y)
    }
}
