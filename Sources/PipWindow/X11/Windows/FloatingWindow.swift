import PipCore

/// The PiP window: borderless, above other windows, on every desktop, out of task bars, with the
/// source's aspect ratio; dragged from anywhere and resized from its edges.
public final class FloatingWindow {
    public let display: XDisplay
    public let id: WindowID
    /// The last known rectangle in root coordinates.
    public private(set) var rect: Rect
    /// Width / height of the picture; resizes keep it.
    public private(set) var aspect: Double
    public static let minimumWidth = 96
    private var wm: WindowManagerInfo
    private var gesture: GestureTracker?
    /// Called when a move or resize pipcam did itself (no window manager's help) ended.
    public var onOwnDragEnded: ((DragKind) -> Void)?
    /// Called when a move or resize was handed to the window manager (`_NET_WM_MOVERESIZE`);
    /// it ends when the pointer button is released, which only the window manager sees.
    public var onWindowManagerDragStarted: ((DragKind) -> Void)?

    /// Creates (unmapped) the PiP window at `rect` with every hint set before it is first mapped,
    /// since window managers read most of them only at map time.
    public init(display: XDisplay, rect: Rect, aspect: (Int, Int), wm: WindowManagerInfo) {
        self.display = display
        self.rect = rect
        self.aspect = Double(aspect.0) / Double(aspect.1)
        self.wm = wm
        id = display.createWindow(
            rect: rect,
            events: [.exposure, .structureNotify, .buttonPress, .buttonRelease, .pointerMotion, .visibilityChange,
                     .propertyChange, .keyPress, .enterWindow, .leaveWindow])
        display.setIdentity(id, role: "PictureInPicture", title: "Picture in Picture")
        display.setSizeHints(id, position: rect, minimum: minimumSize, aspect: aspect)
        display.setProtocols(id, [.WM_DELETE_WINDOW, ._NET_WM_PING])
        display.setProperty(id, ._MOTIF_WM_HINTS, type: ._MOTIF_WM_HINTS, values: MotifHints.noDecorations)
        // Zero user time: an auto-started PiP must never take the focus from what the user is doing.
        display.setProperty(id, ._NET_WM_USER_TIME, type: .CARDINAL_, values: [0])
        display.setProperty(id, ._NET_WM_BYPASS_COMPOSITOR, type: .CARDINAL_, values: [2])
        display.setProperty(id, ._NET_WM_WINDOW_TYPE, type: .ATOM_, values: [Int(display[._NET_WM_WINDOW_TYPE_UTILITY].rawValue)])
        setMapTimeHints()
    }

    private static let floatingStates: [AtomName] = [
        ._NET_WM_STATE_ABOVE, ._NET_WM_STATE_STICKY, ._NET_WM_STATE_SKIP_TASKBAR, ._NET_WM_STATE_SKIP_PAGER,
    ]

    /// The states to ask for: those the window manager supports; all of them with no window manager
    /// yet (one that starts later reads the property when it takes the window over).
    private var wantedStates: [AtomName] {
        Self.floatingStates.filter { !wm.isRunning || wm.supports(display[$0]) }
    }

    /// A new window manager took over, or the last one quit (`_NET_SUPPORTING_WM_CHECK` changed,
    /// or the check window it named went): ask it again for
    /// everything the old one was asked, since it may not have read our properties the same way.
    public func windowManagerChanged(to info: WindowManagerInfo, isMapped: Bool) {
        wm = info
        display.setProperty(id, ._NET_WM_DESKTOP, type: .CARDINAL_, values: [EWMH.allDesktops])
        guard isMapped, info.isRunning else { return }
        // After mapping, EWMH state changes go through client messages to the root (action 1 = add).
        for state in wantedStates { display.sendToRoot(about: id, ._NET_WM_STATE, [EWMH.stateAdd, Int(display[state].rawValue), 0, EWMH.sourceApplication, 0]) }
        display.sendToRoot(about: id, ._NET_WM_DESKTOP, [EWMH.allDesktops, EWMH.sourceApplication, 0, 0, 0])
    }

    private var minimumSize: (Int, Int) {
        (Self.minimumWidth, max(1, Int((Double(Self.minimumWidth) / aspect).rounded())))
    }

    /// The look of the window: outline, opacity, and whether clicks pass through it.
    public var style = PipWindowStyle() { didSet { applyStyle() } }

    private func applyStyle() {
        if display.hasShape {
            display.setBoundingShape(id, style.shape.spans(width: rect.width, height: rect.height))
            display.setInputShape(id, style.clickThrough ? [] : nil)
        }
        if style.opacity < 1 {
            display.setProperty(id, ._NET_WM_WINDOW_OPACITY, type: .CARDINAL_, values: [Int(style.opacity * Double(EWMH.opaque))])
        } else {
            display.deleteProperty(id, ._NET_WM_WINDOW_OPACITY)  // opaque: no property, as compositors read it
        }
    }

    public func show() {
        setMapTimeHints()
        display.map(id)
    }

    /// What a window manager reads when the window is mapped. Set again before every map: EWMH
    /// has window managers remove the desktop and states when a window is withdrawn (openbox
    /// does), and a PiP shown again without them lands on the current desktop only.
    private func setMapTimeHints() {
        // Not accepting the focus, so that no window manager gives it on map (fluxbox does
        // whatever _NET_WM_USER_TIME says); accepted once mapped (`noteMapped`), for keys.
        display.setWMHints(id, acceptsFocus: false)
        display.setProperty(id, ._NET_WM_DESKTOP, type: .CARDINAL_, values: [EWMH.allDesktops])
        display.setProperty(id, ._NET_WM_STATE, type: .ATOM_, values: wantedStates.map { Int(display[$0].rawValue) })
    }

    /// The window is on screen: from now on a click may give it the focus (its keys need it).
    public func noteMapped() { display.setWMHints(id, acceptsFocus: true) }

    /// The window manager changed the window's `_NET_WM_STATE`. KWin and the mutter family mark a
    /// window they did not activate on map (its user time is 0, on purpose) as demanding
    /// attention, and the flag stays: a task bar would blink for a window that never asked for
    /// anything. So the PiP asks for it to be taken off again.
    public func windowStateChanged() {
        let demands = display[._NET_WM_STATE_DEMANDS_ATTENTION]
        guard display.integers(id, ._NET_WM_STATE).contains(Int(demands.rawValue)) else { return }
        display.sendToRoot(about: id, ._NET_WM_STATE, [EWMH.stateRemove, Int(demands.rawValue), 0, EWMH.sourceApplication, 0])
    }

    public func hide() { display.unmap(id) }

    /// Keeps the window above others where no window manager does it (no WM, dwm).
    public func raiseIfObscured() {
        if !wm.supports(display[._NET_WM_STATE_ABOVE]) || !wm.isRunning { display.raise(id) }
    }

    /// Notes a new position or size from a ConfigureNotify; returns true when the size changed.
    /// A synthetic one (a window manager's note of a move, ICCCM 4.1.5, or any client's
    /// XSendEvent) never resizes: the window's place is then asked of the server.
    public func noteConfigure(_ event: Rect, synthetic: Bool) -> Bool {
        if synthetic {
            if let r = display.rootGeometry(of: id) { rect.x = r.x; rect.y = r.y }
            return false
        }
        let sizeChanged = event.width != rect.width || event.height != rect.height
        defer { if sizeChanged && style.shape != .rect { applyStyle() } }
        if !wm.isRunning {
            rect = event
        } else if let r = display.rootGeometry(of: id) {
            rect = r
        } else {
            rect.width = event.width
            rect.height = event.height
        }
        return sizeChanged
    }

    /// Moves and resizes the window (root coordinates).
    public func setRect(_ r: Rect) {
        display.moveResize(id, to: r)
    }

    /// Updates the aspect ratio hint when the source's shape changes.
    public func setAspect(_ ratio: (Int, Int)) {
        aspect = Double(ratio.0) / Double(ratio.1)
        display.setSizeHints(id, position: rect, minimum: minimumSize, aspect: ratio)
    }

    // MARK: pointer

    /// Whether the button held since the last press has moved or resized the window.
    public var isDragging: Bool { gesture?.dragging ?? false }

    /// Handles a pointer event; returns true when it was part of a drag or resize.
    @discardableResult
    public func handlePointer(_ event: InputEvent) -> Bool {
        switch event {
        case .press(let p) where p.button == 1:
            let kind = DragKind.hitTest(x: p.x, y: p.y, width: rect.width, height: rect.height)
            gesture = GestureTracker(kind: kind, press: p, startRect: rect)
            return true
        case .motion(let p):
            guard var g = gesture else { return false }
            defer { gesture = g }
            return g.motion(p, window: self)
        case .release(let p) where p.button == 1:
            guard var g = gesture else { return false }
            gesture = nil
            // The release says where the pointer ended: a busy moment may have left the last
            // motion events behind it, and the drag must still end under the pointer.
            if g.dragging && !g.handedToWindowManager {
                _ = g.motion(p, window: self)
                onOwnDragEnded?(g.kind)
            }
            return true
        default:
            return false
        }
    }

    fileprivate func beginWindowManagerDrag(_ kind: DragKind, press: PointerEvent) -> Bool {
        guard wm.isRunning, wm.supports(display[._NET_WM_MOVERESIZE]) else { return false }
        // The WM grabs the pointer itself; our implicit grab from the press would block it.
        display.ungrabPointer(time: press.time)
        display.sendToRoot(about: id, ._NET_WM_MOVERESIZE, [press.rootX, press.rootY, kind.rawValue, press.button, EWMH.sourceApplication])
        display.flush()
        onWindowManagerDragStarted?(kind)
        return true
    }

    fileprivate func applyOwnDrag(_ kind: DragKind, from start: Rect, dx: Int, dy: Int) {
        let r = kind.apply(to: start, dx: dx, dy: dy, aspect: aspect, minWidth: Self.minimumWidth)
        rect = r
        setRect(r)
    }
}

/// One press-drag-release on the PiP window. Nothing happens until the pointer has moved a few
/// pixels, so a plain click stays a click.
private struct GestureTracker {
    let kind: DragKind
    let press: PointerEvent
    let startRect: Rect
    var handedToWindowManager = false
    var dragging = false
    static let threshold = 3

    init(kind: DragKind, press: PointerEvent, startRect: Rect) {
        self.kind = kind
        self.press = press
        self.startRect = startRect
    }

    mutating func motion(_ p: PointerEvent, window: FloatingWindow) -> Bool {
        if handedToWindowManager { return true }
        let dx = p.rootX - press.rootX, dy = p.rootY - press.rootY
        if !dragging {
            guard abs(dx) > Self.threshold || abs(dy) > Self.threshold else { return true }
            dragging = true
            if window.beginWindowManagerDrag(kind, press: press) {
                handedToWindowManager = true
                return true
            }
        }
        window.applyOwnDrag(kind, from: startRect, dx: dx, dy: dy)
        return true
    }
}

/// How the PiP window looks (`--shape`, `--opacity`, `--click-through`).
public struct PipWindowStyle: Sendable, Equatable {
    public var shape: WindowShape = .rect
    /// 0.1 … 1 (`_NET_WM_WINDOW_OPACITY`, for compositing window managers).
    public var opacity = 1.0
    /// An empty input shape: clicks reach the window below (hotkey and commands still work).
    public var clickThrough = false
    public init(shape: WindowShape = .rect, opacity: Double = 1, clickThrough: Bool = false) {
        self.shape = shape
        self.opacity = min(1, max(0.1, opacity))
        self.clickThrough = clickThrough
    }
}
