import CameraSource
import PipControl
import PipCore
import PipWindow
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

/// Turns parsed options into a running session: picks and starts the source, opens the display.
/// Every failure becomes one line on standard error and an exit status.
struct Launcher {
    let command: PipcamCommand

    func run() -> Int32 {
        if command.listCameras {
            SignalPipe.exitAtOnceOnSignal()
            return listCameras()
        }
        // `auto`: the first camera, as with no --source (over a config file's source).
        let spec = command.source?.spec
        guard let (display, displayName) = DisplayConnection.open() else { return 2 }
        defer { display.close() }
        var options = command.sessionOptions
        // The environment is read here, once; the library takes what it says as options.
        if environment("PIPCAM_NO_XSHM") == "1" { options.allowSharedMemory = false }
        options.statsWithFirstFrame = environment("PIPCAM_STATS_FIRST_FRAME") == "1"
        if let problem = checkWindows(&options, display: display) {
            writeErrorLine("pipcam: \(problem)")
            return 2
        }
        // Claimed before the source starts: a second pipcam must not take the camera from the first.
        let doors: ControlDoors
        do throws(InstanceClaim.Failure) {
            let claim = try InstanceClaim.claim(display: display, name: command.instanceName)
            doors = ControlDoors(claim: claim, socket: openSocket(display: displayName))
            options.control = claim
        } catch {
            let flag = command.instanceName.map { " --name \($0)" } ?? ""
            writeErrorLine(
                "pipcam: already running on \(InstanceName.describe(display: displayName, name: command.instanceName)) "
                    + "(use 'pipcam toggle|start|stop|status|quit\(flag)', or --name NAME for another instance)")
            return 1
        }
        // Untimed frames queue behind each other: one decoding thread leaves the other CPU to the
        // reader and the X server, which costs less CPU a frame than the split decode does here
        // (docs/PERFORMANCE.md, "Untimed playback").
        if command.untimed { options.jpegDecodeThreads = 1 }
        options.sourceRequest = request(display: display, options: options)
        let (source, standIn) = makeSource(spec, request: options.sourceRequest)
        // Read now, before the capture thread owns the source; `status` names it as given.
        options.sourceName = spec != nil ? command.source?.text ?? source.name : source.name
        let starter = SourceStarter(display: display, doors: doors, sourceName: options.sourceName)
        let outcome = starter.start(source, startInPip: options.startInPip)
        options.control = doors.claim
        switch outcome {
        case .started(let startInPip) where startInPip != options.startInPip:
            // Asked for PiP: the main window still comes first (closing PiP must not end pipcam, as
            // with --pip). Asked to stop a --pip start: the main window alone.
            options.startPipWhenPossible = startInPip
            options.startInPip = false
        case .started: break
        case .failed(let error): return fail(error)
        case .quit(let startInPip):
            // docs/BEHAVIOUR.md: a stats line at exit, here with nothing shown yet.
            if options.printStats {
                writeErrorLine(FrameStats(now: .now()).line(state: startInPip ? "starting" : "idle", camera: .waiting).description)
            }
            return 0
        }
        sayWhoHolds(source)
        var share: CameraShare?
        if let request = command.shareRequest {
            do throws(SourceError) {
                share = try openShare(request, for: source)
            } catch {
                // Nothing left half-open: the camera is let go before the error is told.
                source.stop()
                return fail(error)
            }
        }
        defer { share?.close() }
        // The virtual camera pipcam feeds is never taken for a camera plugged in.
        let finder = standIn ? CameraFinder.Access.anyRoute(excluding: CapturePolicy.camerasLeftOut(fed: share?.loopbackDevice)) : nil
        return PipcamApp(display: display, source: source, options: options, share: share, findCamera: finder, doors: doors).run()
    }

    /// The virtual camera for `--share`, in the camera's format and size (YUYV stays YUYV,
    /// anything else becomes I420). A camera not streaming yet (in use) is shared at the size
    /// asked for.
    private func openShare(_ request: ShareRequest, for source: FrameSource) throws(SourceError) -> CameraShare {
        let known = source.frameWidth > 0 && source.frameHeight > 0
        let asked = command.shareSizeRequested
        // The shared stream's sides are even (4:2:x chroma); an odd camera size is resampled.
        let width = (known ? source.frameWidth : asked.width) & ~1, height = (known ? source.frameHeight : asked.height) & ~1
        return try ShareTarget().open(
            request, format: ShareFrameConverter.outputFormat(for: source.frameFormat),
            width: max(width, 2), height: max(height, 2), frameRate: source.frameRate)
    }

    /// The user's source, else the first camera — through PipeWire when its daemon has one, so
    /// that no program reading cameras through PipeWire is locked out — else the test pattern
    /// (saying so) standing in until a camera is plugged in (`standIn`: the app runs a `CameraFinder`).
    private func makeSource(_ spec: SourceSpec?, request: SourceRequest) -> (source: FrameSource, standIn: Bool) {
        if let spec { return (SourceFactory.make(spec, request: request), false) }
        // The virtual camera named for --share is never read back as the camera.
        let shared = CapturePolicy.camerasLeftOut(fed: command.shareRequest?.device)
        if let node = PipeWireCameras.list().flatMap({ PipeWireCameras.usable($0, excluding: shared).first }) {
            return (PipeWireCamera(node: node.name, request: request), false)
        }
        if let path = CameraDiscovery().firstCaptureCameraPath(excluding: shared) { return (SourceFactory.make(.camera(path: path), request: request), false) }
        writeErrorLine("pipcam: no camera found; showing the built-in test source until one is plugged in")
        return (TestPatternSource(standsInForCamera: true), true)
    }

    /// Resolves `--wid` (or `$XEMBED`) and `--follow-window`, which must name existing windows.
    private func checkWindows(_ options: inout SessionOptions, display: XDisplay) -> String? {
        // tabbed exports $XEMBED to every shell in it: a pipcam told to follow a window is not embedded.
        let inherited = options.followWindow == nil ? environment("XEMBED") : nil
        if let text = command.wid?.text ?? inherited, !text.isEmpty {
            let flag = command.wid != nil ? "--wid" : "$XEMBED"
            guard let id = WindowIDValue<WidFlag>.parse(text) else { return "\(flag): '\(text)' is not a window id" }
            if let problem = unusable(id, named: "\(flag) \(text)", display: display) { return problem }
            options.embedInto = id
        }
        return options.followWindow.flatMap { unusable($0, named: "--follow-window \(command.followWindow?.text ?? "")", display: display) }
    }

    /// Why the window `id` (given as `name`) cannot be embedded into or followed, if it cannot.
    private func unusable(_ id: WindowID, named name: String, display: XDisplay) -> String? {
        guard display.isMapped(id) != nil else { return "\(name): no such window" }
        return id == display.root ? "\(name): is the root window" : nil
    }

    /// The camera opens in the mode for the window that shows it first (the main window, or PiP at
    /// its remembered size) instead of switching right after start.
    private func request(display: XDisplay, options: SessionOptions) -> SourceRequest {
        let parent = options.embedInto.flatMap { display.rootGeometry(of: $0) }.map { ($0.width, $0.height) }
        let size = options.firstDisplaySize(
            workArea: ScreenLayout(display: display).homeArea(display: display, near: options.followWindow), parentSize: parent,
            rememberedPip: GeometryMemory.filePath(name: command.instanceName).flatMap(GeometryMemory.load(from:)).map { ($0.width, $0.height) })
        let asked = CapturePolicy.startingSize(
            shown: (size.width, size.height), shared: command.shareRequest == nil ? nil : command.shareSizeRequested)
        return SourceRequest(displayWidth: asked.width, displayHeight: asked.height, paced: !command.untimed, loops: command.loop)
    }

    /// A camera another program holds at start: pipcam waits for it, and says who holds it and
    /// how to share it instead when a PipeWire daemon has cameras.
    private func sayWhoHolds(_ source: FrameSource) {
        guard source.cameraState == .interrupted(.inUse), let device = source.spec.devicePath else { return }
        let share = PipeWireCameras.list()?.isEmpty == false
            ? "; '--source pipewire' shares the camera with programs that read it through PipeWire" : ""
        writeErrorLine("pipcam: \(source.name): \(DeviceOpeners.inUseReason(of: device)); waiting for it\(share)")
    }

    /// The V4L2 devices (opened directly), then the PipeWire camera nodes.
    private func listCameras() -> Int32 {
        let devices = CameraDiscovery().cameras(), nodes = PipeWireCameras.list() ?? []
        let text = devices.isEmpty && !nodes.isEmpty ? "" : CameraDescription.listing(devices)
        return StandardOutput.writeLine(text + PipeWireCameras.listing(nodes)) ? 0 : 1
    }

    private func fail(_ error: Error) -> Int32 {
        writeErrorLine("pipcam: \(error)")
        return (error as? SourceError)?.exitCode ?? 2
    }
}

/// The value of environment variable `name`, nil when unset.
private func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

extension Launcher {
    /// The control socket for this display and name in the runtime directory; nil without one,
    /// or when it cannot be had (said in one line: commands then reach this pipcam through X).
    func openSocket(display: String) -> ControlSocketServer? {
        guard let directory = ControlSocketPlace.directory(runtimeDirectory: environment("XDG_RUNTIME_DIR")) else { return nil }
        let place = ControlSocketPlace(directory: directory, display: display, name: command.instanceName)
        do throws(ControlSocketServer.OpenFailure) {
            return try ControlSocketServer.open(place)
        } catch {
            let why = switch error {
            case .alreadyRunning: "another pipcam holds \(place.socketPath)"
            case .failed(let line): line
            }
            writeErrorLine("pipcam: \(why); control commands reach this pipcam through X only")
            return nil
        }
    }
}
