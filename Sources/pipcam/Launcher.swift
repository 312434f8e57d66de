import CameraSource
import PipControl
import PipCore
import PipWayland
import PipWindow
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

/// Turns parsed options into a running session: picks the window system and opens it, starts the
/// source. Every failure becomes one line on standard error and an exit status.
struct Launcher {
    let command: PipcamCommand

    func run() -> Int32 {
        if command.listCameras {
            SignalPipe.exitAtOnceOnSignal()
            return listCameras()
        }
        switch WindowSystemRoute.choose(command.windowSystem, needsX11: WindowSystemRoute.x11Only(command, environment: environment)) {
        case .refused(let line):
            writeErrorLine("pipcam: \(line)")
            return 2
        case .x11(let note):
            if let note { writeErrorLine("pipcam: \(note)") }
            return runOnX11()
        case .wayland(let display): return runOnWayland(display: display)
        }
    }

    /// The options as the command line, config file and environment give them.
    private var givenOptions: SessionOptions {
        var options = command.sessionOptions
        // The environment is read here, once; the library takes what it says as options.
        if environment("PIPCAM_NO_XSHM") == "1" { options.allowSharedMemory = false }
        options.statsWithFirstFrame = environment("PIPCAM_STATS_FIRST_FRAME") == "1"
        return options
    }

    private func runOnX11() -> Int32 {
        guard let (display, displayName) = DisplayConnection.open() else { return 2 }
        defer { display.close() }
        var options = givenOptions
        if let problem = checkWindows(&options, display: display) {
            writeErrorLine("pipcam: \(problem)")
            return 2
        }
        // Claimed before the source starts: a second pipcam must not take the camera from the first.
        let doors: ControlDoors
        do throws(InstanceClaim.Failure) {
            let claim = try InstanceClaim.claim(display: display, name: command.instanceName)
            doors = ControlDoors(claim: claim, socket: openSocketBesideX(display: displayName))
            options.control = claim
        } catch {
            writeErrorLine(alreadyRunningLine(display: displayName))
            return 1
        }
        let parent = options.embedInto.flatMap { display.rootGeometry(of: $0) }.map { ($0.width, $0.height) }
        let workArea = ScreenLayout(display: display).homeArea(display: display, near: options.followWindow)
        return runSession(
            options: options, workArea: workArea, parentSize: parent, doors: doors, names: ("x11", "window"), loop: { DisplayLoop(display: display) }
        ) {
            PipcamApp(display: display, source: $0, options: $1, share: $2, findCamera: $3, doors: doors)
        }
    }

    /// PiP alone, as an overlay-layer surface of the compositor at `display` (docs/BEHAVIOUR.md,
    /// "Wayland"); the control socket is its only door.
    private func runOnWayland(display: String) -> Int32 {
        var options = givenOptions
        if options.hotkey != nil || options.switchKey != nil {
            writeErrorLine("pipcam: --hotkey and --switch-key are X key grabs: on Wayland bind 'pipcam toggle' to a compositor shortcut")
            (options.hotkey, options.switchKey) = (nil, nil)
        }
        let connection: WaylandConnection
        do throws(WaylandError) {
            connection = try WaylandConnection(display: display)
        } catch {
            writeErrorLine("pipcam: \(error)")
            return 2
        }
        defer { connection.close() }
        // No main window yet: PiP is all there is to show.
        options.startInPip = true
        options.geometryFile = GeometryMemory.filePath(name: command.instanceName)
        // The socket's lock is the one-instance rule here, as the X selection is on X11.
        let socketDisplay = WindowSystemRoute.socketDisplay(display)
        var socket: ControlSocketServer?
        switch openSocket(display: socketDisplay) {
        case .opened(let opened): socket = opened
        case .taken:
            writeErrorLine(alreadyRunningLine(display: socketDisplay))
            return 1
        case .noDirectory: writeErrorLine("pipcam: no $XDG_RUNTIME_DIR for the control socket: control commands cannot reach this pipcam")
        case .failed(let line): writeErrorLine("pipcam: \(line); control commands cannot reach this pipcam")
        }
        let doors = ControlDoors(claim: nil, socket: socket)
        let loop = WaylandLoop(connection: connection)
        let system = WaylandWindowSystem(loop: loop)
        return runSession(
            options: options, workArea: system.screen.homeArea(near: nil), parentSize: nil, doors: doors, names: system.names,
            pipAlone: true, loop: { WaylandLoop(connection: connection) }
        ) {
            PipcamApp(windowSystem: system, loop: loop, source: $0, options: $1, share: $2, findCamera: $3, doors: doors)
        }
    }

    /// Starts the source (answering control requests on a loop `loop` makes meanwhile), opens the
    /// share, and runs the app `makeApp` makes. `workArea` and `parentSize` say what the first
    /// window shows at, for the camera's first mode; `pipAlone`: PiP is all the app shows, so a
    /// stop asked for while the source starts ends pipcam.
    private func runSession(
        options given: SessionOptions, workArea: Rect, parentSize: (Int, Int)?, doors: ControlDoors, names: (system: String, pipRole: String),
        pipAlone: Bool = false, loop: () -> any EventLoop,
        makeApp: (FrameSource, SessionOptions, CameraShare?, CameraFinder.Access?) -> PipcamApp
    ) -> Int32 {
        var options = given
        // `auto`: the first camera, as with no --source (over a config file's source).
        let spec = command.source?.spec
        // Untimed frames queue behind each other: one decoding thread leaves the other CPU to the
        // reader and the X server, which costs less CPU a frame than the split decode does here
        // (docs/PERFORMANCE.md, "Untimed playback").
        if command.untimed { options.jpegDecodeThreads = 1 }
        options.sourceRequest = request(options: options, workArea: workArea, parentSize: parentSize)
        let (source, standIn) = makeSource(spec, request: options.sourceRequest)
        // Read now, before the capture thread owns the source; `status` names it as given.
        options.sourceName = spec != nil ? command.source?.text ?? source.name : source.name
        let starter = SourceStarter(loop: loop(), doors: doors, sourceName: options.sourceName, names: names)
        var outcome = starter.start(source, startInPip: options.startInPip)
        options.control = doors.claim
        if pipAlone, case .started(startInPip: false) = outcome {
            // Stopping a PiP that is all there is ends pipcam: here before it showed.
            source.stop()
            outcome = .quit(startInPip: false)
        }
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
        return makeApp(source, options, share, finder).run()
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
    private func request(options: SessionOptions, workArea: Rect, parentSize parent: (Int, Int)?) -> SourceRequest {
        let size = options.firstDisplaySize(
            workArea: workArea, parentSize: parent,
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
    /// What became of the control socket.
    enum SocketOpening {
        case opened(ControlSocketServer)
        /// No runtime directory to make it in.
        case noDirectory
        /// Another pipcam listens there (its path).
        case taken(String)
        /// It could not be made; the line says why.
        case failed(String)
    }

    /// The control socket for this display and name in the runtime directory.
    func openSocket(display: String) -> SocketOpening {
        guard let directory = ControlSocketPlace.directory(runtimeDirectory: environment("XDG_RUNTIME_DIR")) else { return .noDirectory }
        let place = ControlSocketPlace(directory: directory, display: display, name: command.instanceName)
        do throws(ControlSocketServer.OpenFailure) {
            return .opened(try ControlSocketServer.open(place))
        } catch {
            switch error {
            case .alreadyRunning: return .taken(place.socketPath)
            case .failed(let line): return .failed(line)
            }
        }
    }

    /// The socket beside the X door; when it cannot be had, said in one line: commands then
    /// reach this pipcam through X.
    func openSocketBesideX(display: String) -> ControlSocketServer? {
        let why: String
        switch openSocket(display: display) {
        case .opened(let socket): return socket
        case .noDirectory: return nil
        case .taken(let path): why = "another pipcam holds \(path)"
        case .failed(let line): why = line
        }
        writeErrorLine("pipcam: \(why); control commands reach this pipcam through X only")
        return nil
    }

    /// The line for a second instance on the same display and name.
    func alreadyRunningLine(display: String) -> String {
        let flag = command.instanceName.map { " --name \($0)" } ?? ""
        return "pipcam: already running on \(InstanceName.describe(display: display, name: command.instanceName)) "
            + "(use 'pipcam toggle|start|stop|status|quit\(flag)', or --name NAME for another instance)"
    }
}
