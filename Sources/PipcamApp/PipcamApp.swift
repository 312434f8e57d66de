#if canImport(Glibc)
import Glibc
#endif
import CameraSource
import PipCore
import PipWindow

/// The pipcam program: a main window with the camera, Picture in Picture out of it, frames from one
/// source routed to whichever window shows video. Runs on the thread that calls `run()`.
public final class PipcamApp {
    let loop: DisplayLoop
    /// The source the pump runs: the one given, until `pipcam switch` hands over to another.
    let switcher: SourceSwitcher
    private var source: FrameSource { switcher }
    let options: SessionOptions
    let pump: FramePump
    private let signals = SignalPipe.shared
    /// The main window (embedded in another window with `--wid`); none with `--follow-window`.
    var main: MainWindow?
    /// The window PiP grows out of and restores: the main window's top-level, or the followed window.
    var sourceWindow: WindowID = 0
    var pip: PipController!
    /// The one frame router: the main window, PiP and its animation (handed to `pip`).
    let output: VideoOutput
    var stats: FrameStats
    /// The newest frame, kept (its buffer not yet given back) so any window can be redrawn at a new
    /// size at once — the animation proxy on every step, the PiP window on hand-over.
    var held: VideoFrame?
    /// PiP is to start once it is possible (`SessionOptions.startPipWhenPossible`).
    var pipWanted = false
    /// The source's last status as the display acted on it.
    var status = SourceStatus(camera: .streaming, prefersMirror: false)
    /// The picture's size after rotation, as the PiP window's aspect ratio was last set from it.
    var contentSize = (width: 0, height: 0)
    var notices: NoticeAssets!
    /// Mirroring chosen with the PiP window's mirror control (wins over the option and the source).
    var mirrorOverride: Bool?
    /// The picture's rotation (`--rotate`, then `r` in the PiP window).
    var rotation: Rotation = .deg0
    /// What the capture side is told while no window shows video (`--idle-release`).
    var viewing: ViewingPolicy
    /// Wakes the loop at `viewing`'s next deadline (frames no longer do once unseen).
    lazy var viewingWake = DeadlineWake(loop: loop)
    /// Wakes the loop when the main window's `MapWatchdog` is due.
    lazy var mainMapWake = DeadlineWake(loop: loop) { [unowned self] in main?.remapIfDropped(now: .now()) }
    /// `pipcam switch`, the switch key and the camera finder.
    let switches: SwitchDesk
    /// Where the PiP's place is remembered between runs (one file per `--name`); tests point it elsewhere.
    var geometryFile: () -> String?

    /// - Parameters:
    ///   - source: a started source; the app runs it on a capture thread.
    ///   - share: a virtual camera every captured frame is written to (`--share`); the caller closes it.
    ///   - findCamera: given when `source` stands in for a camera: how to look for one, which
    ///     takes over once found.
    public init(
        display: XDisplay, source: FrameSource, options: SessionOptions, share: LoopbackShare? = nil, findCamera: CameraFinder.Access? = nil
    ) {
        loop = DisplayLoop(display: display)
        output = VideoOutput(loop: loop)
        switcher = SourceSwitcher(source)
        self.options = options
        let name = options.control?.name
        geometryFile = { GeometryMemory.filePath(name: name) }
        pump = FramePump(source: switcher, share: share)
        switches = SwitchDesk(
            loop: loop, switcher: switcher, wakeCapture: pump.mailbox.toCapture, sharing: share?.device, request: options.sourceRequest,
            findCamera: findCamera)
        stats = FrameStats(now: .now())
        viewing = ViewingPolicy(configuration: .init(idleReleaseSeconds: options.idleReleaseSeconds))
    }

    /// Runs until the source ends, the main window is closed, a frame limit is reached or a signal
    /// arrives; returns the exit status.
    public func run() -> Int32 {
        do {
            try setUp()
        } catch {
            pump.stop()
            let cannotEmbed: Bool
            if case .cannotEmbed? = error as? DisplayError { cannotEmbed = true } else { cannotEmbed = false }
            // Gone while the source started: as a followed window that goes. Else a window that
            // cannot hold a view (InputOnly, another screen) is a bad input.
            if cannotEmbed, let parent = options.embedInto, loop.display.isMapped(parent) == nil {
                writeErrorLine(Self.goneLine(parent))
                return 0
            }
            writeErrorLine("pipcam: \(error)")
            return cannotEmbed ? 2 : 1
        }
        pump.run()
        switches.start()
        // docs/BEHAVIOUR.md: a stats line at exit, also when the X server goes away.
        if options.printStats { XDisplay.lastWordsOnLostConnection = { [unowned self] in printFinalStats() } }
        let code = loop.run()
        XDisplay.lastWordsOnLostConnection = nil
        tearDown()
        return code
    }

    /// The followed window was destroyed: nothing is left to show the camera for.
    func followedWindowIsGone() {
        writeErrorLine(Self.goneLine(sourceWindow))
        loop.stop(exitCode: 0)
    }

    private static func goneLine(_ w: WindowID) -> String { "pipcam: window 0x\(String(w.rawValue, radix: 16)) is gone" }

    var allowShm: Bool { options.allowSharedMemory }

    private func setUp() throws {
        let display = loop.display
        rotation = options.rotation
        // A camera another application holds at start has no size yet: lay out for a large 16:9
        // picture (PiP reshapes when the first frame says otherwise), not for a 1×1 one.
        let known = source.frameWidth > 0 && source.frameHeight > 0
        let rotated = options.rotation.rotatedSize(width: known ? source.frameWidth : 1920, height: known ? source.frameHeight : 1080)
        let content = try makeSourceWindow(size: rotated)
        pip = try PipController(
            loop: loop, contentSource: content, corner: options.corner, size: options.size,
            frame: rememberedFrame(aspect: Double(rotated.width) / Double(rotated.height)), allowSharedMemory: allowShm,
            startsAutomaticallyWhenSourceHidden: true, automaticPip: options.automaticPip,
            jpegDecodeThreads: options.jpegDecodeThreads, output: output)
        pip.style = options.style
        if let main {
            output.attach(
                main.presenter, as: .main,
                // Covered by other windows, a camera's picture is not drawn (docs/BEHAVIOUR.md, "When
                // nothing shows the camera"); a file's frames still are, every one.
                isShowing: { [unowned self] in main.isMapped && main.content == .video && !(main.isFullyObscured && status.isLive) },
                redraw: { main.redraw() })
        }
        // Gone before the watching began (while the camera started): no DestroyNotify will come.
        if options.followWindow != nil && display.isMapped(sourceWindow) == nil { followedWindowIsGone() }
        contentSize = (rotated.width, rotated.height)
        notices = NoticeAssets(doubleSize: display.prefersDoubleSize)
        installBanner()
        status = SourceStatus(
            camera: source.cameraState, prefersMirror: source.mirroredByDefault, frames: source.expectedFrames, isLive: source.isLive)
        applyPicture()
        wirePip()
        main?.buttonEnabled = pip.isPossible
        loop.addReader(pump.mailbox.toDisplay.fd) { [unowned self] in pump.mailbox.toDisplay.drain() }
        loop.addReader(signals.fd) { [unowned self] in loop.stop(exitCode: 0) }
        switches.currentName = { [unowned self] in status.name ?? options.sourceName }
        switches.isShowingVideo = { [unowned self] in output.isShowingVideo }
        switches.onSwitched = { [unowned self] in
            stats.noteSwitch()
            // Unseen, no frame comes to replace the one kept for redraws: given back now, it
            // lets the old source go (a camera closes) instead of when a window shows video.
            if viewing.framesUnseen { releaseFrames() }
        }
        loop.everyIteration { [unowned self] in
            followIdleness(now: .now())
            mainMapWake.set(main?.mapWatchdog.nextDeadline)
            followSourceStatus()
            presentWaitingFrame()
            checkEnding()
        }
        scheduleStats()
        installControl()
        expect(status.frames)
        if options.startInPip { pip.start() } else { main?.show() }
        if options.startPipWhenPossible && !options.startInPip {
            if pip.isPossible { pip.start() } else { pipWanted = true }
        }
        noteMainDisplaySize()
        display.flush()
    }


    // MARK: stats and shutdown

    var stateName: String {
        switch pip.phase {
        case .idle: return "idle"
        case .starting: return "starting"
        case .active: return "active"
        case .stopping, .restoring: return "stopping"
        }
    }

    private func scheduleStats() {
        loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: 1_000_000_000)) { [unowned self] in
            stats.updateRate(now: .now())
            if options.printStats { writeErrorLine(statsLine()) }
            scheduleStats()
        }
    }

    private func tearDown() {
        if let frame = held { pump.mailbox.giveBack(frame.bufferIndex) }
        held = nil
        switches.stop()
        pump.stop()
        pip.tearDown()
        output.close()
        if let main {
            main.presenter.close()
            loop.display.destroy(main.id)
        }
        loop.display.sync()
        if options.printStats { printFinalStats() }
    }

    private func printFinalStats() {
        stats.finishRate()
        // The contract's line ends at cpu_ms_per_frame; benchmarks ask for the start-up time too.
        let withFirstFrame = options.statsWithFirstFrame
        writeErrorLine(statsLine(final: withFirstFrame))
    }

    /// The `--stats` line, with `shared=` while a virtual camera is fed.
    func statsLine(final: Bool = false) -> String {
        stats.line(state: stateName, camera: status.camera, final: final, shared: pump.share?.written).description
    }
}

extension PipcamApp: PipControllerDelegate {
    public func pipControllerDidStart(_ controller: PipController) {
        // Also when hidden (minimized, on another desktop): shown again while PiP is up, it says
        // where the video went. Not for a window never shown (`--pip`): it would only take memory.
        if let main, main.wasShown { main.content = .placeholder }
        noteDisplaySize(controller.pipFrame)
    }

    public func pipController(_ controller: PipController, restoreUserInterfaceWithCompletion completion: @escaping () -> Void) {
        if let main {
            main.content = .video
            if !main.isMapped { main.show() }
        }
        completion()
    }

    public func pipControllerDidStop(_ controller: PipController) {
        main?.content = .video
        noteMainDisplaySize()
        // Closing a PiP that was never anything but PiP (`--pip`) ends pipcam, like closing its only window.
        if let main, !main.wasShown { loop.stop(exitCode: 0) }
    }
}
