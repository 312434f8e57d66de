import Foundation
import Glibc
import TestSupport
import Testing

extension VMScenarioTests {
    /// How long GStreamer's first run in the guest may take: a second or two with the registry
    /// the host wrote before the boot (scripts/vm-test); without it, reading every plugin to write
    /// one took 30–50 s under TCG, and over 60 s while the host also ran the sanitizer tiers.
    static let registryWait = 150.0

    @Test(.enabled(if: VMTier.runs(.pipewireCamera)), .timeLimit(VMScenario.pipewireCamera.timeLimit))
    func pipewireCamera() {
        runScenario(.pipewireCamera) { run in
            // vivid through the guest's PipeWire (pipewire, and WirePlumber's V4L2 monitor making a
            // node of it): pipcam, started without --source, takes the camera node, and a GStreamer
            // reader reads the same node at the same time, each at >= 0.9 of vivid's rate. The
            // daemon holds the device: a direct reader is refused, and pipcam asked for the device
            // directly waits and names the holder. The camera through PipeWire feeds --share's
            // virtual camera. pipcam ending leaves the other reader reading.
            // First the direct path on the same camera at the same rate, feeding the same virtual
            // camera, for the comparison (CPU and latency are measured, not asserted).
            // GStreamer's first run in the guest (the host's registry, or reading every plugin
            // without it): done meanwhile, so the reader later starts in seconds.
            let registry = try run.start("gst-registry", ["gst-inspect-1.0", "pipewiresrc"])
            let share = ["--share", VMDevices.loopback, "--share-size", VMDevices.shareSize]
            let directly = try run.startStreaming(share)
            try run.slowDown(directly)
            let direct = try run.measure(directly, seconds: 8)
            let directLatency = directly.lastStats
            try run.sigtermAndCheckReleased(directly)
            let daemon = try GuestPipeWire(run)
            let pipcam = try run.startPipcam(["--pip", "--size", Self.size, "--stats"] + share, environment: daemon.environment)
            try run.waitForFiveFrames(pipcam)
            let source = (try? run.status())?["source"] as? String ?? ""
            guard source == "pipewire:\(GuestPipeWire.vividNode)" else {
                throw HarnessError("without --source, status names '\(source)', expected pipewire:\(GuestPipeWire.vividNode)")
            }
            guard !V4L2Queries.holds(pipcam.pid, Self.camera) else { throw HarnessError("pipcam holds \(Self.camera) itself") }
            guard daemon.processes.contains(where: { V4L2Queries.holds($0.pid, Self.camera) }) else {
                throw HarnessError("neither pipewire nor wireplumber holds \(Self.camera) while pipcam reads its node")
            }
            run.metric("format", V4L2Queries.sizeAndFourCC(of: Self.camera))
            guard try run.wait(Self.registryWait, until: { registry.hasExited }) else {
                throw HarnessError("gst-inspect-1.0 did not end within \(Int(Self.registryWait)) s")
            }
            let reader = try daemon.startReader(run)
            guard try run.wait(30, until: { reader.frames >= 5 || reader.process.hasExited }), reader.frames >= 5 else {
                throw HarnessError("the GStreamer reader got \(reader.frames) frames in 30 s: \(reader.process.lastMessage)")
            }
            // vivid at 10 fps, which it keeps under TCG, so its rate is known: both readers get it.
            try run.slowDown(pipcam)
            try run.pause(1)
            let through = try run.measure(pipcam, seconds: 10) { [Double(reader.frames), daemon.cpuSeconds] }
            let readerRate = through.others[0] / through.seconds
            run.metric("fps", String(format: "%.2f (the GStreamer reader %.2f, directly %.2f)", through.fps, readerRate, direct.fps))
            run.metric("dropped", "\(through.dropped) (directly \(direct.dropped))")
            run.metric("cpu_ms_per_frame", String(format: "%.2f (directly %.2f)", through.cpuMillisecondsPerFrame, direct.cpuMillisecondsPerFrame))
            run.metric("daemon_cpu_ms_per_frame", String(format: "%.2f", through.others[1] * 1000 / max(1, through.others[0])))
            if let stats = pipcam.lastStats, let directLatency {
                run.metric("latency_p50_ms", "\(stats.latencyP50) (directly \(directLatency.latencyP50))")
                run.metric("latency_p99_ms", "\(stats.latencyP99) (directly \(directLatency.latencyP99))")
            }
            let vividRate = 10.0
            guard through.fps >= 0.9 * vividRate, readerRate >= 0.9 * vividRate else {
                throw HarnessError(
                    String(format: "at once through PipeWire: pipcam %.2f fps, the GStreamer reader %.2f fps, expected >= %.1f each (vivid at %.0f)",
                        through.fps, readerRate, 0.9 * vividRate, vividRate))
            }
            // The camera through PipeWire feeds the virtual camera too (--share).
            try run.waitForSharedFormat(
                "\(VMDevices.loopback) offers '\(V4L2Queries.sizeAndFourCC(of: VMDevices.loopback))', expected \(ScenarioRun.sharedFormat)")
            guard try run.streamThreeFrames(from: VMDevices.loopback, log: "share-reader.txt").streamed else {
                throw HarnessError("no frame read from \(VMDevices.loopback), which pipcam feeds with the camera through PipeWire")
            }
            // Its controls change through the camera's V4L2 node while the daemon streams it, for every reader.
            let set = try run.run([run.pipcam, "set", "brightness=180"], environment: daemon.environment)
            guard set.succeeded, set.stdoutText.contains("every program reading it through PipeWire") else {
                throw HarnessError("pipcam set brightness=180 through PipeWire: \(set.stdoutText + set.stderrText)")
            }
            try run.expectBrightness(180, "after pipcam set through PipeWire")
            // The daemon holds the device: a direct reader is refused.
            let directReader = try run.streamThreeFrames(from: Self.camera, log: "direct-reader.txt")
            guard !directReader.streamed else { throw HarnessError("v4l2-ctl streamed \(Self.camera) directly while PipeWire streams it") }
            let waiting = try run.start("pipcam-direct", [run.pipcam, "--pip", "--source", Self.camera, "--size", Self.size, "--stats", "--name", "direct"],
                environment: daemon.environment)
            let started = GuestClock.now()
            _ = try run.waitForCamera("interrupted:in-use", waiting, after: started, within: 20, "camera held by the PipeWire daemon")
            let holders = daemon.processes.map { "pid \($0.pid))" }
            guard let line = waiting.firstLine(containing: "in use by another application ("),
                holders.contains(where: { line.text.contains($0) }), line.text.contains("'--source pipewire'")
            else {
                throw HarnessError("no line naming the daemon (\(holders.joined(separator: " or "))) and the PipeWire route: \(waiting.firstLine(containing: "in use")?.text ?? "none")")
            }
            waiting.process.terminate(grace: .seconds(3))
            // pipcam leaving does not end the other reader's frames.
            kill(pipcam.pid, SIGTERM)
            guard try run.wait(10, until: { pipcam.hasExited }), pipcam.exitCode == 0 else {
                throw HarnessError("pipcam did not exit 0 within 10 s of SIGTERM (exit \(pipcam.exitCode.map(String.init) ?? "none"))")
            }
            let left = reader.frames
            guard try run.wait(10, until: { reader.frames >= left + 10 }) else {
                throw HarnessError("the GStreamer reader got \(reader.frames - left) frames in 10 s after pipcam ended")
            }
        }
    }
}

/// The guest's PipeWire for one scenario: a session bus, the daemon and WirePlumber, its socket in
/// a folder of its own (`PIPEWIRE_RUNTIME_DIR`), so that only the processes given `environment`
/// see it and the other scenarios keep the direct V4L2 route. Ended with the scenario.
struct GuestPipeWire {
    /// The node WirePlumber's V4L2 monitor makes of vivid's webcam.
    static let vividNode = "v4l2_input.platform-vivid.0"
    let environment: [String: String]
    /// The daemon and the session manager (one of them holds the camera while it streams).
    let processes: [StampedProcess]
    private let run: ScenarioRun

    /// Starts the bus, the daemon and WirePlumber, and waits (30 s) for vivid's node.
    init(_ run: ScenarioRun) throws {
        self.run = run
        let directory = try Scratch.makeDirectory("pipewire")
        let bus = "unix:path=\(directory)/bus"
        environment = ["PIPEWIRE_RUNTIME_DIR": directory, "DBUS_SESSION_BUS_ADDRESS": bus]
        _ = try run.start("dbus", ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(bus)"])
        guard try run.wait(10, until: { FileManager.default.fileExists(atPath: "\(directory)/bus") }) else { throw HarnessError("no session bus within 10 s") }
        let daemon = try run.start("pipewire", ["pipewire"], environment: environment)
        guard try run.wait(10, until: { FileManager.default.fileExists(atPath: "\(directory)/pipewire-0") }) else {
            throw HarnessError("no PipeWire socket within 10 s: \(daemon.lastMessage)")
        }
        let manager = try run.start("wireplumber", ["wireplumber"], environment: environment)
        processes = [daemon, manager]
        var nodes = ""
        guard try run.wait(30, until: {
            nodes = (try? run.run(["pw-cli", "ls", "Node"], timeout: 10, environment: environment))?.stdoutText ?? ""
            return nodes.contains("node.name = \"\(Self.vividNode)\"") || manager.hasExited
        }), !manager.hasExited else {
            run.write("nodes.txt", nodes)
            throw HarnessError("WirePlumber made no node \(Self.vividNode) of vivid within 30 s (\(manager.lastMessage))")
        }
        run.note("PipeWire has \(Self.vividNode)")
    }

    /// CPU seconds (user + system) the daemon and WirePlumber used so far.
    var cpuSeconds: Double { processes.reduce(0) { $0 + ProcessCPU.seconds(of: $1.pid) } }

    /// `gst-launch-1.0 pipewiresrc` reading `node` (vivid's by default; YUY2, as pipcam reads
    /// it), a line per buffer.
    func startReader(_ run: ScenarioRun, node: String = GuestPipeWire.vividNode) throws -> GuestReader {
        let process = try run.start(
            "reader",
            // Line-buffered: a line per frame, counted as it comes.
            ["stdbuf", "-oL", "gst-launch-1.0", "-v", "pipewiresrc", "target-object=\(node)", "!", "video/x-raw,format=YUY2", "!",
                "fakesink", "sync=false", "silent=false"],
            environment: environment)
        return GuestReader(process: process)
    }
}

/// A GStreamer pipeline reading a PipeWire node in the guest, counting the buffers at its sink.
struct GuestReader {
    let process: StampedProcess
    /// Buffers so far (fakesink prints "chain" for each on stdout).
    var frames: Int { process.stdoutText.components(separatedBy: "chain").count - 1 }
}
