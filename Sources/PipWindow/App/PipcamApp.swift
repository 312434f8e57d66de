#if canImport(Glibc)
import Glibc
#endif
import CameraSource
import PipCore

/// The pipcam program: a main window with the camera, Picture in Picture out of it, frames from one
/// source routed to whichever window shows video. Runs on the thread that calls `run()`.
public final class PipcamApp {
    let loop: DisplayLoop
    private let source: FrameSource
    let options: SessionOptions
    private let pump: FramePump
    /// A camera's frames go on while no window shows video; a file's wait (read before the
    /// capture thread owns the source).
    private let sourceIsLive: Bool
    private let signals = SignalPipe.shared
    /// The main window (embedded in another window with `--wid`); none with `--follow-window`.
    var main: MainWindow?
    /// The window PiP grows out of and restores: the main window's top-level, or the followed window.
    var sourceWindow: WindowID = 0
    var pip: PipController!
    var stats: FrameStats
    /// The newest frame, kept (its buffer not yet given back) so any window can be redrawn at a new
    /// size at once — the animation proxy on every step, the PiP window on hand-over.
    private var held: VideoFrame?
    /// PiP is to start once it is possible (`SessionOptions.startPipWhenPossible`).
    private var pipWanted = false
    /// The source's last status as the display acted on it.
    var status = SourceStatus(camera: .streaming, prefersMirror: false)
    /// The picture's size after rotation, as the PiP window's aspect ratio was last set from it.
    private var contentSize = (width: 0, height: 0)
    private var notices: NoticeAssets!
    /// Mirroring chosen with the PiP window's mirror control (wins over the option and the source).
    private var mirrorOverride: Bool?
    /// The picture's rotation (`--rotate`, then `r` in the PiP window).
    private var rotation: Rotation = .deg0
    /// Where the PiP's place is remembered between runs (one file per `--name`); tests point it elsewhere.
    var geometryFile: () -> String?

    /// - Parameter source: a started source; the app runs it on a capture thread.
    public init(display: XDisplay, source: FrameSource, options: SessionOptions) {
        loop = DisplayLoop(display: display)
        self.source = source
        self.options = options
        let name = options.control?.name
        geometryFile = { GeometryMemory.filePath(name: name) }
        sourceIsLive = source.isLive
        pump = FramePump(source: source)
        stats = FrameStats(now: .now())
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
        // docs/BEHAVIOUR.md: a stats line at exit, also when the X server goes away.
        if options.printStats { XDisplay.lastWordsOnLostConnection = { [unowned self] in printFinalStats() } }
        let code = loop.run()
        XDisplay.lastWordsOnLostConnection = nil
        tearDown()
        return code
    }

    /// The followed window was destroyed: nothing is left to show the camera for.
    private func followedWindowIsGone() {
        writeErrorLine(Self.goneLine(sourceWindow))
        loop.stop(exitCode: 0)
    }

    private static func goneLine(_ w: WindowID) -> String { "pipcam: window 0x\(String(w, radix: 16)) is gone" }

    private var allowShm: Bool { options.allowSharedMemory }

    private func setUp() throws {
        let display = loop.display
        rotation = options.rotation
        // A camera another application holds at start has no size yet: lay out for a large 16:9
        // picture (PiP reshapes when the first frame says otherwise), not for a 1×1 one.
        let known = source.frameWidth > 0 && source.frameHeight > 0
        let rotated = options.rotation.rotatedSize(width: known ? source.frameWidth : 1920, height: known ? source.frameHeight : 1080)
        let content: PipContentSource
        if let followed = options.followWindow {
            // An id from `xwininfo -tree` or `xdotool search` may name a window inside the
            // application's, or the window manager's frame around it: minimizing shows on the
            // application window, so that is what is watched, and PiP grows out of the one named.
            sourceWindow = display.applicationWindow(of: followed)
            let inside = sourceWindow != followed && display.topLevel(of: followed) == sourceWindow
            content = PipContentSource(
                sourceWindow: sourceWindow, preferredContentSize: (rotated.width, rotated.height),
                animationWindow: inside ? followed : nil)
            loop.register(sourceWindow) { [unowned self] event in
                if case .destroyed = event { followedWindowIsGone() }
            }
        } else {
            let window = try MainWindow(
                display: display, sourceSize: (rotated.width, rotated.height),
                workArea: ScreenLayout(display: display).homeArea(display: display, near: nil), parent: options.embedInto,
                allowSharedMemory: allowShm, jpegDecodeThreads: options.jpegDecodeThreads)
            main = window
            sourceWindow = options.embedInto.map { display.topLevel(of: $0) } ?? window.id
            content = PipContentSource(
                sourceWindow: sourceWindow, preferredContentSize: (rotated.width, rotated.height), animationWindow: window.id)
            installMainWindow(window)
        }
        pip = try PipController(
            loop: loop, contentSource: content, corner: options.corner, size: options.size,
            frame: rememberedFrame(aspect: Double(rotated.width) / Double(rotated.height)), allowSharedMemory: allowShm,
            startsAutomaticallyWhenSourceHidden: true, jpegDecodeThreads: options.jpegDecodeThreads)
        pip.style = options.style
        // Gone before the watching began (while the camera started): no DestroyNotify will come.
        if options.followWindow != nil && display.isMapped(sourceWindow) == nil { followedWindowIsGone() }
        contentSize = (rotated.width, rotated.height)
        notices = NoticeAssets(doubleSize: display.prefersDoubleSize)
        installBanner()
        status = SourceStatus(camera: source.cameraState, prefersMirror: source.mirroredByDefault, frames: source.expectedFrames)
        applyPicture()
        pip.delegate = self
        pip.onPossibleChanged = { [unowned self] possible in
            main?.buttonEnabled = possible
            if possible && pipWanted {
                pipWanted = false
                pip.start()
            }
        }
        pip.onNeedsFrame = { [unowned self] in redrawHeldFrame() }
        pip.onFrameShown = { [unowned self] in noteShown(captured: $0) }
        pip.onMirrorToggle = { [unowned self] in
            mirrorOverride = !(mirrorOverride ?? options.mirror ?? status.prefersMirror)
            applyPicture()
            redrawHeldFrame()
        }
        pip.onRotate = { [unowned self] in
            rotation = Rotation(degrees: (rotation.degrees + 90) % 360) ?? .deg0
            applyPicture()
            if let frame = held { followContentSize(of: frame) }
            redrawHeldFrame()
        }
        pip.onFrameChanged = { [unowned self] rect in noteDisplaySize(rect) }
        // As when the main window is destroyed: nothing is left to show PiP in.
        pip.onWindowDestroyed = { [unowned self] in loop.stop(exitCode: 0) }
        pip.onFrameSettled = { [unowned self] rect in
            // A run given --size or --corner sets the memory aside: it neither reads nor replaces it.
            guard options.remembersGeometry, let path = geometryFile() else { return }
            GeometryMemory(rect: rect, in: ScreenLayout(display: loop.display)).save(to: path)
        }
        main?.buttonEnabled = pip.isPossible
        loop.observeOtherEvents { [unowned self] event in
            // PiP's own completions go to the controller (onFrameShown); the main window's come here.
            guard case .shmCompletion(let segment) = event, let main else { return }
            let result = main.presenter.completed(segment: segment)
            if let captured = result.capturedAt { noteShown(captured: captured) }
            if result.mine && main.presenter.owesRedraw { main.redraw() }
        }
        loop.addReader(pump.mailbox.toDisplay.fd) { [unowned self] in pump.mailbox.toDisplay.drain() }
        loop.addReader(signals.fd) { [unowned self] in loop.stop(exitCode: 0) }
        loop.everyIteration { [unowned self] in
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
        for second in 1...5 {
            loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: Int64(second) * 1_000_000_000)) { [unowned self] in
                main?.showAgainIfUnmapped()
            }
        }
        display.flush()
    }

    private func installMainWindow(_ window: MainWindow) {
        window.redrawVideo = { [unowned self] in redrawHeldFrame() }
        loop.register(window.id) { [unowned self] event in
            if case .destroyed = event {
                loop.stop(exitCode: 0)  // the embedder destroyed its window, and ours with it
                return
            }
            // An embedder ends XEmbed by handing its client to the root window (the spec's
            // "Embedding life cycle"): the session ends as when it destroys its window.
            if options.embedInto != nil, case .reparented(_, let parent) = event, parent == loop.display.root {
                loop.stop(exitCode: 0)
                return
            }
            let before = window.size
            let intent = window.handle(event)
            // Resized, not just moved: every move would wake the capture thread for nothing.
            if window.size != before { noteMainDisplaySize() }
            switch intent {
            case .startPip: pip.start()
            case .returnFromPip: pip.stop()
            case .togglePip: perform(.toggle)  // as the hotkey: a second press turns a PiP on its way up back
            case .close: loop.stop(exitCode: 0)
            case nil: break
            }
        }
        if let parent = options.embedInto {
            // Follow the embedder's size; never select button events on a window we do not own.
            _ = loop.display.watch(parent, [.structureNotify])
            loop.register(parent) { event in
                // Only the server's own ConfigureNotify: any client can send a synthetic one.
                if case .configure(_, let r, false) = event { window.fitParent(width: r.width, height: r.height) }
            }
        }
    }

    // MARK: frames

    private enum Target { case pip, main }

    private var target: Target? {
        if pip.isShowingVideo { return .pip }
        if let main, main.isMapped, main.content == .video { return .main }
        return nil
    }

    private func canPresent(_ t: Target) -> Bool { t == .pip ? pip.canPresent : main?.presenter.canPresent == true }

    private func present(_ frame: VideoFrame, to t: Target, counted: Bool) throws -> Presenter.Outcome {
        guard t == .main, let main else { return try pip.present(frame, counted: counted) }
        return try main.presenter.present(frame, counted: counted)
    }

    private func presentWaitingFrame() {
        let t = target
        if let t, !canPresent(t) { return }
        // No window shows video now (the main window not mapped yet, PiP about to start or the
        // main window about to come back): a file's frame waits for one, so every frame is shown.
        if t == nil && !sourceIsLive { return }
        guard let frame = pump.mailbox.take() else { return }
        stats.noteTaken(sequence: frame.sequence)
        followContentSize(of: frame)
        if let old = held { pump.mailbox.giveBack(old.bufferIndex) }
        held = frame
        guard let t else { return }
        do {
            if case .completed(let captured?) = try present(frame, to: t, counted: true) { noteShown(captured: captured) }
        } catch {
            stats.noteCorrupt()
        }
    }

    /// Draws the held frame (or the camera's notice) again; when the window's images are all with
    /// the server, its presenter owes the redraw, done after the next completion.
    private func redrawHeldFrame() {
        guard let t = target else { return }
        if let notice = notices.notice(for: status.camera) {
            drawNotice(notice, on: t)
        } else if let frame = held {
            _ = try? present(frame, to: t, counted: false)
        }
    }

    // MARK: the source's state

    /// Acts on what the capture side reported: frames it needs back, interruptions, mirroring.
    private func followSourceStatus() {
        if pump.mailbox.takeReleaseRequest() { releaseFrames() }
        let now = pump.mailbox.status
        guard now != status else { return }
        let wasInterrupted = notices.notice(for: status.camera) != nil
        if now.frames != status.frames { expect(now.frames) }
        status = now
        applyPicture()
        if notices.notice(for: now.camera) != nil {
            // Say what happened instead of leaving the last frame frozen on screen.
            releaseFrames()
            redrawHeldFrame()
        } else if wasInterrupted {
            redrawHeldFrame()
        }
    }

    /// Tells the windows what frames come (a window already showing frames gets ready for them).
    private func expect(_ frames: ExpectedFrames?) {
        guard let frames else { return }
        pip.expectedFrames = frames
        main?.presenter.expectedFrames = frames
    }

    /// Gives back every frame the display holds (the newest one, kept for redraws, included).
    private func releaseFrames() {
        if let frame = held { pump.mailbox.giveBack(frame.bufferIndex) }
        held = nil
        if let frame = pump.mailbox.take() { pump.mailbox.giveBack(frame.bufferIndex) }
    }

    private func applyPicture() {
        let mirror = mirrorOverride ?? options.mirror ?? status.prefersMirror
        pip.setPicture(mirror: mirror, rotation: rotation)
        main?.presenter.mirror = mirror
        main?.presenter.rotation = rotation
    }

    /// The PiP frame remembered from the last run, fitted to this source's shape: on its monitor,
    /// else on the source window's.
    private func rememberedFrame(aspect: Double) -> Rect? {
        guard options.remembersGeometry, let path = geometryFile(), let memory = GeometryMemory.load(from: path)
        else { return nil }
        let layout = ScreenLayout(display: loop.display)
        return memory.fitted(toAspect: aspect).rect(
            in: layout, otherwise: layout.homeArea(display: loop.display, near: sourceWindow))
    }

    /// A source whose picture changes shape (another camera mode, a camera plugged in) reshapes PiP.
    private func followContentSize(of frame: VideoFrame) {
        guard frame.width > 0, frame.height > 0 else { return }
        let rotated = rotation.rotatedSize(width: frame.width, height: frame.height)
        guard rotated.width != contentSize.width || rotated.height != contentSize.height else { return }
        contentSize = (rotated.width, rotated.height)
        // The same windows (with --follow-window, maybe a view inside the application's): only the shape changes.
        pip.contentSource = PipContentSource(
            sourceWindow: sourceWindow, preferredContentSize: (rotated.width, rotated.height),
            animationWindow: pip.contentSource?.animationWindow ?? main?.id)
    }

    /// While pipcam waits for a camera, a line over the test pattern says so.
    private func installBanner() {
        let compositor = Compositor(layout: pip.pixelLayout)
        let banner = notices.noCamera
        let draw: (UnsafeMutableRawPointer, Int, Int, Int) -> Void = { [unowned self] pixels, stride, w, h in
            guard status.camera == .waiting else { return }
            let y = h - banner.height - notices.controlsClearance  // above the PiP controls' bottom row
            compositor.dim(x: 0, y: y - 6, w: w, h: banner.height + 12, amount: 0.6, into: pixels, stride: stride, width: w, height: h)
            compositor.draw(banner, at: (w - banner.width) / 2, y: y, into: pixels, stride: stride, width: w, height: h)
        }
        pip.overlay = draw
        main?.bannerOverlay = draw
    }

    private func drawNotice(_ notice: (icon: AlphaMask, text: AlphaMask), on t: Target) {
        let painter = NoticePainter(compositor: Compositor(layout: pip.pixelLayout))
        let draw: (UnsafeMutableRawPointer, Int, Int, Int) -> Void = { pixels, stride, w, h in
            painter.paint(icon: notice.icon, lines: [notice.text], into: pixels, stride: stride, width: w, height: h)
        }
        if t == .pip { pip.present(drawing: draw) } else { main?.presenter.present(drawing: draw) }
    }

    /// Tells the source the size PiP or the main window shows the picture at (`rect`'s, unturned),
    /// so a camera can switch to a mode that suits it (`FrameSource.displaySizeChanged`).
    private func noteDisplaySize(_ rect: Rect) {
        let size = rotation.rotatedSize(width: rect.width, height: rect.height)
        pump.mailbox.noteDisplaySize(width: size.width, height: size.height)
    }

    /// While the main window shows the video, tells the source the size it shows the picture at.
    private func noteMainDisplaySize() {
        guard let main, main.wasShown, main.content == .video, !pip.isShowingVideo,
            contentSize.width > 0, contentSize.height > 0
        else { return }
        let (w, h) = (Double(contentSize.width), Double(contentSize.height))
        let fit = min(Double(main.size.width) / w, Double(main.size.height) / h)
        noteDisplaySize(Rect(x: 0, y: 0, width: max(1, Int(w * fit)), height: max(1, Int(h * fit))))
    }

    private func noteShown(captured: MonotonicInstant) {
        let now = MonotonicInstant.now()
        stats.noteShown(latencyNanoseconds: now > captured ? now.nanoseconds - captured.nanoseconds : 0, at: now)
        if let limit = options.frameLimit, stats.shown >= limit { loop.stop(exitCode: 0) }
    }

    private func checkEnding() {
        guard loop.exitCode == nil, main?.presenter.isIdle ?? true, pip.isIdle, let ending = pump.mailbox.ending else { return }
        switch ending {
        case .endOfStream:
            loop.stop(exitCode: 0)
        case .failed(let error):
            writeErrorLine("pipcam: \(error)")
            loop.stop(exitCode: error.exitCode)
        }
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
            if options.printStats { writeErrorLine(stats.line(state: stateName, camera: status.camera.description)) }
            scheduleStats()
        }
    }

    private func tearDown() {
        if let frame = held { pump.mailbox.giveBack(frame.bufferIndex) }
        held = nil
        pump.stop()
        pip.tearDown()
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
        writeErrorLine(stats.line(state: stateName, camera: status.camera.description, final: withFirstFrame))
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
