import MJPEG
import PipCore
import PipConvert

/// Picture in Picture for X11, after `AVPictureInPictureController`: a floating, always-on-top video
/// window that grows out of a source window when it starts, shrinks back into it (restoring it)
/// when it stops, and can start by itself when the source window is minimized or hidden.
///
/// The controller lives on a `DisplayLoop`'s thread and is used only there. It drives
/// `PipStateMachine` (the life cycle), `PipPlacement` (where the window goes) and `PipWindowInput`
/// (what the mouse and keys mean), and shows video through `output`, which routes frames to the
/// window showing video and takes its own shared-memory completions from the loop.
///
/// ```swift
/// let loop = DisplayLoop(display: try XDisplay())
/// let pip = try PipController(loop: loop, contentSource: PipContentSource(
///     sourceWindow: myWindow, preferredContentSize: (1280, 720)))
/// pip.delegate = self
/// pip.startsAutomaticallyWhenSourceHidden = true
/// loop.everyIteration {
///     guard pip.output.canPresent, let frame = pump.mailbox.take() else { return }
///     _ = try? pip.output.present(frame)
///     pump.mailbox.giveBack(frame.bufferIndex)
/// }
/// ```
///
/// `Examples/PipExample` is a complete program. The life cycle and placement rules are in
/// docs/BEHAVIOUR.md.
public final class PipController {
    /// Whether PiP can work on `display`: 24-bit colour, which the presenter needs.
    public static func isSupported(display: XDisplay) -> Bool {
        PixelLayout(display.visualMasks) != nil
    }

    public weak var delegate: PipControllerDelegate?
    /// The player whose content PiP shows (AVKit's sample-buffer playback delegate): with one
    /// whose `timeRange` is not nil, PiP's controls play, pause and skip it. Held weakly.
    public weak var playbackDelegate: PipPlaybackDelegate? {
        didSet { playbackChanged() }
    }

    /// Called on the loop's thread whenever `isPossible` changes (drives a PiP button).
    public var onPossibleChanged: ((Bool) -> Void)?
    /// Called when another program destroyed the PiP window (`XDestroyWindow` on it): the controller
    /// can show PiP no more, and its puts to the window would never complete.
    public var onWindowDestroyed: (() -> Void)?
    /// Called when the controller needs the current frame drawn again (its window appeared or was resized).
    public var onNeedsFrame: (() -> Void)?
    /// The user asked to flip the picture (the mirror control, or `m`).
    public var onMirrorToggle: (() -> Void)?
    /// The user asked to rotate the picture a quarter turn (`r`).
    public var onRotate: (() -> Void)?
    /// A plain key pressed in the PiP window that PiP has no use for.
    public var onKey: ((Keysym) -> Void)?
    /// The user zoomed or panned the picture (`FramingInput`); with where the picture is drawn in
    /// the PiP window, for the gesture's window coordinates (`FramingGesture.applied`).
    public var onFraming: ((FramingGesture, Rect) -> Void)?
    /// The user finished moving, resizing or zooming the PiP window (after snapping); for remembering it.
    public var onFrameSettled: ((Rect) -> Void)?
    /// PiP's frame settled after any change: the user's, or pipcam's own (a reshape for a picture
    /// of another shape, a monitor gone); for sizing what feeds it.
    public var onFrameChanged: ((Rect) -> Void)?
    /// Drawn over every picture in the PiP and animation windows (under the PiP controls).
    public var overlay: ((UnsafeMutableRawPointer, Int, Int, Int) -> Void)?
    /// Where frames go: the animation window while PiP grows or shrinks, else the PiP window (and
    /// an owner's main window, attached as `.main`, while PiP does not show).
    public let output: VideoOutput
    /// Whether `output` was made here (else the application's, which closes it itself).
    private let ownsOutput: Bool

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
        set { automaticPip = newValue ? (hidingCounted == .never ? .hidden : hidingCounted) : .never }
    }
    /// Which hiding of the source window starts PiP by itself (`.never`: none; the default once
    /// `startsAutomaticallyWhenSourceHidden` is on is `.hidden`, any hiding, as AVKit users expect).
    public var automaticPip: AutomaticPip {
        get { machine.configuration.startsAutomatically ? hidingCounted : .never }
        set {
            machine.configuration.startsAutomatically = newValue != .never
            if newValue != .never { hidingCounted = newValue }
            watcher?.mode = hidingCounted
            watcher?.recheck()
        }
    }
    /// The hiding that counts while automatic starts are on.
    var hidingCounted: AutomaticPip = .hidden
    /// Whether PiP shows video (its animation or PiP window is showing).
    public var isShowingVideo: Bool { proxyShown || pipShown }
    /// The X id of the PiP window.
    public var pipWindowID: WindowID { pipWindow.id }
    /// The PiP window's outline, opacity and click-through.
    public var style: PipWindowStyle {
        get { pipWindow.style }
        set { pipWindow.style = newValue }
    }
    /// The pixel layout of the PiP window's visual (for drawing overlays).
    public var pixelLayout: PixelLayout { pipPresenter.pixelLayout }

    let loop: DisplayLoop
    var display: XDisplay { loop.display }
    var machine: PipStateMachine
    var placement: PipPlacement
    var input: PipWindowInput
    let screen: ScreenWatcher
    let pipWindow: FloatingWindow
    let proxy: WindowID
    let pipPresenter: Presenter
    let proxyPresenter: Presenter
    var watcher: SourceWindowWatcher?
    var watcherTokens: [Int] = []
    var ownTokens: [Int] = []
    var tickTimer: Int?
    var controlsTimer: Int?
    var mapRetryTimer: Int?
    var queuedEvents: [PipEvent] = []
    var handlingEvents = false
    /// A new picture shape set during the grow or shrink animation: applied once it is over.
    var pendingAspect: Double?
    var proxyShown = false
    var pipShown = false
    /// Maps the PiP window again when a window manager drops the request.
    var mapWatchdog = MapWatchdog(intervalNanoseconds: PipTuning.mapRetryNanoseconds, retries: PipTuning.mapRetries)
    var isTornDown = false
    /// `startWhenPossible()` waits for PiP to become possible.
    var startsOncePossible = false
    /// Counts restore requests made of the delegate and their completions: a completion counts
    /// only while this is still the number its request was given.
    var restores = 0
    /// How many times the screen layout was read from the server; for tests.
    var layoutReads: Int { screen.layoutReads }

    /// Creates the (unmapped) PiP and animation windows on `loop`'s display.
    /// - Parameters:
    ///   - corner: where the PiP window goes, on the monitor of the source window (else of the
    ///     pointer); `size` overrides the default quarter of that monitor's work-area width.
    ///     Without `frame`, PiP follows the source window to another monitor until the user moves
    ///     it; `frame` (a remembered one) overrides all of it.
    ///   - startsAutomaticallyWhenSourceHidden: the property's first value; given here, a source
    ///     window already hidden starts PiP (set later, only later hiding does).
    ///   - automaticPip: which hiding counts, when not `.hidden` (`.never` overrides the above).
    ///   - jpegDecodeThreads: the threads MJPEG frames are decoded with (`JPEGDecoder`).
    ///   - output: the application's frame router, which its own windows are attached to too (the
    ///     PiP and animation windows are attached here, and detached by `tearDown`); nil: the
    ///     controller makes its own.
    public init(
        loop: DisplayLoop, contentSource: PipContentSource?, corner: Corner = .bottomRight, size: (Int, Int)? = nil,
        frame: Rect? = nil, allowSharedMemory: Bool = true, startsAutomaticallyWhenSourceHidden: Bool = false,
        automaticPip: AutomaticPip = .hidden, jpegDecodeThreads: Int = JPEGDecoder.standardThreads, output: VideoOutput? = nil
    ) throws {
        self.loop = loop
        let display = loop.display
        screen = ScreenWatcher(loop: loop)
        let content = contentSource ?? PipContentSource(sourceWindow: 0, preferredContentSize: (16, 9))
        let aspect = Placement.aspectRatio(width: content.preferredContentWidth, height: content.preferredContentHeight)
        let rect = frame ?? Placement.initialRect(
            workArea: screen.homeArea(near: content.sourceWindow), corner: corner,
            aspect: Double(aspect.0) / Double(aspect.1), size: size)
        placement = PipPlacement(
            defaultPlacement: frame == nil ? (corner, size) : nil, windowManagerRunning: screen.windowManager.isRunning)
        pipWindow = FloatingWindow(display: display, rect: rect, aspect: aspect, wm: screen.windowManager)
        proxy = display.createWindow(rect: rect, events: [.exposure], overrideRedirect: true)
        // Not PiP's title: a script or rule that finds PiP by its name must find it alone.
        display.setIdentity(proxy, role: "PictureInPictureAnimation", title: "pipcam animation")
        pipPresenter = try Presenter(
            display: display, window: pipWindow.id, allowShm: allowSharedMemory, jpegDecodeThreads: jpegDecodeThreads)
        proxyPresenter = try Presenter(
            display: display, window: proxy, allowShm: allowSharedMemory, jpegDecodeThreads: jpegDecodeThreads)
        ownsOutput = output == nil
        self.output = output ?? VideoOutput(loop: loop)
        machine = PipStateMachine(pipFrame: rect)
        machine.configuration.startsAutomatically = startsAutomaticallyWhenSourceHidden && automaticPip != .never
        if automaticPip != .never { hidingCounted = automaticPip }
        input = PipWindowInput(controls: PipControls(doubleSize: display.prefersDoubleSize))
        self.contentSource = contentSource
        connect()
        contentSourceChanged(from: nil)
    }

    /// Wires the windows, presenters and screen watcher to the controller.
    private func connect() {
        ownTokens.append(loop.register(pipWindow.id) { [unowned self] in handlePipWindowEvent($0) })
        ownTokens.append(loop.register(proxy) { [unowned self] event in
            if case .expose(_, 0) = event { proxyPresenter.redraw() }
        })
        output.attach(pipPresenter, as: .pip, isShowing: { [unowned self] in pipShown }, redraw: { [unowned self] in onNeedsFrame?() })
        output.attach(proxyPresenter, as: .animation, isShowing: { [unowned self] in proxyShown }, redraw: { [unowned self] in onNeedsFrame?() })
        let compositor = Compositor(layout: pipPresenter.pixelLayout)
        proxyPresenter.overlay = { [unowned self] pixels, stride, w, h in overlay?(pixels, stride, w, h) }
        pipPresenter.overlay = { [unowned self] pixels, stride, w, h in
            overlay?(pixels, stride, w, h)
            input.controls.draw(with: compositor, into: pixels, stride: stride, width: w, height: h, now: .now())
        }
        pipWindow.onOwnDragEnded = { [unowned self] in place(.ownDragEnded($0)) }
        pipWindow.onWindowManagerDragStarted = { [unowned self] in place(.windowManagerDragStarted($0)) }
        screen.onScreenChanged = { [unowned self] in
            place(.screenChanged)
            watcher?.recheck()  // another desktop may be shown: the source window with it, or not
        }
        screen.onWindowManagerChanged = { [unowned self] in windowManagerChanged() }
    }

    /// A window manager started, was replaced or quit (its check window went).
    private func windowManagerChanged() {
        let wm = screen.windowManager
        pipWindow.windowManagerChanged(to: wm, isMapped: pipShown)
        place(.windowManagerChanged(running: wm.isRunning))
        // Unmapping hides the source window only with no window manager; what it means for the
        // source window now may differ (mapped again as the window manager left).
        watcher?.windowManagerRunning = wm.isRunning
        watcher?.windowManagerMarksMinimized = wm.supports(display[._NET_WM_STATE_HIDDEN])
        watcher?.recheck()
    }

    /// A controller released without `tearDown()` tears down: its windows go, and nothing of it
    /// stays registered with the loop (which would reach a freed controller).
    deinit { tearDown() }

    /// The player's state changed (playing, paused, moved, its length known): PiP's controls
    /// show it (AVKit's `invalidatePlaybackState`). Call it when the player changes by itself.
    public func playbackChanged() {
        let shown = playbackDelegate.flatMap { player in
            player.timeRange.map { _ in PipControls.Playback(isPlaying: player.isPlaying, progress: player.progress) }
        }
        guard shown != input.controls.playback else { return }
        input.setPlayback(shown)
        // While it plays the next frame draws the controls anew; paused, no frame comes.
        if input.controls.isVisible(at: .now()) && shown?.isPlaying != true { onNeedsFrame?() }
    }

    /// `startPictureInPicture()`: grows PiP out of the source window.
    public func start() { feed(.startRequested) }
    /// Starts PiP now if it is possible, else as soon as it becomes possible (the source window
    /// not yet mapped, a window manager still starting).
    public func startWhenPossible() {
        if isPossible { start() } else { startsOncePossible = true }
    }
    /// `stopPictureInPicture()`: shrinks PiP back into the source window and restores it.
    public func stop() { feed(.stopRequested(restore: true)) }
    /// Starts or stops PiP as a hotkey would, following where PiP is heading: a PiP on its way up
    /// goes back, one on its way down comes back, and a start waiting for that is dropped again.
    public func toggle() {
        switch phase {
        case .idle: start()
        case .stopping, .restoring: if isStartPending { stop() } else { start() }
        case .starting, .active: stop()
        }
    }
    /// Closes PiP without restoring the source window (the PiP window's close control).
    public func close() { feed(.stopRequested(restore: false)) }

    /// Destroys the windows and ends PiP at once, without delegate calls (the application is
    /// going away). The controller must not be used afterwards; it may be released.
    public func tearDown() {
        guard !isTornDown else { return }
        place(.tearDown)
        isTornDown = true
        queuedEvents.removeAll()
        for timer in [tickTimer, controlsTimer, mapRetryTimer] {
            if let timer { loop.cancelTimer(timer) }
        }
        (tickTimer, controlsTimer, mapRetryTimer) = (nil, nil, nil)
        for token in ownTokens + watcherTokens { loop.unregister(token) }
        screen.stop()
        if ownsOutput {
            output.close()
        } else {
            output.detach(.pip)
            output.detach(.animation)
        }
        pipPresenter.close()
        proxyPresenter.close()
        display.destroy(proxy)
        display.destroy(pipWindow.id)
        (pipShown, proxyShown) = (false, false)
    }
}
