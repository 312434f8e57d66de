import Foundation
import TestSupport
import Testing

/// Cameras through PipeWire (docs/BEHAVIOUR.md, "Sources"): a private daemon and WirePlumber,
/// cameras published by GStreamer. pipcam shows a node while another program reads the same node,
/// both at the node's rate; a node that goes is `interrupted:disconnected` and one of the same
/// name coming back streams again; without a daemon, `--source pipewire` is bad input.
@Suite(.serialized, .timeLimit(.minutes(3)), .enabled(if: PrivatePipeWire.isAvailable))
struct PipeWireSourceTests {
    /// pipcam's `shown` count and the reader's buffers over `seconds`, once both run.
    private func rates(
        _ x: XServer, _ reader: GStreamerReader, seconds: Double
    ) throws -> (pipcam: Double, reader: Double) {
        let shown0 = shown(x), frames0 = reader.frames
        let start = ContinuousClock.now
        Thread.sleep(forTimeInterval: seconds)
        let took = (ContinuousClock.now - start).components
        let elapsed = Double(took.seconds) + Double(took.attoseconds) / 1e18
        return (Double(shown(x) - shown0) / elapsed, Double(reader.frames - frames0) / elapsed)
    }

    /// What `pipcam status` says (nothing before pipcam answers).
    private func shown(_ x: XServer) -> Int { (try? x.pipcamStatus().object["shown"] as? Int) ?? 0 }

    private func camera(_ x: XServer) -> String { (try? x.pipcamStatus().object["camera"] as? String) ?? "" }

    @Test(arguments: ["yuy2", "mjpeg"])
    func pipcamAndAnotherReaderShowOneNodeAtOnceAtItsRate(format: String) throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        // JPEG at 320x180: the tests' debug build decodes larger pictures slower than 30 a second.
        let publisher = try pw.publishCamera("cam", format: format, size: format == "mjpeg" ? (320, 180) : (640, 360))
        // pipcam first: its buffers hold any frame (GStreamer's publisher sizes its JPEG buffers by
        // the first frame otherwise, and crashes on a larger one).
        let pipcam = try x.startPipcam(["--source", "pipewire:cam", "--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("pipcam to start", timeout: .seconds(10)) { camera(x) == "streaming" }
        let reader = try pw.startReader(of: "cam", caps: format == "mjpeg" ? "image/jpeg" : "video/x-raw,format=YUY2")
        try waitUntil("pipcam to show the node's frames (stderr: \(pipcam.stderrText), status: \((try? x.pipcamStatus().text) ?? "none"), reader frames: \(reader.frames), publisher: \(publisher.stderrText.suffix(300)), reader: \(reader.process.stderrText.suffix(300)))", timeout: .seconds(15)) { shown(x) >= 10 }
        try waitUntil("the reader's frames", timeout: .seconds(10)) { reader.frames >= 10 }
        let status = try x.pipcamStatus().object
        #expect(status["source"] as? String == "pipewire:cam" && status["camera"] as? String == "streaming")
        let measured = try rates(x, reader, seconds: 4)
        // Both read the node's 30 frames a second at once (the harness's busy CPUs allow a little less).
        #expect(measured.pipcam >= 24 && measured.reader >= 24, "pipcam \(measured.pipcam)/s, GStreamer \(measured.reader)/s")
        #expect(pipcam.isRunning && reader.process.isRunning)
        // Frames are shown from the daemon's shared memory, not copied: pipcam maps each buffer a
        // second time itself (the same file offset of the daemon's memfd twice), so that a frame
        // stays readable whatever the library unmaps.
        let maps = ((try? String(contentsOfFile: "/proc/\(pipcam.pid)/maps", encoding: .utf8)) ?? "").split(separator: "\n")
        let regions = maps.filter { $0.contains("memfd:pipewire") }.map { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).prefix(3).joined(separator: " ") }
        #expect(Set(regions).count < regions.count, "no buffer of the daemon's mapped twice: \(maps.filter { $0.contains("memfd:") })")
    }

    /// 32-bit RGB either way round shows its colours: RGBx is turned into BGRx as it is copied.
    @Test(arguments: ["RGBx", "BGRx"])
    func thirtyTwoBitRGBNodesShowTheirColours(format: String) throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        try pw.publishCamera("cam", format: format, size: (320, 180), pattern: "red")
        let (pipcam, window) = try x.startPip(["--source", "pipewire:cam", "--size", "320x180"], extraEnvironment: pw.environment)
        var mean = RGB(0, 0, 0)
        let red = eventually(timeout: .seconds(10)) {
            mean = (try? x.screenshot(of: window).meanColor()) ?? mean
            return mean.red > 200 && mean.green < 60 && mean.blue < 60
        }
        #expect(red, "a red \(format) node shows as \(mean) (stderr: \(pipcam.stderrText))")
        #expect(pipcam.isRunning)
    }

    @Test func aNodeThatGoesIsADisconnectionAndOneOfItsNameComingBackStreamsAgain() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        let publisher = try pw.publishCamera("cam")
        let pipcam = try x.startPipcam(["--source", "pipewire:cam", "--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("frames shown", timeout: .seconds(15)) { shown(x) >= 5 }
        publisher.terminate(grace: .seconds(2))
        try pw.waitUntilGone("cam")
        try waitUntil("camera=interrupted:disconnected", timeout: .seconds(10)) { camera(x) == "interrupted:disconnected" }
        #expect(pipcam.isRunning)
        let before = shown(x)
        try pw.publishCamera("cam")
        try waitUntil("streaming again", timeout: .seconds(15)) { camera(x) == "streaming" && shown(x) > before + 5 }
    }

    @Test func withoutADaemonTheSourceIsBadInputWithOneLine() throws {
        let x = try makeServer()
        let result = try x.runPipcam(["--source", "pipewire", "--pip"], timeout: .seconds(15))
        #expect(result.exitCode == 2, "\(result)")
        let lines = result.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty && lines[0].hasPrefix("pipcam: pipewire: "), "\(result.stderrText)")
    }

    @Test func anUnknownNodeIsBadInputNamingTheCameras() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        try pw.publishCamera("cam")
        let result = try x.run([Pipcam.binaryPath(), "--source", "pipewire:nope", "--pip"], timeout: .seconds(15))
        _ = pw
        #expect(result.exitCode == 2, "\(result)")
        #expect(result.stderrText.contains("pipewire:nope: no such PipeWire node; camera nodes: cam (Test_cam)"), "\(result.stderrText)")
    }

    /// A node in a format pipcam cannot show is bad input every time, however the link's failure
    /// and the stream's end race (they came in either order, and the end alone said "disconnected").
    @Test func aNodeInAnUnreadableFormatIsBadInputEveryTime() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        try pw.publishCamera("uyvy", format: "UYVY", size: (320, 180))
        for run in 1...6 {
            let result = try IntegrationTests.run(
                [Pipcam.binaryPath(), "--source", "pipewire:uyvy", "--pip"], environment: x.environment.merging(pw.environment) { $1 }, timeout: .seconds(20))
            #expect(result.exitCode == 2 && result.stderrText.hasPrefix("pipcam: pipewire:uyvy: offers no format pipcam can show")
                && result.stderrText.filter { $0 == "\n" }.count == 1, "run \(run): \(result)")
        }
    }

    /// A node's name of any length is listed whole, and found by it.
    @Test func aLongNodeNameIsListedWholeAndFound() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        let name = "cam-" + String(repeating: "long", count: 80)
        try pw.publishCamera(name, size: (320, 180))
        let listed = try IntegrationTests.run(
            [Pipcam.binaryPath(), "--list-cameras"], environment: x.environment.merging(pw.environment) { $1 }, timeout: .seconds(15))
        #expect(listed.stdoutText.contains("pipewire:\(name): Test_\(name) (through PipeWire)\n"), "\(listed)")
        let pipcam = try x.startPipcam(["--source", "pipewire:\(name)", "--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("frames from the long-named node (\(pipcam.stderrText))", timeout: .seconds(15)) { shown(x) >= 5 }
    }

    /// Without `--source`, a camera node of the user's daemon is taken through PipeWire (no program
    /// reading it through PipeWire is locked out), and `--list-cameras` names the route.
    @Test func withoutSourceTheDaemonsCameraIsTakenAndListed() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        try pw.publishCamera("cam")
        let listed = try x.run([Pipcam.binaryPath(), "--list-cameras"], timeout: .seconds(15))
        #expect(listed.exitCode == 0 && listed.stdoutText.contains("pipewire:cam: Test_cam (through PipeWire)\n"), "\(listed)")
        let pipcam = try x.startPipcam(["--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("frames through PipeWire (\(pipcam.stderrText))", timeout: .seconds(15)) { shown(x) >= 5 }
        #expect((try? x.pipcamStatus().object["source"] as? String) == "pipewire:cam")
    }

    /// Started with no camera anywhere, pipcam shows the test pattern; a camera node published
    /// later takes over (hot-plug through the registry), and is no switch the user made.
    @Test func aCameraNodePublishedLaterTakesOverFromTheTestPattern() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        let pipcam = try x.startPipcam(["--pip", "--size", "320x180", "--stats"], extraEnvironment: pw.environment)
        try waitUntil("the test pattern, waiting for a camera", timeout: .seconds(15)) { camera(x) == "waiting" && shown(x) >= 5 }
        try pw.publishCamera("cam")
        try waitUntil("the camera node to take over (\(pipcam.stderrText.suffix(300)))", timeout: .seconds(20)) {
            camera(x) == "streaming" && (try? x.pipcamStatus().object["source"] as? String) == "pipewire:cam"
        }
        #expect(!pipcam.stderrText.contains("switches="), "no switch counted")
    }

    /// `pipcam switch next` goes on to the next camera node.
    @Test func switchNextTakesTheNextCameraNode() throws {
        let x = try makeServer()
        let pw = try PrivatePipeWire(on: x)
        try pw.publishCamera("cam")
        try pw.publishCamera("cam2")
        let pipcam = try x.startPipcam(["--source", "pipewire:cam", "--pip", "--size", "320x180"], extraEnvironment: pw.environment)
        try waitUntil("frames from cam (\(pipcam.stderrText.suffix(300)))", timeout: .seconds(15)) { shown(x) >= 5 }
        let result = try x.runPipcam(["switch", "next"], timeout: .seconds(15))
        #expect(result.exitCode == 0, "\(result)")
        #expect((try? x.pipcamStatus().object["source"] as? String) == "pipewire:cam2")
    }
}
