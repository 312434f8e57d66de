import MJPEG
import PipCore
import PipConvert

/// Picture in Picture after `AVPictureInPictureController`: a floating, always-on-top video
/// window that grows out of a source window when it starts, shrinks back into it (restoring it)
/// when it stops, and can start by itself when the source window is minimized or hidden.
///
/// The controller knows no window system: it asks a `WindowSystem` (`X11WindowSystem` on X) for
/// its surfaces, the screen and the source window, and lives on that system's loop thread. It
/// drives `PipStateMachine` (the life cycle), `PipPlacement` (where the window goes) and
/// `PipWindowInput` (what the mouse and keys mean), and shows video through `output`, which
/// routes frames to the window showing video.
///
/// ```swift
/// let loop = DisplayLoop(display: try XDisplay())
/// let pip = try PipController(windowSystem: X11WindowSystem(loop: loop), contentSource: PipContentSource(
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
    /// Whether PiP can work on `system` (pictures in a layout it can draw).
    public static func isSupported(on system: WindowSystem) -> Bool { system.pixelLayout != nil }

    public weak var delegate: PipControllerDelegate?
    /// The player whose content PiP shows (AVKit's sample-buffer playback delegate): with one
    /// whose `timeRange` is not nil, PiP's controls play, pause and skip it. Held weakly.
    public weak var playbackDelegate: PipPlaybackDelegate? {
        didSet { playbackChanged() }
    }

    /// Called on the loop's thread whenever `isPossible` changes (drives a PiP button).
    public var onPossibleChanged: ((Bool) -> Void)?
    /// Called when another program destroyed the PiP window: the controller
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
    /// Whether the window system was made for this controller alone (else the application's).
    var ownsWindowSystem = false

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
            watcher?.hiding = hidingCounted
            watcher?.recheck()
        }
    }
    /// The hiding that counts while automatic starts are on.
    var hidingCounted: AutomaticPip = .hidden
    /// Whether PiP shows video (its animation or PiP window is showing).
    public var isShowingVideo: Bool { proxyShown || pipShown }
    /// The window system's id of the PiP window.
    public var pipWindowID: WindowID { pipWindow.id }
    /// The PiP window's outline, opacity and click-through.
    public var style: PipWindowStyle {
        get { pipWindow.style }
        set { pipWindow.style = newValue }
    }
    /// The pixel layout of the PiP window's visual (for drawing overlays).
    public var pixelLayout: PixelLayout { pipPresenter.pixelLayout }
    /// The PiP window's picture in pixels: its frame's size at its pictures' scale (twice it on a
    /// Wayland output of scale 2), what a source is best asked for.
    public var pipPixelFrame: Rect {
        let frame = pipFrame, scale = pipPresenter.pixelScale
        return Rect(x: frame.x, y: frame.y, width: Self.scaled(frame.width, scale), height: Self.scaled(frame.height, scale))
    }

    /// The window system PiP runs on.
    public let windowSystem: WindowSystem
    var loop: ReaderLoop { windowSystem.timers }
    var machine: PipStateMachine
    var placement: PipPlacement
    var input: PipWindowInput
    let screen: PipScreen
    let pipWindow: PipSurface
    let proxy: AnimationSurface
    var pipPresenter: VideoSurface { pipWindow.video }
    var proxyPresenter: VideoSurface { proxy.video }
    var watcher: SourceWatch?
    var tickTimer: Int?
    var controlsTimer: Int?
    var queuedEvents: [PipEvent] = []
    var handlingEvents = false
    /// A new picture shape set during the grow or shrink animation: applied once it is over.
    var pendingAspect: Double?
    var proxyShown = false
    var pipShown = false
    var isTornDown = false
    /// `startWhenPossible()` waits for PiP to become possible.
    var startsOncePossible = false
    /// Counts restore requests made of the delegate and their completions: a completion counts
    /// only while this is still the number its request was given.
    var restores = 0
    /// How many times the screen layout was read from the server; for tests.
    var layoutReads: Int { screen.layoutReads }

    /// Creates the (unmapped) PiP and animation windows on `windowSystem`.
    /// - Parameters:
    ///   - corner: where the PiP window goes, on the monitor of the source window (else of the
    ///     pointer); `size` overrides the default quarter of that monitor's work-area width.
    ///     Without `frame`, PiP follows the source window to another monitor until the user moves
    ///     it; `frame` (a remembered one) overrides all of it.
    ///   - startsAutomaticallyWhenSourceHidden: the property's first value; given here, a source
    ///     window already hidden starts PiP (set later, only later hiding does).
    ///   - automaticPip: which hiding counts, when not `.hidden` (`.never` overrides the above).
    ///   - video: how the surfaces' pictures are made (shared memory, MJPEG decode threads).
    ///   - output: the application's frame router, which its own windows are attached to too (the
    ///     PiP and animation windows are attached here, and detached by `tearDown`); nil: the
    ///     controller makes its own.
    public init(
        windowSystem: WindowSystem, contentSource: PipContentSource?, corner: Corner = .bottomRight, size: (Int, Int)? = nil,
        frame: Rect? = nil, video: VideoSurfaceOptions = VideoSurfaceOptions(allowSharedMemory: true, jpegDecodeThreads: JPEGDecoder.standardThreads),
        startsAutomaticallyWhenSourceHidden: Bool = false, automaticPip: AutomaticPip = .hidden, output: VideoOutput? = nil
    ) throws {
        self.windowSystem = windowSystem
        screen = windowSystem.screen
        let content = contentSource ?? PipContentSource(sourceWindow: 0, preferredContentSize: (16, 9))
        let aspect = Placement.aspectRatio(width: content.preferredContentWidth, height: content.preferredContentHeight)
        let rect = frame ?? Placement.initialRect(
            workArea: screen.homeArea(near: content.sourceWindow), corner: corner,
            aspect: Double(aspect.0) / Double(aspect.1), size: size)
        placement = PipPlacement(
            defaultPlacement: frame == nil ? (corner, size) : nil, windowManagerRunning: screen.windowManagerRunning)
        pipWindow = try windowSystem.makePipSurface(rect: rect, aspect: aspect, video: video)
        proxy = try windowSystem.makeAnimationSurface(rect: rect, video: video)
        ownsOutput = output == nil
        self.output = output ?? VideoOutput()
        machine = PipStateMachine(pipFrame: rect)
        machine.configuration.startsAutomatically = startsAutomaticallyWhenSourceHidden && automaticPip != .never
        if automaticPip != .never { hidingCounted = automaticPip }
        input = PipWindowInput(controls: PipControls(doubleSize: windowSystem.prefersDoubleSize))
        self.contentSource = contentSource
        connect()
        contentSourceChanged(from: nil)
    }

    /// Wires the surfaces, presenters and screen to the controller.
    private func connect() {
        pipWindow.onEvent = { [unowned self] in handlePipSurfaceEvent($0) }
        output.attach(pipPresenter, as: .pip, isShowing: { [unowned self] in pipShown }, redraw: { [unowned self] in onNeedsFrame?() })
        output.attach(proxyPresenter, as: .animation, isShowing: { [unowned self] in proxyShown }, redraw: { [unowned self] in onNeedsFrame?() })
        let compositor = Compositor(layout: pipPresenter.pixelLayout)
        proxyPresenter.overlay = { [unowned self] pixels, stride, w, h in overlay?(pixels, stride, w, h) }
        pipPresenter.overlay = { [unowned self] pixels, stride, w, h in
            overlay?(pixels, stride, w, h)
            input.controls.draw(with: compositor, into: pixels, stride: stride, width: w, height: h, now: .now())
        }
        screen.onScreenChanged = { [unowned self] in
            place(.screenChanged)
            watcher?.recheck()  // another desktop may be shown: the source window with it, or not
        }
        screen.onWindowManagerChanged = { [unowned self] in windowManagerChanged() }
    }

    /// A window manager started, was replaced or quit; the surfaces and the watch know already.
    private func windowManagerChanged() {
        place(.windowManagerChanged(running: screen.windowManagerRunning))
        // What hiding means for the source window may differ now (mapped again as the window manager left).
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
        for timer in [tickTimer, controlsTimer] {
            if let timer { loop.cancelTimer(timer) }
        }
        (tickTimer, controlsTimer) = (nil, nil)
        watcher?.stop()
        watcher = nil
        (screen.onScreenChanged, screen.onWindowManagerChanged) = ({}, {})
        if ownsWindowSystem { windowSystem.stop() }
        if ownsOutput {
            output.close()
        } else {
            output.detach(.pip)
            output.detach(.animation)
        }
        proxy.destroy()
        pipWindow.destroy()
        (pipShown, proxyShown) = (false, false)
    }
}
