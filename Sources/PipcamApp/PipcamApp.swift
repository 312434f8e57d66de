import CameraSource
import PipControl
import PipCore
import PipWayland
import PipWindow

/// The pipcam program: a main window with the camera, Picture in Picture out of it, frames from one
/// source routed to whichever window shows video. Runs on the thread that calls `run()`.
///
/// It puts the parts together and carries out their rules: frames (`FrameDesk`), changing the
/// source (`SwitchDesk`), what the capture side is told while nothing shows (`ViewingPolicy`), the
/// picture's turn and mirror (`PictureSettings`), PiP (`PipController`).
public final class PipcamApp {
    /// The window system PiP and the windows are on.
    let windowSystem: any WindowSystem
    /// The window system's loop, which everything runs on.
    let loop: any EventLoop
    /// The X display's own parts (the main window, the X door, the hotkey); nil on Wayland.
    let x11: X11WindowSystem?
    let options: SessionOptions
    let pump: FramePump
    /// The window PiP grows out of and restores: the main window, or the followed one.
    let windows: SourceWindowDesk
    /// The main window (embedded in another window with `--wid`); none with `--follow-window`.
    var main: MainWindow? { windows.main }
    /// The main window's top-level, or the followed window.
    var sourceWindow: WindowID { windows.window }
    var pip: PipController!
    /// The one frame router: the main window, PiP and its animation (handed to `pip`).
    let output: VideoOutput
    var frames: FrameDesk!
    let picture: PictureDesk
    /// What the capture side is told while no window shows video (`--idle-release`).
    let viewing: ViewingDesk
    /// `pipcam switch`, the switch key and the camera finder.
    let switches: SwitchDesk
    /// The camera's controls and what is remembered of each camera.
    let cameras: CameraDesk
    /// A file's playback: commands, keys, the windows' controls, MPRIS.
    var playing: PlaybackDesk!
    /// Where control requests arrive: the socket and the X selection.
    let doors: ControlDoors?

    /// - Parameters:
    ///   - source: a started source; the app runs it on a capture thread.
    ///   - share: a virtual camera every captured frame is written to (`--share`); the caller closes it.
    ///   - findCamera: given when `source` stands in for a camera: how to look for one, which
    ///     takes over once found.
    ///   - doors: where control requests arrive (nil: none; tests).
    public convenience init(
        display: XDisplay, source: FrameSource, options: SessionOptions, share: CameraShare? = nil, findCamera: CameraFinder.Access? = nil,
        doors: ControlDoors? = nil
    ) {
        let system = X11WindowSystem(loop: DisplayLoop(display: display))
        self.init(windowSystem: system, loop: system.loop, source: source, options: options, share: share, findCamera: findCamera, doors: doors)
    }

    /// The program on `windowSystem`, whose loop is `loop`: with the main window on X11, PiP
    /// alone elsewhere (Wayland).
    public init(
        windowSystem: any WindowSystem, loop: any EventLoop, source: FrameSource, options: SessionOptions, share: CameraShare? = nil,
        findCamera: CameraFinder.Access? = nil, doors: ControlDoors? = nil
    ) {
        self.doors = doors
        self.windowSystem = windowSystem
        self.loop = loop
        x11 = windowSystem as? X11WindowSystem
        windows = SourceWindowDesk(system: x11)
        output = VideoOutput()
        // The source the pump runs: the one given, until a switch hands over to another.
        let switcher = SourceSwitcher(source)
        var options = options
        if options.geometryFile == nil { options.geometryFile = GeometryMemory.filePath(name: options.control?.name) }
        self.options = options
        pump = FramePump(source: switcher, share: share)
        switches = SwitchDesk(
            loop: loop, switcher: switcher, wakeCapture: pump.mailbox.toCapture, policy: pump.policy, request: options.sourceRequest,
            findCamera: findCamera)
        viewing = ViewingDesk(loop: loop, idleReleaseSeconds: options.idleReleaseSeconds)
        var settings = PictureSettings(mirror: options.mirror, rotation: options.rotation, sourceWidth: source.frameWidth, sourceHeight: source.frameHeight)
        settings.framing = options.framing ?? .full
        picture = PictureDesk(
            settings: settings, output: output, pump: pump, switches: switches, shareFullFrame: options.shareFullFrame, loop: loop)
        cameras = CameraDesk(framingGiven: options.framing != nil)
    }

    /// Runs until the source ends, the main window is closed, a frame limit is reached or a signal
    /// arrives; returns the exit status.
    public func run() -> Int32 {
        do {
            try setUp()
        } catch {
            pump.stop()
            let failure = windows.startFailure(error, embedInto: options.embedInto)
            writeErrorLine(failure.line)
            return failure.status
        }
        pump.run()
        switches.start()
        // docs/BEHAVIOUR.md: a stats line at exit, also when the X server goes away.
        if options.printStats { XDisplay.lastWordsOnLostConnection = { [unowned self] in printStats(final: true) } }
        let code = loop.run()
        XDisplay.lastWordsOnLostConnection = nil
        if let broken = (loop as? WaylandLoop)?.connectionError { writeErrorLine("pipcam: \(broken)") }
        tearDown()
        return code
    }

    /// The followed window was destroyed: nothing is left to show the camera for.
    func followedWindowIsGone() {
        writeErrorLine(SourceWindowDesk.goneLine(sourceWindow))
        loop.stop(exitCode: 0)
    }

    private func setUp() throws {
        let shape = picture.contentSize
        let content = try windows.make(options: options, size: shape) { [unowned self] in followedWindowIsGone() }
        if let main { installMainWindow(main) }
        pip = try PipController(
            windowSystem: windowSystem, contentSource: content, corner: options.corner, size: options.size,
            frame: PipPlaceMemory(options).frame(aspect: Double(shape.width) / Double(shape.height), on: windowSystem.screen, near: sourceWindow),
            video: VideoSurfaceOptions(allowSharedMemory: options.allowSharedMemory, jpegDecodeThreads: options.jpegDecodeThreads),
            startsAutomaticallyWhenSourceHidden: true, automaticPip: options.automaticPip, output: output)
        pip.style = options.style
        let source = pump.sourceBeforeRun
        frames = FrameDesk(
            mailbox: pump.mailbox, output: output, notices: NoticeAssets(doubleSize: windowSystem.prefersDoubleSize), layout: pip.pixelLayout,
            status: SourceStatus(
                camera: source.cameraState, prefersMirror: source.mirroredByDefault, frames: source.expectedFrames, spec: source.spec,
                isLive: source.isLive),
            frameLimit: options.frameLimit, stats: FrameStats(now: .now()))
        if let main { attachMainWindow(main) }
        if windows.followedIsGone { followedWindowIsGone() }
        playing = PlaybackDesk(
            loop: loop, frames: frames, mailbox: pump.mailbox, pip: pip, main: { [unowned self] in main },
            sourceName: { [unowned self] in frames.status.name ?? options.sourceName }, carryOut: { [unowned self] in carryOut($0) })
        pip.overlay = frames.banner
        main?.bannerOverlay = frames.banner
        wirePicture()
        wirePip()
        wireFrames()
        main?.buttonEnabled = pip.isPossible
        loop.addReader(pump.mailbox.toDisplay.fd) { [unowned self] in pump.mailbox.toDisplay.drain() }
        loop.addReader(SignalPipe.shared.fd) { [unowned self] in loop.stop(exitCode: 0) }
        loop.everyIteration { [unowned self] in
            // Nothing spent while nothing shows (`ViewingPolicy`).
            viewing.follow(output: output, phase: pip.phase, capture: pump.policy, frames: frames, now: .now())
            main?.followMapWatchdog()
            frames.followSourceStatus()
            frames.presentWaitingFrame()
            checkEnding()
        }
        scheduleStats()
        followCamera()
        installControl()
        frames.announceFrames()
        if options.startInPip { pip.start() } else { main?.show() }
        if options.startPipWhenPossible && !options.startInPip {
            pip.startWhenPossible()
        }
        picture.noteShownSize()
        x11?.loop.display.flush()
    }

    /// What the frames and switches tell the rest of the program.
    private func wireFrames() {
        frames.willShow = { [unowned self] frame in picture.followContentSize(width: frame.width, height: frame.height) }
        frames.didPresent = { [unowned self] in
            switches.notePresented(sequence: $0)
            playing.framePresented()
        }
        frames.statusChanged = { [unowned self] in
            playing.statusChanged()
            switches.followEnd(ended: frames.status.playback?.ended == true) { [unowned self] in loop.stop(exitCode: 0) }
            followCamera()
            picture.apply()
        }
        frames.limitReached = { [unowned self] in loop.stop(exitCode: 0) }
        switches.current = { [unowned self] in (frames.status.spec, frames.status.name ?? options.sourceName) }
        switches.isShowingVideo = { [unowned self] in output.isShowingVideo }
        switches.holdFilesAtEnd = { [unowned self] hold in pump.mailbox.notePlayback { $0.holdsAtEnd = hold } }
        switches.onSwitched = { [unowned self] in
            frames.stats.noteSwitch()
            // Unseen, no frame comes to replace the one kept for redraws: given back now, it
            // lets the old source go (a camera closes) instead of when a window shows video.
            if viewing.framesUnseen { frames.releaseFrames() }
        }
    }

    private func checkEnding() {
        guard loop.exitCode == nil, let ending = frames.ending else { return }
        if case .failed(let error) = ending { writeErrorLine("pipcam: \(error)") }
        loop.stop(exitCode: ending.exitCode)
    }

    private func scheduleStats() {
        loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: 1_000_000_000)) { [unowned self] in
            frames.stats.updateRate(now: .now())
            if options.printStats { printStats() }
            scheduleStats()
        }
    }

    private func tearDown() {
        frames.releaseFrames()
        switches.stop()
        pump.stop()
        pip.tearDown()
        output.close()
        windows.destroy()
        x11?.loop.display.sync()
        if options.printStats { printStats(final: true) }
    }

    private func printStats(final: Bool = false) {
        if final { frames.stats.finishRate() }
        // The contract's line ends at cpu_ms_per_frame; benchmarks ask for the start-up time too.
        writeErrorLine(statsLine(final: final && options.statsWithFirstFrame))
    }

    /// The `--stats` line, with `shared=` while a virtual camera is fed.
    func statsLine(final: Bool = false) -> String {
        frames.stats.line(state: pip.phase.statusName, camera: frames.status.camera, final: final, shared: pump.share?.written).description
    }
}
