#if canImport(Glibc)
import Glibc
#endif
import CameraSource

/// Shows a frame source in the PiP window until the source ends, the window is closed, a frame
/// limit is reached or a signal arrives. Owns the X connection's thread for its whole run.
public final class PipSession {
    private let display: XDisplay
    private let source: FrameSource
    private let options: SessionOptions
    private let pump: FramePump
    private let signals = SignalPipe()
    private var window: FloatingWindow!
    private var presenter: Presenter!
    private var stats: FrameStats
    private var exitCode: Int32?
    private var nextStatsTick: MonotonicInstant

    /// - Parameter source: a started source; the session runs it on a capture thread.
    public init(display: XDisplay, source: FrameSource, options: SessionOptions) {
        self.display = display
        self.source = source
        self.options = options
        pump = FramePump(source: source)
        let now = MonotonicInstant.now()
        stats = FrameStats(now: now)
        nextStatsTick = now.advanced(byNanoseconds: 1_000_000_000)
    }

    /// Runs until the end; returns the process exit status.
    public func run() -> Int32 {
        do {
            try setUp()
        } catch {
            writeErrorLine("pipcam: \(error)")
            pump.stop()
            return 1
        }
        pump.run()
        while exitCode == nil {
            while display.pendingEvents > 0 { handle(display.nextEvent()) }
            presentWaitingFrame()
            checkEnding()
            if exitCode != nil { break }
            // XPending flushes our requests and reads what already arrived: an event Xlib has queued
            // would not wake poll() (the X fd is drained), so look before sleeping.
            if display.pendingEvents > 0 { continue }
            waitForActivity()
            tick(now: .now())
        }
        tearDown()
        return exitCode ?? 0
    }

    private var sourceAspect: (Int, Int) {
        let w = max(1, source.frameWidth), h = max(1, source.frameHeight)
        return options.rotation.swapsAxes ? Placement.aspectRatio(width: h, height: w) : Placement.aspectRatio(width: w, height: h)
    }

    private func setUp() throws {
        let wm = WindowManagerInfo(display: display)
        let aspect = sourceAspect
        let rect = Placement.initialRect(
            workArea: WindowManagerInfo.workArea(display: display), corner: options.corner,
            aspect: Double(aspect.0) / Double(aspect.1), size: options.size)
        window = FloatingWindow(display: display, rect: rect, aspect: aspect, wm: wm)
        let allowShm = options.allowSharedMemory && getenv("PIPCAM_NO_XSHM").map { String(cString: $0) } != "1"
        presenter = try Presenter(display: display, window: window.id, allowShm: allowShm)
        presenter.rotation = options.rotation
        presenter.mirror = options.mirror ?? source.mirroredByDefault
        presenter.resize(width: rect.width, height: rect.height)
        window.show()
        display.flush()
    }

    private func handle(_ event: WindowEvent) {
        if window.handlePointer(event) { return }
        switch event {
        case .configure(let w, let r, let synthetic) where w == window.id:
            if window.noteConfigure(r, synthetic: synthetic) { presenter.resize(width: r.width, height: r.height) }
        case .expose(let w, let count) where w == window.id && count == 0:
            presenter.redraw()
        case .shmCompletion(let segment):
            if let captured = presenter.completed(segment: segment) { noteShown(captured: captured) }
        case .clientMessage(let w, let type, let data) where w == window.id:
            if type == display[.WM_PROTOCOLS] && UInt(bitPattern: data.0) == display[.WM_DELETE_WINDOW] { exitCode = 0 }
        case .visibility(let w, _, let unobscured) where w == window.id && !unobscured:
            window.raiseIfObscured()
        default:
            break
        }
    }

    private func presentWaitingFrame() {
        guard presenter.canPresent, let frame = pump.mailbox.take() else { return }
        stats.noteTaken(sequence: frame.sequence)
        do {
            if case .completed(let captured) = try presenter.present(frame) { noteShown(captured: captured) }
        } catch {
            stats.noteCorrupt()
        }
        pump.mailbox.giveBack(frame.bufferIndex)
    }

    private func noteShown(captured: MonotonicInstant) {
        let now = MonotonicInstant.now()
        stats.noteShown(latencyNanoseconds: now > captured ? now.nanoseconds - captured.nanoseconds : 0)
        if let limit = options.frameLimit, stats.shown >= limit { exitCode = 0 }
    }

    private func checkEnding() {
        guard exitCode == nil, presenter.isIdle, let ending = pump.mailbox.ending else { return }
        switch ending {
        case .endOfStream:
            exitCode = 0
        case .failed(let error):
            writeErrorLine("pipcam: \(error)")
            exitCode = error.exitCode
        }
    }

    private func waitForActivity() {
        var fds = (
            pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: pump.mailbox.toDisplay.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.fd, events: Int16(POLLIN), revents: 0)
        )
        let now = MonotonicInstant.now()
        let timeout = nextStatsTick > now ? Int32((nextStatsTick.nanoseconds - now.nanoseconds) / 1_000_000 + 1) : 0
        _ = withUnsafeMutableBytes(of: &fds) { raw in
            poll(raw.baseAddress!.assumingMemoryBound(to: pollfd.self), 3, timeout)
        }
        if fds.1.revents != 0 { pump.mailbox.toDisplay.drain() }
        if fds.2.revents != 0 { exitCode = 0 }
    }

    private func tick(now: MonotonicInstant) {
        guard now >= nextStatsTick else { return }
        nextStatsTick = now.advanced(byNanoseconds: 1_000_000_000)
        stats.updateRate(now: now)
        if options.printStats { writeErrorLine(stats.line(state: "active", camera: cameraState)) }
    }

    private var cameraState: String { "streaming" }

    private func tearDown() {
        pump.stop()
        presenter?.close()
        if let window { display.destroy(window.id) }
        display.sync()
        if options.printStats {
            stats.finishRate(now: .now())
            writeErrorLine(stats.line(state: "active", camera: cameraState))
        }
    }
}
