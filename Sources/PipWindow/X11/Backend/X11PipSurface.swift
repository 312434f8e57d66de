import PipCore

/// The PiP window on X: a `FloatingWindow` with its presenter. It turns the server's events into
/// `PipSurfaceEvent`s, and maps itself again while a starting window manager drops the request.
final class X11PipSurface: PipSurface, WindowManagerListener {
    private unowned let system: X11WindowSystem
    private let window: FloatingWindow
    private let presenter: Presenter
    var video: VideoSurface { presenter }
    var onEvent: (PipSurfaceEvent) -> Void = { _ in }
    private var token: Int?
    private var isShown = false
    /// Maps the window again when a window manager drops the request.
    private var mapWatchdog = MapWatchdog(intervalNanoseconds: PipTuning.mapRetryNanoseconds, retries: PipTuning.mapRetries)
    private var mapRetryTimer: Int?
    private var display: XDisplay { system.display }

    init(system: X11WindowSystem, rect: Rect, aspect: (Int, Int), video options: VideoSurfaceOptions) throws {
        self.system = system
        window = FloatingWindow(display: system.display, rect: rect, aspect: aspect, wm: system.windowManager)
        presenter = try system.makePresenter(window: window.id, video: options)
        token = system.loop.register(window.id) { [unowned self] in handle($0) }
        window.onOwnDragEnded = { [unowned self] in onEvent(.ownDragEnded($0)) }
        window.onWindowManagerDragStarted = { [unowned self] in onEvent(.windowManagerDragStarted($0)) }
    }

    var id: WindowID { window.id }
    var rect: Rect { window.rect }
    var aspect: Double { window.aspect }
    var style: PipWindowStyle {
        get { window.style }
        set { window.style = newValue }
    }
    var isDragging: Bool { window.isDragging }

    func show() {
        window.show()
        isShown = true
        mapWatchdog.shown(now: .now())
        scheduleMapCheck()
    }

    func hide() {
        window.hide()
        isShown = false
        mapWatchdog.settled()
        scheduleMapCheck()
    }

    func setRect(_ rect: Rect) { window.setRect(rect) }
    func setAspect(_ ratio: (Int, Int)) { window.setAspect(ratio) }
    func handlePointer(_ event: InputEvent) { window.handlePointer(event) }

    func windowManagerChanged(to info: WindowManagerInfo) {
        window.windowManagerChanged(to: info, isMapped: isShown)
    }

    func destroy() {
        if let token { system.loop.unregister(token) }
        token = nil
        if let t = mapRetryTimer { system.loop.cancelTimer(t) }
        mapRetryTimer = nil
        presenter.close()
        display.destroy(window.id)
    }

    /// Maps the window again when a window manager dropped the request (`MapWatchdog`).
    private func scheduleMapCheck() {
        if let t = mapRetryTimer { system.loop.cancelTimer(t) }
        mapRetryTimer = mapWatchdog.nextDeadline.map { at in
            system.loop.schedule(at: at) { [unowned self] in
                mapRetryTimer = nil
                if mapWatchdog.tick(now: .now(), isMapped: display.isMapped(window.id)) {
                    onEvent(.shownAgain(window.rect))  // the window manager places it again
                    window.show()
                }
                scheduleMapCheck()
            }
        }
    }

    private func handle(_ event: WindowEvent) {
        switch event {
        case .destroyed(let w) where w == window.id:
            onEvent(.destroyed)
        case .configure(_, let r, let synthetic):
            let old = window.rect
            let resized = window.noteConfigure(r, synthetic: synthetic)
            if resized {
                presenter.resize(width: r.width, height: r.height)
                onEvent(.needsFrame)
            } else if window.rect != old, presenter.windowMoved() {
                onEvent(.needsFrame)
            }
            onEvent(.frameChanged(from: old, resized: resized, external: synthetic))
        case .mapped:
            mapWatchdog.settled()
            window.noteMapped()
        case .expose(_, 0):
            presenter.redraw()
        case .clientMessage(_, let type, let data)
            where type == display[.WM_PROTOCOLS] && Atom(bitPattern: data.0) == display[.WM_DELETE_WINDOW]:
            onEvent(.closeRequested)
        case .property(_, let atom, _) where atom == display[._NET_WM_STATE]:
            window.windowStateChanged()
        case .visibility(_, _, let unobscured) where !unobscured:
            window.raiseIfObscured()
        default:
            if let input = InputEvent(event) { onEvent(.input(input)) }
        }
    }
}

extension InputEvent {
    /// The user's input in an X event; nil for any other event.
    public init?(_ event: WindowEvent) {
        switch event {
        case .buttonPress(let p): self = .press(p)
        case .buttonRelease(let p): self = .release(p)
        case .motion(let p): self = .motion(p)
        case .keyPress(_, let keysym, let state): self = .key(keysym, state: state)
        case .pointerEntered: self = .entered
        case .pointerLeft: self = .left
        default: return nil
        }
    }
}
