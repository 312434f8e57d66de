import CameraSource
import PipControl
import PipCore
import PipWindow
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

/// Starts the source on a thread of its own while this thread answers `pipcam
/// toggle|start|stop|status|quit`: opening a FIFO waits for its writer and a camera can take a
/// second, and meanwhile the instance has claimed its name, so a control command must not time out.
///
/// `status` reports the instance as not showing frames yet (`camera` `waiting`, no windows);
/// `start`, `stop` and `toggle` decide whether PiP starts once the source has; `quit`, SIGINT and
/// SIGTERM end pipcam.
struct SourceStarter {
    enum Outcome {
        /// The source started; whether PiP is to start now (a command may have changed `--pip`'s choice).
        case started(startInPip: Bool)
        case failed(Error)
        /// `pipcam quit`, SIGINT or SIGTERM came first; whether PiP was to start.
        case quit(startInPip: Bool)
    }

    /// The loop control requests are answered on meanwhile (the window system's, not run yet).
    let loop: any EventLoop
    /// Where control requests arrive meanwhile.
    let doors: ControlDoors
    let sourceName: String
    /// The window system's names for `status` (`WindowSystem.names`).
    let names: (system: String, pipRole: String)

    func start(_ source: FrameSource, startInPip: Bool) -> Outcome {
        let job = StartJob(source: source)
        job.run()
        var wantsPip = startInPip
        let status = { [sourceName, names] in
            let none = Rect(x: 0, y: 0, width: 0, height: 0)
            var status = InstanceStatus(
                state: wantsPip ? "starting" : "idle", source: sourceName, camera: CameraState.waiting.description,
                shown: 0, dropped: 0, fps: 0, pip: none, main: none, mainVisible: false)
            (status.windowSystem, status.pipRole) = names
            return status
        }
        doors.install(on: loop, status: status) { request, reply in
            switch request {
            case .pip(.start): wantsPip = true
            case .pip(.stop): wantsPip = false
            case .pip(.toggle): wantsPip.toggle()
            case .quit: self.loop.stop(exitCode: 1)
            case .status: return reply(.done(status().json.encoded))
            case .switchSource: return reply(.failed("pipcam: the source is still starting; switch once it shows frames"))
            case .camera, .playback: return reply(.failed("pipcam: the source is still starting; ask again once it shows frames"))
            }
            reply(.done(""))
        }
        loop.addReader(job.done.fd) { loop.stop(exitCode: 0) }
        loop.addReader(SignalPipe.shared.fd) { loop.stop(exitCode: 1) }
        let code = loop.run()
        doors.uninstall()
        if code != 0 { return .quit(startInPip: wantsPip) }
        if let error = job.error { return .failed(error) }
        return .started(startInPip: wantsPip)
    }
}

/// The source and what its `start()` threw, handed from the starting thread back to the caller.
private final class StartJob: @unchecked Sendable {
    // Owned by the starting thread until `done` is signalled, by the caller after.
    private let source: FrameSource
    private let failure = Locked<(any Error)?>(nil)
    /// Signalled when `start()` has returned.
    let done = WakeSignal()

    init(source: FrameSource) { self.source = source }

    var error: (any Error)? { failure.withLock { $0 } }

    func run() {
        ThreadSpawn.start(detached: true) { [self] in
            do {
                try source.start()
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
    }
}
