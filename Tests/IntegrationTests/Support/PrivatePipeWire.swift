import Foundation
import TestSupport

/// A PipeWire daemon and its session manager (WirePlumber) for one X server's clients: in that
/// server's own `XDG_RUNTIME_DIR`, with a session bus of its own; stopped with the server.
/// Cameras are GStreamer pipelines that publish a `Video/Source` node.
struct PrivatePipeWire {
    let x: XServer
    private let bus: String
    private var daemon: RunningProcess?
    private var sessionManager: RunningProcess?

    /// Whether the machine has what it takes (pipewire, wireplumber, GStreamer's PipeWire plugin).
    static var isAvailable: Bool {
        ["/usr/bin/pipewire", "/usr/bin/wireplumber", "/usr/bin/gst-launch-1.0", "/usr/bin/pw-cli"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Starts the bus, the daemon and the session manager, and waits until they answer.
    init(on x: XServer) throws {
        self.x = x
        bus = "unix:path=\(x.directory)/bus"
        _ = try x.start(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(bus)"])
        try waitUntil("the session bus", timeout: .seconds(10)) { FileManager.default.fileExists(atPath: "\(x.directory)/bus") }
        try startDaemons()
    }

    private mutating func startDaemons() throws {
        daemon = try x.start(["pipewire"], extraEnvironment: environment)
        try waitUntil("the PipeWire socket", timeout: .seconds(10)) { FileManager.default.fileExists(atPath: "\(x.directory)/pipewire-0") }
        sessionManager = try x.start(["wireplumber"], extraEnvironment: environment)
        try waitUntil("WirePlumber", timeout: .seconds(10)) { try nodeList().contains("Midi-Bridge") || sessionManagerRuns() }
    }

    /// Stops the daemon and the session manager (every node and link goes), then starts them again.
    mutating func restart() throws {
        _ = sessionManager?.terminate()
        _ = daemon?.terminate()
        try? FileManager.default.removeItem(atPath: "\(x.directory)/pipewire-0")
        try? FileManager.default.removeItem(atPath: "\(x.directory)/pipewire-0.lock")
        try startDaemons()
    }

    /// What the daemon's clients need besides the server's environment.
    var environment: [String: String] { ["DBUS_SESSION_BUS_ADDRESS": bus] }

    /// Publishes a camera node `name` sending `format` frames (`yuy2`, `mjpeg`, or a GStreamer raw
    /// format such as `RGBx`) of `size` at `fps`, showing videotestsrc's `pattern` (bars by default).
    @discardableResult
    func publishCamera(
        _ name: String, format: String = "yuy2", size: (Int, Int) = (640, 360), fps: Int = 30, pattern: String = "smpte"
    ) throws -> RunningProcess {
        let rawFormat = format == "mjpeg" ? "I420" : format == "yuy2" ? "YUY2" : format
        let raw = "video/x-raw,format=\(rawFormat),width=\(size.0),height=\(size.1),framerate=\(fps)/1"
        let encode = format == "mjpeg" ? ["!", "jpegenc", "!", "image/jpeg,width=\(size.0),height=\(size.1),framerate=\(fps)/1"] : []
        let properties = "p,media.class=Video/Source,media.role=Camera,node.name=\(name),node.description=Test_\(name)"
        let process = try x.start(
            ["gst-launch-1.0", "-q", "videotestsrc", "is-live=true", "pattern=\(pattern)", "!", raw] + encode
                + ["!", "pipewiresink", "mode=provide", "stream-properties=\(properties)"],
            extraEnvironment: environment)
        try waitUntil("camera node \(name)", timeout: .seconds(10)) { try nodeList().contains("node.name = \"\(name)\"") }
        return process
    }

    /// Reads node `name` with GStreamer into a sink that prints a line per buffer; `frames` counts them.
    func startReader(of name: String, caps: String = "video/x-raw,format=YUY2") throws -> GStreamerReader {
        let process = try x.start(
            ["gst-launch-1.0", "-v", "pipewiresrc", "target-object=\(name)", "!", caps, "!", "fakesink", "sync=false", "silent=false"],
            extraEnvironment: environment)
        return GStreamerReader(process: process)
    }

    /// Stops the node `name`'s publisher (the camera unplugged).
    func waitUntilGone(_ name: String) throws {
        try waitUntil("camera node \(name) to go", timeout: .seconds(10)) { try !nodeList().contains("node.name = \"\(name)\"") }
    }

    private func nodeList() throws -> String {
        try x.run(["pw-cli", "ls", "Node"], timeout: .seconds(5)).stdoutText
    }

    private func sessionManagerRuns() throws -> Bool {
        try x.run(["pw-cli", "ls", "Client"], timeout: .seconds(5)).stdoutText.contains("WirePlumber")
    }
}

/// A GStreamer pipeline reading a PipeWire node, counting the buffers that reached its sink.
struct GStreamerReader {
    let process: RunningProcess
    /// Buffers so far (fakesink says "chain" for each).
    var frames: Int { process.stdoutText.components(separatedBy: "chain").count - 1 }
}
