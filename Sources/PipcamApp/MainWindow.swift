import PipControl
import PipCore
import PipWindow

/// pipcam's main window (role `main`): a normal, decorated, resizable window with the camera at full
/// size and a PiP button; while PiP is up and this window is visible, a placeholder that says so and
/// brings the camera back when clicked.
final class MainWindow {
    enum Content { case video, placeholder }
    /// The share of the work area's width and height a top-level main window takes at most.
    static let workAreaShare = 0.7
    /// What a click asked for; `close` also when the window is gone (see `handle`).
    enum Intent: Equatable {
        case startPip, returnFromPip, togglePip, close, frame(FramingGesture)
        /// A key the program decides on while video shows (digits, Space, Left, Right).
        case key(Keysym)
        /// One of the playback bar's buttons.
        case request(PipRequest)
    }

    let id: WindowID
    let presenter: Presenter
    private let display: XDisplay
    private(set) var size: (width: Int, height: Int)
    private(set) var isMapped = false
    /// Whether other windows cover all of it (VisibilityNotify; a compositing window manager
    /// never says so, its windows being drawn off-screen).
    private(set) var isFullyObscured = false
    /// Whether `show()` was ever called (the window may not be mapped yet).
    private(set) var wasShown = false
    /// Whether the window was mapped since `show()` (a dropped MapRequest is asked again until then).
    /// Maps the window again when a window manager drops the request (five times, a second apart).
    private(set) var mapWatchdog = MapWatchdog(retries: 5)
    /// Wakes the loop when `mapWatchdog` is due.
    private var mapWake: DeadlineWake?
    var content: Content = .video { didSet { if content != oldValue { redraw() } } }
    var buttonEnabled = false { didSet { if buttonEnabled != oldValue { redraw() } } }
    /// A file's playback controls (nil: none, a camera). Paused, a change is drawn at once;
    /// playing, with the next frame.
    var playback: PlaybackBar.State? {
        get { playbackBar.state }
        set {
            guard newValue != playbackBar.state else { return }
            playbackBar.state = newValue
            if newValue?.isPlaying != true { redraw() }
        }
    }
    private var playbackBar: PlaybackBar
    /// Drawn over the video before the PiP button (a status banner); set by the owner.
    var bannerOverlay: ((UnsafeMutableRawPointer, Int, Int, Int) -> Void)?
    /// Draws the current frame again (video content); set by the owner.
    var redrawVideo: () -> Void = {}
    private let icons: (start: AlphaMask, stop: AlphaMask, title: AlphaMask, action: AlphaMask)
    /// 2 on a high-DPI screen (the button and the placeholder's text at twice the size), else 1.
    private let scale: Int
    private let compositor: Compositor
    /// The window this view is embedded in (`--wid`), and the XEmbed embedder once it introduced itself.
    let parent: WindowID?
    private var embedder: WindowID?
    /// The size `fitParent` last asked for.
    private var requestedSize: (width: Int, height: Int)?
    private var hasFocus = false
    private var framing = FramingInput()

    /// - Parameter parent: create the view inside this window, filling it (`--wid`); nil for a
    ///   top-level window centred in `workArea`.
    init(
        display: XDisplay, sourceSize: (Int, Int), workArea: Rect, parent: WindowID?, allowSharedMemory: Bool,
        jpegDecodeThreads: Int
    ) throws {
        self.display = display
        self.parent = parent
        // Pointer motion for Ctrl + drag, which pans the picture.
        let events: EventMask = [
            .exposure, .structureNotify, .buttonPress, .buttonRelease, .pointerMotion, .keyPress, .propertyChange,
            .visibilityChange,
        ]
        if let parent {
            let area = display.rootGeometry(of: parent) ?? Rect(x: 0, y: 0, width: 640, height: 360)
            size = (max(1, area.width), max(1, area.height))
            let viewRect = Rect(x: 0, y: 0, width: size.width, height: size.height)
            let (created, error) = display.withErrorTrap { () -> WindowID in
                let view = display.createWindow(parent: parent, rect: viewRect, events: events)
                // Before the trap's sync: an embedder (GtkSocket) reads these at CreateNotify.
                // XEmbed: protocol version 0; not to be mapped yet (an embedder maps its client by
                // these flags: under `--pip` the view appears only when PiP stops). `show` sets them.
                display.setProperty(view, ._XEMBED_INFO, type: ._XEMBED_INFO, values: [XEmbed.version, 0])
                display.setIdentity(view, role: "main", title: "pipcam")
                // An embedder closes its client with WM_DELETE_WINDOW when offered (tabbed),
                // else with XKillClient, which would cut pipcam off with status 1.
                display.setProtocols(view, [.WM_DELETE_WINDOW])
                return view
            }
            // A window we cannot create inside another program's (an odd visual, a vanished parent)
            // is a failure to say, not a silent run without a view.
            if let error { throw DisplayError.cannotEmbed("window 0x\(String(parent.rawValue, radix: 16)): \(error)") }
            id = created
        } else {
            let share = Self.workAreaShare
            let fit = min(1, min(Double(workArea.width) * share / Double(sourceSize.0), Double(workArea.height) * share / Double(sourceSize.1)))
            size = (max(240, Int(Double(sourceSize.0) * fit)), max(135, Int(Double(sourceSize.1) * fit)))
            let rect = Rect(
                x: workArea.x + (workArea.width - size.width) / 2, y: workArea.y + (workArea.height - size.height) / 2,
                width: size.width, height: size.height)
            id = display.createWindow(rect: rect, events: events)
            display.setIdentity(id, role: "main", title: "pipcam")
            display.setSizeHints(id, position: rect, minimum: (160, 90), aspect: nil)
            display.setWMHints(id, acceptsFocus: true)
            display.setProtocols(id, [.WM_DELETE_WINDOW, ._NET_WM_PING])
        }
        presenter = try Presenter(display: display, window: id, allowShm: allowSharedMemory, jpegDecodeThreads: jpegDecodeThreads)
        presenter.resize(width: size.width, height: size.height)
        compositor = Compositor(layout: presenter.pixelLayout)
        let double = display.prefersDoubleSize
        scale = double ? 2 : 1
        playbackBar = PlaybackBar(doubleSize: double)
        // The placeholder's icon is the large one at any density.
        icons = (
            AlphaMask.asset("pip-start", doubleSize: double)!, AlphaMask.asset("pip-stop", doubleSize: true)!,
            AlphaMask.asset("placeholder-title", doubleSize: double)!, AlphaMask.asset("placeholder-action", doubleSize: double)!
        )
        presenter.overlay = { [unowned self] pixels, stride, w, h in
            bannerOverlay?(pixels, stride, w, h)
            drawButton(pixels, stride, w, h)
            if content == .video { playbackBar.draw(with: compositor, into: pixels, stride: stride, width: w, height: h) }
        }
    }

    func show() {
        wasShown = true
        mapWatchdog.shown(now: .now())
        presenter.warmUp()
        if parent != nil { display.setProperty(id, ._XEMBED_INFO, type: ._XEMBED_INFO, values: [XEmbed.version, XEmbed.mapped]) }
        display.map(id)
    }

    /// Keeps the loop's wake at `mapWatchdog`'s next deadline.
    func followMapWatchdog() { mapWake?.set(mapWatchdog.nextDeadline) }

    /// At `mapWatchdog`'s deadline: maps the window again if a window manager dropped the
    /// request. Only while it never got mapped: once it was, an unmap is the user's or the window
    /// manager's doing (minimized, hidden) and starts PiP; mapping it again would stop PiP.
    func remapIfDropped(now: MonotonicInstant) {
        if mapWatchdog.tick(now: now, isMapped: display.isMapped(id)) { display.map(id) }
    }

    /// Keeps an embedded view the size of the window it is embedded in.
    func fitParent(width: Int, height: Int) {
        // Against the size last asked for: the parent may go back to the view's size before the
        // view has heard of the first request, which would then stand.
        let last = requestedSize ?? size
        guard width != last.width || height != last.height else { return }
        requestedSize = (width, height)
        display.moveResize(id, to: Rect(x: 0, y: 0, width: width, height: height))
    }

    /// The PiP button's rectangle in window coordinates.
    var buttonRect: Rect {
        let (side, margin) = (36 * scale, 12 * scale)
        return Rect(x: size.width - margin - side, y: size.height - margin - side, width: side, height: side)
    }

    /// Handles an event about the window; returns what the user asked for, if anything.
    func handle(_ event: WindowEvent) -> Intent? {
        if content == .video, let input = InputEvent(event) {
            let framed = framing.handle(input)
            if framed.consumed { return framed.gesture.map { .frame($0) } }
        }
        switch event {
        // The embedder destroyed its window, and this one with it.
        case .destroyed:
            return .close
        // An embedder ends XEmbed by handing its client to the root window (the spec's "Embedding
        // life cycle"): the session ends as when it destroys its window.
        case .reparented(_, let newParent) where parent != nil && newParent == display.root:
            return .close
        // A synthetic ConfigureNotify (any client can send one) never resizes anything.
        case .configure(_, let r, false) where r.width != size.width || r.height != size.height:
            size = (r.width, r.height)
            presenter.resize(width: r.width, height: r.height)
            redraw()
        case .configure:
            if presenter.windowMoved() { redraw() }
        case .expose(_, 0):
            redraw()
        case .mapped:
            isMapped = true
            mapWatchdog.settled()
        case .unmapped:
            isMapped = false
            isFullyObscured = false
        case .visibility(_, let fullyObscured, _):
            isFullyObscured = fullyObscured
        case .buttonPress(let p) where p.button == 1:
            requestFocusFromEmbedder(time: p.time)
            if content == .placeholder { return .returnFromPip }
            if buttonEnabled && buttonRect.contains(x: p.x, y: p.y) { return .startPip }
            if let button = playbackBar.button(atX: p.x, y: p.y, width: size.width, height: size.height) {
                return .request(.playback(button.action))
            }
        case .clientMessage(_, let type, let data)
            where type == display[.WM_PROTOCOLS] && Atom(bitPattern: data.0) == display[.WM_DELETE_WINDOW]:
            return .close
        case .clientMessage(_, let type, let data) where type == display[._XEMBED]:
            handleXEmbed(message: data.1, detail: data.2, data1: data.3)
        case .keyPress(_, let keysym, let state) where KeyModifiers.isPlainKeyPress(state: state):
            // Keys reach an embedded view as events its embedder forwards (XEmbed).
            switch keysym {
            case .escape: return content == .placeholder ? .returnFromPip : nil
            case .p: return .togglePip
            case _ where (keysym.digit != nil || [.space, .left, .right].contains(keysym)) && content == .video: return .key(keysym)
            // The view has nothing of its own to move the focus to: Tab hands it back to the
            // embedder's next (Shift+Tab, ISO_Left_Tab: previous) widget.
            case .tab, .isoLeftTab:
                moveFocusOut(backwards: keysym == .isoLeftTab || state & KeyModifiers.shift.rawValue != 0)
            default: break
            }
        default:
            break
        }
        return nil
    }

    // MARK: XEmbed (freedesktop XEmbed spec, messages in data.l[1])

    private func handleXEmbed(message: Int, detail: Int, data1: Int) {
        switch message {
        case XEmbed.embeddedNotify: embedder = WindowID(bitPattern: data1)  // data1 is the embedder
        case XEmbed.focusIn: hasFocus = true
        case XEmbed.focusOut: hasFocus = false
        default: break  // WINDOW_ACTIVATE/DEACTIVATE and others need no action
        }
    }

    /// XEMBED_FOCUS_NEXT or XEMBED_FOCUS_PREV to the embedder that gave the view the focus.
    private func moveFocusOut(backwards: Bool) {
        guard let target = embedder ?? parent, hasFocus else { return }
        display.sendClientMessage(to: target, ._XEMBED, [0, backwards ? XEmbed.focusPrev : XEmbed.focusNext, 0, 0, 0])
    }

    /// A click on an embedded view asks its embedder for the keyboard focus (XEMBED_REQUEST_FOCUS).
    private func requestFocusFromEmbedder(time: UInt) {
        guard let target = embedder ?? parent, !hasFocus else { return }
        display.sendClientMessage(to: target, ._XEMBED, [Int(bitPattern: time), XEmbed.requestFocus, 0, 0, 0])
    }

    /// Routes the window's events (and with `--wid` its parent's size) on `loop`: what they ask
    /// for goes to `act`, a new size (not a move: each would wake the capture thread) to `resized`.
    func install(on loop: DisplayLoop, act: @escaping (Intent) -> Void, resized: @escaping () -> Void) {
        mapWake = DeadlineWake(loop: loop) { [unowned self] in remapIfDropped(now: .now()) }
        loop.register(id) { [unowned self] event in
            let before = size
            let intent = handle(event)
            if size != before { resized() }
            if let intent { act(intent) }
        }
        guard let parent else { return }
        // Follow the embedder's size; never select button events on a window we do not own.
        _ = display.watch(parent, [.structureNotify])
        loop.register(parent) { [unowned self] event in
            // Only the server's own ConfigureNotify: any client can send a synthetic one.
            if case .configure(_, let r, false) = event { fitParent(width: r.width, height: r.height) }
        }
    }

    /// The size a picture of `contentSize` is shown at, fitted into the window (the source opens
    /// in a mode for it); nil for an empty picture.
    func pictureRect(contentSize: (width: Int, height: Int)) -> Rect? {
        guard contentSize.width > 0, contentSize.height > 0 else { return nil }
        let (w, h) = (Double(contentSize.width), Double(contentSize.height))
        let fit = min(Double(size.width) / w, Double(size.height) / h)
        return Rect(x: 0, y: 0, width: max(1, Int(w * fit)), height: max(1, Int(h * fit)))
    }

    /// Shows the current content again.
    func redraw() {
        switch content {
        case .video: redrawVideo()
        case .placeholder: presenter.present { [self] pixels, stride, w, h in drawPlaceholder(pixels, stride, w, h) }
        }
    }

    private func drawButton(_ pixels: UnsafeMutableRawPointer, _ stride: Int, _ w: Int, _ h: Int) {
        guard content == .video else { return }
        let b = buttonRect
        compositor.dim(x: b.x, y: b.y, w: b.width, h: b.height, amount: 0.55, into: pixels, stride: stride, width: w, height: h)
        compositor.draw(
            icons.start, at: b.x + 6 * scale, y: b.y + 6 * scale, opacity: buttonEnabled ? 1 : 0.35, into: pixels, stride: stride,
            width: w, height: h)
    }

    private func drawPlaceholder(_ pixels: UnsafeMutableRawPointer, _ stride: Int, _ w: Int, _ h: Int) {
        NoticePainter(compositor: compositor).paint(
            icon: icons.stop, lines: [icons.title, icons.action], into: pixels, stride: stride, width: w, height: h)
    }
}
