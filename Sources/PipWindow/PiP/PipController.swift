import CameraSource
import MJPEG
import PipCore

/// Picture in Picture for X11, after `AVPictureInPictureController`: a floating, always-on-top video
/// window that grows out of a source window when it starts, shrinks back into it (restoring it)
/// when it stops, and can start by itself when the source window is minimized or hidden.
///
/// The controller lives on a `DisplayLoop`'s thread and is used only there. Frames reach it through
/// `present(_:)` while `isShowingVideo` is true (the owner routes its frames; nothing is captured twice).
/// The controller takes its own shared-memory completions from the loop, so an owner only presents.
///
/// ```swift
/// let loop = DisplayLoop(display: try XDisplay())
/// let pip = try PipController(loop: loop, contentSource: PipContentSource(
///     sourceWindow: myWindow, preferredContentSize: (1280, 720)))
/// pip.delegate = self
/// pip.startsAutomaticallyWhenSourceHidden = true
/// loop.everyIteration {
///     guard pip.isShowingVideo, pip.canPresent, let frame = pump.mailbox.take() else { return }
///     _ = try? pip.present(frame)
///     pump.mailbox.giveBack(frame.bufferIndex)
/// }
/// ```
///
/// `Examples/PipExample` is a complete program.
public final class PipController {
    /// Whether PiP can work on `display`: 24-bit colour, which the presenter needs.
    public static func isSupported(display: XDisplay) -> Bool {
        PixelLayout(display.visualMasks) != nil
    }

    public weak var delegate: PipControllerDelegate?
    /// Called on the loop's thread whenever `isPossible` changes (drives a PiP button).
    public var onPossibleChanged: ((Bool) -> Void)?
    /// Called when another program destroyed the PiP window (`XDestroyWindow` on it): the controller
    /// can show PiP no more, and its puts to the window would never complete.
    public var onWindowDestroyed: (() -> Void)?
    /// Called when the controller needs the current frame drawn again (its window appeared or was resized).
    public var onNeedsFrame: (() -> Void)?
    /// Called when a frame put through shared memory has reached the screen, with its capture time
    /// (for latency statistics). Puts without shared memory report that through `present`'s
    /// `.completed` instead. Redraws (`counted: false`) are not reported.
    public var onFrameShown: ((MonotonicInstant) -> Void)?

    private let loop: DisplayLoop
    private var display: XDisplay { loop.display }
    private var machine: PipStateMachine
    private var wm: WindowManagerInfo
    /// `_GTK_WORKAREAS_D<n>` of the current desktop, whose changes move the work areas.
    private var monitorWorkAreasAtom: UInt?
    let pipWindow: FloatingWindow
    private let proxy: WindowID
    private let pipPresenter: Presenter
    private let proxyPresenter: Presenter
    private var watcher: SourceWindowWatcher?
    private var watcherTokens: [Int] = []
    private var ownTokens: [Int] = []
    private var tickTimer: Int?
    private var queuedEvents: [PipEvent] = []
    private var handlingEvents = false
    private var proxyShown = false
    /// Whether the PiP window was mapped since it was last shown (a dropped MapRequest is asked again).
    private var pipMappedSinceShown = false
    private var pipShown = false
    private var lastClick: PointerEvent?
    private var isTornDown = false
    private var controls: PipControls
    private var pressedControl: PipControls.Control?
    private var controlsTimer: Int?
    private var settleTimer: Int?
    private var mapRetryTimer: Int?
    private var windowManagerMoveSeen = false
    /// Where the PiP window was just shown, for a second while the window manager places it (see `checkPlacement`).
    private var requestedPlacement: (rect: Rect, until: MonotonicInstant)?
    /// The corner and size PiP was placed by while nobody has moved it: until then it starts on the
    /// monitor its source window is on now (the user may have moved that window to another one).
    private var defaultPlacement: (corner: Corner, size: (Int, Int)?)?
    /// Where pipcam's last own move (a placement, a snap, a refit) asked the window to go, and
    /// until when a ConfigureNotify there answers it rather than being a move the user made.
    private var ownMove: (target: Rect, until: MonotonicInstant)?
    /// Whether the settle that is scheduled ends a move, resize or zoom the user made.
    private var settleByUser = false
    /// The monitors when PiP was last shown or last saw them change: where it was, relative to its
    /// monitor, when that monitor goes.
    private var shownLayout: ScreenLayout?
    private var screenTimer: Int?
    /// Counts restore requests made of the delegate and their completions: a completion counts
    /// only while this is still the number its request was given.
    private var restores = 0
    /// When the screen, its monitors or the work area last changed.
    private var screenChangeSeen: MonotonicInstant?
    /// The monitors and work areas as last read from the server; read again after they change.
    private var cachedLayout: ScreenLayout?
    /// How many times the layout was read from the server; for tests.
    private(set) var layoutReads = 0

    /// The monitors and their work areas: read from the server once, and again only after an
    /// event says they changed (a wheel spin zooms without a round trip per notch).
    private var screenLayout: ScreenLayout {
        if let cachedLayout { return cachedLayout }
        let layout = ScreenLayout(display: display)
        layoutReads += 1
        cachedLayout = layout
        return layout
    }

    /// The user asked to flip the picture (the mirror control, or `m`).
    public var onMirrorToggle: (() -> Void)?
    /// The user asked to rotate the picture a quarter turn (`r`).
    public var onRotate: (() -> Void)?
    /// The user finished moving, resizing or zooming the PiP window (after snapping); for
    /// remembering it.
    public var onFrameSettled: ((Rect) -> Void)?
    /// PiP's frame settled after any change: the user's, or pipcam's own (a reshape for a picture
    /// of another shape, a monitor gone); for sizing what feeds it.
    public var onFrameChanged: ((Rect) -> Void)?

    /// The source and content of PiP; setting it while PiP is up switches the content in place
    /// (new aspect ratio, new restore target). nil stops PiP without restoring anything.
    public var contentSource: PipContentSource? {
        didSet { contentSourceChanged(from: oldValue) }
    }

    /// `isPictureInPicturePossible`: a content source is attached and its source window exists.
    public var isPossible: Bool { machine.isPossible }
    /// `isPictureInPictureActive`.
    public var isActive: Bool { machine.isActive }
    /// Where in its life cycle PiP is.
    public var phase: PipPhase { machine.phase }
    /// A `start()` made while PiP was stopping waits for the stop to end (`stop()` drops it).
    public var isStartPending: Bool { machine.startQueued }
    /// The PiP window's frame in root coordinates.
    public var pipFrame: Rect { pipWindow.rect }
    /// `canStartPictureInPictureAutomaticallyFromInline`: start when the source window is hidden,
    /// stop (restoring it) when it comes back. Off by default, as in AVKit; turned on here, it
    /// acts on the next hiding (see `init` for a window hidden already).
    public var startsAutomaticallyWhenSourceHidden: Bool {
        get { machine.configuration.startsAutomatically }
        set { machine.configuration.startsAutomatically = newValue }
    }
    /// Whether frames should be presented to the controller (the proxy or the PiP window is showing).
    public var isShowingVideo: Bool { proxyShown || pipShown }
    /// The X id of the PiP window.
    public var pipWindowID: WindowID { pipWindow.id }

    /// Creates the (unmapped) PiP and animation windows on `loop`'s display.
    /// - Parameters:
    ///   - corner: where the PiP window goes, on the monitor of the source window (else of the
    ///     pointer); `size` overrides the default quarter of that monitor's work-area width.
    ///     Without `frame`, PiP follows the source window to another monitor until the user moves
    ///     it; `frame` (a remembered one) overrides all of it.
    ///   - startsAutomaticallyWhenSourceHidden: the property's first value; given here, a source
    ///     window already hidden starts PiP (set later, only later hiding does).
    ///   - jpegDecodeThreads: the threads MJPEG frames are decoded with (`JPEGDecoder`).
    public init(
        loop: DisplayLoop, contentSource: PipContentSource?, corner: Corner = .bottomRight, size: (Int, Int)? = nil,
        frame: Rect? = nil, allowSharedMemory: Bool = true, startsAutomaticallyWhenSourceHidden: Bool = false,
        jpegDecodeThreads: Int = JPEGDecoder.standardThreads
    ) throws {
        self.loop = loop
        let display = loop.display
        wm = WindowManagerInfo(display: display)
        let content = contentSource ?? PipContentSource(sourceWindow: 0, preferredContentSize: (16, 9))
        let aspect = Placement.aspectRatio(width: content.preferredContentWidth, height: content.preferredContentHeight)
        let rect = frame ?? Placement.initialRect(
            workArea: ScreenLayout(display: display).homeArea(display: display, near: content.sourceWindow), corner: corner,
            aspect: Double(aspect.0) / Double(aspect.1), size: size)
        if frame == nil { defaultPlacement = (corner, size) }
        pipWindow = FloatingWindow(display: display, rect: rect, aspect: aspect, wm: wm)
        proxy = display.createWindow(rect: rect, events: [.exposure], overrideRedirect: true)
        // Not PiP's title: a script or rule that finds PiP by its name must find it alone.
        display.setIdentity(proxy, role: "PictureInPictureAnimation", title: "pipcam animation")
        pipPresenter = try Presenter(
            display: display, window: pipWindow.id, allowShm: allowSharedMemory, jpegDecodeThreads: jpegDecodeThreads)
        proxyPresenter = try Presenter(
            display: display, window: proxy, allowShm: allowSharedMemory, jpegDecodeThreads: jpegDecodeThreads)
        machine = PipStateMachine(pipFrame: rect)
        machine.configuration.startsAutomatically = startsAutomaticallyWhenSourceHidden
        controls = PipControls(doubleSize: display.prefersDoubleSize)
        self.contentSource = contentSource
        ownTokens.append(loop.register(pipWindow.id) { [unowned self] in handlePipWindowEvent($0) })
        ownTokens.append(loop.register(proxy) { [unowned self] event in
            if case .expose(_, 0) = event { proxyPresenter.redraw() }
        })
        // Shared-memory puts finish asynchronously: take the completions of our own images from the
        // loop (others' segments are ignored), so `canPresent` turns true again without help.
        ownTokens.append(loop.observeOtherEvents { [weak self] event in
            if case .shmCompletion(let segment) = event { self?.completed(segment: segment) }
        })
        // Moves snap to the work area's edges; resizes keep the corner the user left fixed.
        pipWindow.onOwnDragEnded = { [unowned self] kind in settleFrame(snap: kind == .move, byUser: true) }
        pipWindow.onWindowManagerDragStarted = { [unowned self] kind in
            windowManagerMoveSeen = kind == .move
            scheduleSettle(byUser: true)
        }
        installOverlays()
        // A window manager replaced while PiP runs must be told again what this window is; a
        // monitor unplugged (the root resized, the work area changed) may leave PiP nowhere.
        _ = display.watch(display.root, [.propertyChange, .structureNotify])
        monitorWorkAreasAtom = WindowManagerInfo.monitorWorkAreasAtom(display: display)
        if let check = wm.checkWindow { _ = display.watch(check, [.structureNotify]) }
        display.watchScreenChanges()
        // Weak: the loop may outlive the controller (tearDown removes the observer).
        ownTokens.append(loop.observeOtherEvents { [weak self] event in
            guard let self, !isTornDown else { return }
            switch event {
            case .property(let w, let atom, _) where w == display.root && atom == display[._NET_SUPPORTING_WM_CHECK]:
                windowManagerChanged()
            case .destroyed(let w) where w == wm.checkWindow:
                windowManagerChanged()
            case .property(let w, let atom, _) where w == display.root && (atom == display[._NET_WORKAREA] || atom == monitorWorkAreasAtom):
                screenMayHaveChanged()
            case .property(let w, let atom, _) where w == display.root && atom == display[._NET_CURRENT_DESKTOP]:
                // Each desktop has its own work areas.
                monitorWorkAreasAtom = WindowManagerInfo.monitorWorkAreasAtom(display: display)
                screenMayHaveChanged()
            case .configure(let w, _, _) where w == display.root:
                screenMayHaveChanged()
            case .screenChanged:
                screenMayHaveChanged()
            default: break
            }
        })
        contentSourceChanged(from: nil)
    }

    /// A window manager started, was replaced or quit (its check window went).
    private func windowManagerChanged() {
        wm = WindowManagerInfo(display: display)
        cachedLayout = nil
        if let check = wm.checkWindow { _ = display.watch(check, [.structureNotify]) }
        pipWindow.windowManagerChanged(to: wm, isMapped: pipShown)
        // Unmapping hides the source window only with no window manager; what it means for the
        // source window now may differ (mapped again as the window manager left).
        watcher?.windowManagerRunning = wm.isRunning
        watcher?.recheck()
    }

    /// A controller released without `tearDown()` tears down: its windows go, and nothing of it
    /// stays registered with the loop (which would reach a freed controller).
    deinit { tearDown() }

    /// `startPictureInPicture()`: grows PiP out of the source window.
    public func start() { feed(.startRequested) }
    /// `stopPictureInPicture()`: shrinks PiP back into the source window and restores it.
    public func stop() { feed(.stopRequested(restore: true)) }
    /// Closes PiP without restoring the source window (the PiP window's close control).
    public func close() { feed(.stopRequested(restore: false)) }

    /// Mirror and rotation of the picture in PiP.
    public func setPicture(mirror: Bool, rotation: Rotation) {
        for p in [pipPresenter, proxyPresenter] {
            p.mirror = mirror
            p.rotation = rotation
        }
    }

    /// Draws `frame` in whichever of the animation proxy or PiP window is showing.
    /// Returns `.busy` when that window's images are all still with the server.
    /// `counted: false` for a redraw of a frame already shown (not a new frame for the statistics).
    public func present(_ frame: VideoFrame, counted: Bool = true) throws -> Presenter.Outcome {
        if proxyShown { return try proxyPresenter.present(frame, counted: counted) }
        if pipShown { return try pipPresenter.present(frame, counted: counted) }
        return .busy
    }

    /// What the source will send, for the PiP window to get ready before its first frame.
    public var expectedFrames: ExpectedFrames? {
        get { pipPresenter.expectedFrames }
        set { pipPresenter.expectedFrames = newValue }
    }

    /// The PiP window's outline, opacity and click-through.
    public var style: PipWindowStyle {
        get { pipWindow.style }
        set { pipWindow.style = newValue }
    }

    /// The pixel layout of the PiP window's visual (for drawing overlays).
    public var pixelLayout: PixelLayout { pipPresenter.pixelLayout }

    /// Drawn over every picture in the PiP and animation windows (under the PiP controls).
    public var overlay: ((UnsafeMutableRawPointer, Int, Int, Int) -> Void)?

    private func installOverlays() {
        let compositor = Compositor(layout: pipPresenter.pixelLayout)
        proxyPresenter.overlay = { [unowned self] pixels, stride, w, h in overlay?(pixels, stride, w, h) }
        pipPresenter.overlay = { [unowned self] pixels, stride, w, h in
            overlay?(pixels, stride, w, h)
            controls.draw(with: compositor, into: pixels, stride: stride, width: w, height: h, now: .now())
        }
    }

    /// Puts a picture drawn by `body` (a notice) in whichever window is showing.
    public func present(drawing body: (UnsafeMutableRawPointer, Int, Int, Int) -> Void) {
        if proxyShown { proxyPresenter.present(drawing: body) } else if pipShown { pipPresenter.present(drawing: body) }
    }

    /// Whether the showing window can take a frame now.
    public var canPresent: Bool {
        proxyShown ? proxyPresenter.canPresent : pipShown ? pipPresenter.canPresent : false
    }

    /// Hands a shared-memory completion to the presenter that owns the segment, if either does.
    private func completed(segment: UInt) {
        guard !isTornDown else { return }
        var result = pipPresenter.completed(segment: segment)
        if !result.mine { result = proxyPresenter.completed(segment: segment) }
        if let captured = result.capturedAt { onFrameShown?(captured) }
        if result.mine && (proxyShown ? proxyPresenter : pipPresenter).owesRedraw { onNeedsFrame?() }
    }

    /// Whether all puts have completed (for a clean shutdown).
    public var isIdle: Bool { pipPresenter.isIdle && proxyPresenter.isIdle }

    /// Destroys the windows and ends PiP at once, without delegate calls (the application is
    /// going away). The controller must not be used afterwards; it may be released.
    public func tearDown() {
        guard !isTornDown else { return }
        finishPendingSettle()
        isTornDown = true
        queuedEvents.removeAll()
        for timer in [tickTimer, controlsTimer, settleTimer, mapRetryTimer, screenTimer] {
            if let timer { loop.cancelTimer(timer) }
        }
        (tickTimer, controlsTimer, settleTimer, mapRetryTimer, screenTimer) = (nil, nil, nil, nil, nil)
        for token in ownTokens + watcherTokens { loop.unregister(token) }
        pipPresenter.close()
        proxyPresenter.close()
        display.destroy(proxy)
        display.destroy(pipWindow.id)
        (pipShown, proxyShown) = (false, false)
    }

    // MARK: events in

    private func contentSourceChanged(from old: PipContentSource?) {
        guard !isTornDown else { return }
        // The same source window with new content (the active-speaker case) keeps PiP up as it is.
        let sameWindow = watcher != nil && old?.sourceWindow == contentSource?.sourceWindow
            && old?.animationWindow == contentSource?.animationWindow
        // Another window while PiP is up: it stays up, and that window becomes the restore target.
        let switchesInPlace = !sameWindow && old != nil && machine.phase == .active
            && contentSource.map { $0.sourceWindow != 0 && display.isMapped($0.sourceWindow) != nil } == true
        if !sameWindow {
            for token in watcherTokens { loop.unregister(token) }
            watcher = nil
            watcherTokens = []
            if old != nil && !switchesInPlace { feed(.contentSourceRemoved) }
        }
        guard let content = contentSource else { return }
        let ratio = Placement.aspectRatio(width: content.preferredContentWidth, height: content.preferredContentHeight)
        pipWindow.setAspect(ratio)
        reshape(toAspect: Double(ratio.0) / Double(ratio.1))
        guard watcher == nil, content.sourceWindow != 0 else { return }
        let w = SourceWindowWatcher(
            display: display, window: content.sourceWindow, frameWindow: content.animationWindow,
            windowManagerRunning: wm.isRunning)
        w.report = { [unowned self] in feed($0) }
        guard w.begin() else { return }
        watcher = w
        watcherTokens = [loop.register(w.window) { [unowned w] in w.handle($0) }]
        if w.frameWindow != w.window {
            // The view PiP grows out of gets its frame once it is shown, and moves with its top-level.
            watcherTokens.append(loop.register(w.frameWindow) { [unowned w] in w.handle($0) })
        }
        feed(.contentSourceAttached)
        if let frame = w.frame { feed(.sourceFrameChanged(frame)) }
        if w.isHidden { feed(.sourceHidden) }
    }

    private func handlePipWindowEvent(_ event: WindowEvent) {
        switch event {
        case .destroyed(let w) where w == pipWindow.id:
            onWindowDestroyed?()
        case .configure(_, let r, let synthetic):
            let old = pipWindow.rect
            defer { checkPlacement() }
            if pipWindow.noteConfigure(r, synthetic: synthetic) {
                pipPresenter.resize(width: r.width, height: r.height)
                onNeedsFrame?()
            } else if pipWindow.rect != old, pipPresenter.windowMoved() {
                onNeedsFrame?()
            }
            if pipShown { feed(.pipFrameChanged(pipWindow.rect)) }
            // The window manager resized or moved it on the user's behalf (e.g. its own keyboard
            // or Alt-drag): remember where it settles. Not the answer to pipcam's own move.
            // Nor a window manager's pulling it onto a screen that changed.
            let screenMoved = screenChangeSeen.map { MonotonicInstant.now().seconds(since: $0) < PipTuning.screenChangeMoveSeconds } ?? false
            if pipShown, pipWindow.rect != old, settleTimer == nil, !screenMoved, !answersOwnMove(pipWindow.rect, synthetic: synthetic) {
                scheduleSettle(byUser: true)
            }
        case .mapped:
            pipMappedSinceShown = true
        case .expose(_, 0):
            pipPresenter.redraw()
        case .clientMessage(_, let type, let data)
            where type == display[.WM_PROTOCOLS] && UInt(bitPattern: data.0) == display[.WM_DELETE_WINDOW]:
            feed(.pipWindowClosed)
        case .visibility(_, _, let unobscured) where !unobscured:
            pipWindow.raiseIfObscured()
        case .keyPress(_, let keysym, let state) where KeyModifiers.isPlainKeyPress(state: state):
            handleKey(keysym)
        case .motion, .pointerEntered:
            showControls()
            pipWindow.handlePointer(event)
            // A press that became a drag is not the first half of a double-click.
            if pipWindow.isDragging { lastClick = nil }
        case .pointerLeft:
            controls.hide()
            onNeedsFrame?()
        case .buttonPress(let p) where p.button == 4 || p.button == 5:
            scale(by: p.button == 4 ? PipTuning.wheelZoomFactor : 1 / PipTuning.wheelZoomFactor, around: (p.rootX, p.rootY))
        case .buttonPress(let p) where p.button == 1:
            if let c = controls.control(atX: p.x, y: p.y, width: pipWindow.rect.width, height: pipWindow.rect.height, now: .now()) {
                pressedControl = c
                return
            }
            if let last = lastClick, p.time &- last.time < PipTuning.doubleClickMilliseconds,
                abs(p.x - last.x) < PipTuning.doubleClickDistance, abs(p.y - last.y) < PipTuning.doubleClickDistance
            {
                lastClick = nil
                stop()  // double-click: back to the source window, like mpv and Firefox PiP
                return
            }
            lastClick = p
            pipWindow.handlePointer(event)
        case .buttonRelease(let p) where p.button == 1 && pressedControl != nil:
            let c = controls.control(atX: p.x, y: p.y, width: pipWindow.rect.width, height: pipWindow.rect.height, now: .now())
            if c == pressedControl { perform(control: c!) }
            pressedControl = nil
        default:
            pipWindow.handlePointer(event)
        }
    }

    private func perform(control: PipControls.Control) {
        switch control {
        case .backToMain: stop()
        case .close: close()
        case .mirror: onMirrorToggle?()
        }
    }

    private func handleKey(_ keysym: UInt) {
        switch keysym {
        case Keysym.escape: stop()  // back to the source window
        case Keysym.m: onMirrorToggle?()
        case Keysym.r: onRotate?()
        case Keysym.plus, Keysym.equal, Keysym.keypadAdd: scale(by: PipTuning.keyZoomFactor, around: nil)
        case Keysym.minus, Keysym.keypadSubtract: scale(by: 1 / PipTuning.keyZoomFactor, around: nil)
        default: break
        }
    }

    private func showControls() {
        let wasVisible = controls.isVisible(at: .now())
        controls.pointerMoved(at: .now())
        if !wasVisible { onNeedsFrame?() }
        if let t = controlsTimer { loop.cancelTimer(t) }
        guard let until = controls.visibleUntil else { return }
        controlsTimer = loop.schedule(at: until) { [unowned self] in
            controlsTimer = nil
            onNeedsFrame?()  // redraw without them
        }
    }

    /// A picture of another shape (turned with `r`, another camera) reshapes PiP, keeping its area
    /// and the corner it is nearest: aspect hints alone leave it between wide bars with no window
    /// manager or one that ignores them. (During the grow or shrink animation the hints do.)
    private func reshape(toAspect aspect: Double) {
        guard machine.phase == .idle || machine.phase == .active else { return }
        let current = pipShown ? pipWindow.rect : machine.pipFrame
        guard current.width > 0, current.height > 0,
            !WindowPlacementMath.hasShape(width: current.width, height: current.height, aspect: aspect)
        else { return }
        let r = WindowPlacementMath.reshaped(current, toAspect: aspect, in: screenLayout.area(for: current))
        if let given = defaultPlacement?.size {
            defaultPlacement?.size = WindowPlacementMath.sizeKeepingArea(width: given.0, height: given.1, aspect: aspect)
        }
        if pipShown {
            movePip(to: r)
            scheduleSettle(byUser: false)
        } else {
            feed(.pipFrameChanged(r))
        }
    }

    /// The rect the last zoom asked for, when, and the exact centre a keyboard zoom kept. Zooms in
    /// a burst (a wheel spin) start from it, not from the window's rect, which only its
    /// ConfigureNotify updates; and while the window is still there, `+` and `-` keep that centre.
    private var lastZoom: (rect: Rect, at: MonotonicInstant, centre: (x: Double, y: Double)?)?

    /// Wheel or +/-: zooms PiP around the pointer at `point`, or (keyboard) around its centre,
    /// aspect kept, inside the work area.
    private func scale(by factor: Double, around point: (x: Int, y: Int)?) {
        guard pipShown else { return }
        let now = MonotonicInstant.now(), current = pipWindow.rect
        let last = lastZoom.flatMap { $0.rect == current || now.seconds(since: $0.at) < PipTuning.zoomBurstSeconds ? $0 : nil }
        let base = last?.rect ?? current
        let area = screenLayout.area(for: base)
        let zoomed: (rect: Rect, centre: (x: Double, y: Double)?)
        if let point {
            zoomed = (WindowPlacementMath.scaled(
                base, by: factor, around: point.x, point.y, aspect: pipWindow.aspect, minWidth: FloatingWindow.minimumWidth,
                area: area), nil)
        } else {
            let centre = last?.centre ?? (Double(base.x) + Double(base.width) / 2, Double(base.y) + Double(base.height) / 2)
            zoomed = WindowPlacementMath.scaled(
                base, by: factor, aroundCentre: centre, aspect: pipWindow.aspect, minWidth: FloatingWindow.minimumWidth, area: area)
        }
        lastZoom = (zoomed.rect, now, zoomed.centre)
        ownMove = nil  // the user's: its answer is theirs
        pipWindow.setRect(zoomed.rect)
        scheduleSettle(byUser: true)
    }

    private func scheduleSettle(byUser: Bool) {
        settleByUser = settleByUser || byUser
        if let t = settleTimer { loop.cancelTimer(t) }
        settleTimer = loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: PipTuning.settleNanoseconds)) { [unowned self] in
            settleTimer = nil
            if display.pointerButtonsDown() { return scheduleSettle(byUser: false) }  // still being dragged
            settleFrame(snap: windowManagerMoveSeen, byUser: settleByUser)
            windowManagerMoveSeen = false
            settleByUser = false
        }
    }

    /// A move or resize ended: snap to the edges of the work area on the monitor that shows most
    /// of PiP if close, then report it. One the user made ends following the source window.
    private func settleFrame(snap: Bool, byUser: Bool) {
        if byUser { defaultPlacement = nil }
        let area = screenLayout.area(for: pipWindow.rect)
        // A move snaps to the edges near it; a resize (pipcam's own, with no window manager to
        // bound it) is brought back inside the work area.
        let r = snap ? WindowPlacementMath.snapped(pipWindow.rect, to: area) : WindowPlacementMath.fitted(pipWindow.rect, into: area)
        if r != pipWindow.rect { movePip(to: r) }
        if byUser { onFrameSettled?(r) }
        onFrameChanged?(r)
    }

    /// Ending within the wait after the user moved or resized PiP (a SIGTERM right after a drag):
    /// the place they left it at is still reported as settled, snapped as it would have been.
    private func finishPendingSettle() {
        guard settleTimer != nil, pipShown, settleByUser else { return }
        let area = screenLayout.area(for: pipWindow.rect)
        onFrameSettled?(windowManagerMoveSeen ? WindowPlacementMath.snapped(pipWindow.rect, to: area) : pipWindow.rect)
    }

    /// Moves or resizes the PiP window for pipcam's own reasons; the window manager's answer is
    /// not taken for a move by the user.
    private func movePip(to r: Rect) {
        expectOwnMove(to: r)
        pipWindow.setRect(r)
    }

    /// For a second, a ConfigureNotify that puts the window at `r` (give or take a window
    /// manager's decoration offset, as i3 adds) answers pipcam's own request.
    private func expectOwnMove(to r: Rect) {
        ownMove = (r, MonotonicInstant.now().advanced(byNanoseconds: PipTuning.ownMoveAnswerNanoseconds))
    }

    /// Where pipcam's own move of the last second asked the window to go.
    private var pendingOwnMove: Rect? {
        ownMove.flatMap { MonotonicInstant.now() < $0.until ? $0.target : nil }
    }

    /// `a` is `b`'s size at most a window manager's decoration offset (i3's) away.
    private static func isNearby(_ a: Rect, _ b: Rect) -> Bool {
        a.width == b.width && a.height == b.height && abs(a.x - b.x) <= PipTuning.decorationOffset && abs(a.y - b.y) <= PipTuning.decorationOffset
    }

    /// Whether the window at `r` is where pipcam's own last request put it, just now: a user's
    /// key move or quick drag right after lands elsewhere and counts as theirs. A window manager
    /// tells a move by a synthetic ConfigureNotify (ICCCM 4.1.5); its real ones, frame-relative,
    /// pass through passing positions while it reparents, so only their size tells.
    private func answersOwnMove(_ r: Rect, synthetic: Bool) -> Bool {
        guard let target = pendingOwnMove, r.width == target.width, r.height == target.height else { return false }
        return (wm.isRunning && !synthetic) || Self.isNearby(r, target)
    }

    /// Feeds the machine; events raised while actions run (a synchronous restore completion) queue up.
    private func feed(_ event: PipEvent) {
        // After `tearDown` (from a delegate call, or a restore completion kept by the app) nothing
        // more happens: no delegate calls, no windows, no timers.
        guard !isTornDown else { return }
        refitPipFrameBeforeStart(for: event)
        queuedEvents.append(event)
        guard !handlingEvents else { return }
        handlingEvents = true
        defer { handlingEvents = false }
        while !queuedEvents.isEmpty {
            let next = queuedEvents.removeFirst()
            for action in machine.handle(next, now: .now()) where !isTornDown { perform(action) }
        }
        if !isTornDown { scheduleTick() }
    }

    /// The screen or work area may have changed since PiP was last up (a monitor unplugged, a
    /// panel added): before an event that may start it, PiP's frame is fitted onto its monitor's
    /// work area today, or, never moved by the user, placed in its corner of the source window's.
    private func refitPipFrameBeforeStart(for event: PipEvent) {
        guard machine.phase == .idle, !pipShown else { return }
        switch event {
        case .startRequested, .sourceHidden, .tick: break
        default: return
        }
        let layout = screenLayout, frame = machine.pipFrame
        let fitted: Rect
        if let placement = defaultPlacement, frame.width > 0, frame.height > 0 {
            // The size given (reshaped with the picture), else a quarter of the monitor's width.
            fitted = Placement.initialRect(
                workArea: layout.homeArea(display: display, near: contentSource?.sourceWindow), corner: placement.corner,
                aspect: Double(frame.width) / Double(frame.height), size: placement.size)
        } else {
            fitted = WindowPlacementMath.fitted(frame, into: layout.area(for: frame))
        }
        if fitted != frame { queuedEvents.append(.pipFrameChanged(fitted)) }
    }

    /// The monitors or the work area changed while PiP shows: PiP whose centre no monitor shows any
    /// more (its monitor was unplugged), or larger than its monitor's area now, goes to the same
    /// corner of the nearest monitor's area. Not saved: the user did not choose that place, and
    /// the monitor may come back.
    private func screenChanged() {
        guard pipShown else { return }
        // The window may not have taken pipcam's last request yet.
        let r = pendingOwnMove ?? pipWindow.rect
        let layout = screenLayout, area = layout.area(for: r)
        let before = shownLayout?.area(for: r) ?? area
        shownLayout = layout
        let lost = !layout.shows(r) || r.width > area.width || r.height > area.height
        // A panel added or taken away: PiP that lay on the old work area keeps its distance from
        // the nearest corner of the new one, as iOS PiP keeps its corner of the safe area. One
        // the user left over a panel stays.
        let areaMoved = area != before && before.intersection(r) == r
        guard lost || areaMoved else { return }
        let placed = GeometryMemory(rect: r, in: before).rect(in: area)
        guard placed != r else { return }
        movePip(to: placed)
        onFrameChanged?(placed)
    }

    /// Screen changes come in bursts (an output off, the screen resized, the work area rewritten;
    /// docking tools do it in steps): PiP is placed once they are over.
    private func screenMayHaveChanged() {
        cachedLayout = nil
        screenChangeSeen = .now()
        if let t = screenTimer { loop.cancelTimer(t) }
        screenTimer = loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: PipTuning.screenChangeQuietNanoseconds)) { [unowned self] in
            screenTimer = nil
            screenChanged()
        }
    }

    private func scheduleTick() {
        if let t = tickTimer { loop.cancelTimer(t) }
        tickTimer = nil
        guard let deadline = machine.nextDeadline else { return }
        tickTimer = loop.schedule(at: deadline) { [unowned self] in
            tickTimer = nil
            feed(.tick)
        }
    }

    // MARK: actions out

    private func perform(_ action: PipAction) {
        switch action {
        case .willStart: delegate?.pipControllerWillStart(self)
        case .didStart: delegate?.pipControllerDidStart(self)
        case .failedToStart: delegate?.pipController(self, failedToStartWith: .notPossible)
        case .willStop: delegate?.pipControllerWillStop(self)
        case .didStop: delegate?.pipControllerDidStop(self)
        case .restoreUserInterface:
            if let delegate {
                // Each completion counts once, and only for its own stop: one kept from an earlier
                // stop, or called twice, must not end a later restore before its interface is back.
                restores += 1
                let restore = restores
                delegate.pipController(self, restoreUserInterfaceWithCompletion: { [weak self] in
                    guard let self, restore == restores else { return }
                    restores += 1
                    feed(.restoreCompleted)
                })
            } else {
                feed(.restoreCompleted)
            }
        case .possibleChanged(let possible): onPossibleChanged?(possible)
        case .showProxy(let r):
            placeProxy(r)
            display.map(proxy)
            display.raise(proxy)
            proxyShown = true
            onNeedsFrame?()
        case .moveProxy(let r):
            placeProxy(r)
            onNeedsFrame?()
        case .hideProxy:
            display.unmap(proxy)
            proxyShown = false
        case .showPip(let planned):
            // A monitor may have gone while PiP grew out of its source window.
            let layout = screenLayout
            let r = layout.shows(planned) ? planned : WindowPlacementMath.fitted(planned, into: layout.area(for: planned))
            shownLayout = layout
            // The window manager places the window it maps: that is no move by the user either.
            expectOwnMove(to: r)
            if r != pipWindow.rect { pipWindow.setRect(r) }
            requestedPlacement = wm.isRunning ? (r, MonotonicInstant.now().advanced(byNanoseconds: PipTuning.ownMoveAnswerNanoseconds)) : nil
            pipPresenter.resize(width: r.width, height: r.height)
            pipPresenter.warmUp()
            pipWindow.show()
            pipShown = true
            pipMappedSinceShown = false
            onNeedsFrame?()
            ensureMapped(attempt: 1)
        case .hidePip:
            pipWindow.hide()
            pipShown = false
        case .restoreSource:
            restoreSourceWindow()
        }
    }

    /// A window manager that is still starting up (or restarting) can drop a MapRequest, leaving
    /// PiP unmanaged and unmapped for good: ask again until it is mapped. Once it was mapped, an
    /// unmap is the user's or the window manager's doing (iconified, another workspace): leave it.
    private func ensureMapped(attempt: Int) {
        if let t = mapRetryTimer { loop.cancelTimer(t) }
        mapRetryTimer = loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: PipTuning.mapRetryNanoseconds)) { [unowned self] in
            mapRetryTimer = nil
            guard pipShown, !pipMappedSinceShown, display.isMapped(pipWindow.id) == false, attempt <= PipTuning.mapRetries else { return }
            expectOwnMove(to: pipWindow.rect)  // the window manager places it again
            pipWindow.show()
            ensureMapped(attempt: attempt + 1)
        }
    }

    /// i3 places a floating window as if it had a title bar and border (its default), then applies
    /// `_MOTIF_WM_HINTS` (no decorations) and leaves the window that much down and right of where
    /// it asked to be. So once, when the window manager places the just-shown window at its size but
    /// a little off (decoration-sized), ask again for the place; i3 honours that for floating windows.
    private func checkPlacement() {
        guard let (want, until) = requestedPlacement, pipShown else { return }
        guard MonotonicInstant.now() < until else { return requestedPlacement = nil }
        let got = pipWindow.rect
        guard got != want, Self.isNearby(got, want) else { return }
        requestedPlacement = nil
        movePip(to: want)
    }

    private func placeProxy(_ r: Rect) {
        display.moveResize(proxy, to: r)
        proxyPresenter.resize(width: r.width, height: r.height)
    }

    /// Maps (de-iconifies, ICCCM 4.1.4) and activates the source window; its frame is the one it had.
    private func restoreSourceWindow() {
        guard let watcher, !watcher.withdrawnByItsApplication else { return }
        let w = watcher.window
        display.map(w)
        if wm.isRunning && wm.supports(display[._NET_ACTIVE_WINDOW]) {
            display.sendToRoot(about: w, ._NET_ACTIVE_WINDOW, [EWMH.sourceApplication, 0, 0])
        } else {
            display.raise(w)
        }
    }
}
