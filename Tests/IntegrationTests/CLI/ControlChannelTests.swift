import Foundation
import Glibc
import TestSupport
import Testing

/// The control channel at the X level: one pipcam per display (or per `--name`), found through its selection,
/// and `pipcam toggle|start|stop|status|quit` with their exit codes and the status JSON.
@Suite struct ControlChannelTests {
    static let commands = ["toggle", "start", "stop", "status", "quit"]

    @Test func statusReportsTheContractFieldsInOrder() throws {
        let x = try XServer(windowManager: .openbox)
        _ = try x.startPipcam(["--source", "test"])
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        let mainRect = try x.waitForStableGeometry(of: main)
        // On a loaded machine the first frame can come after the window settles.
        let (status, text) = try poll(timeout: .seconds(10), what: "the main window to show a frame") {
            let reply = try x.pipcamStatus()
            return (reply.object["shown"] as? Int ?? 0) > 0 ? reply : nil
        }
        let keys = text.matches(of: /"([a-z]+)":/).map { String($0.output.1) }
        #expect(keys == ["state", "source", "camera", "shown", "dropped", "unseen", "fps", "pip", "x", "y", "width", "height",
                         "main", "x", "y", "width", "height", "visible", "zoom", "pan", "x", "y", "controls"], "\(text)")
        #expect(status["state"] as? String == "idle")
        #expect(status["source"] as? String == "test")
        #expect(status["camera"] as? String == "streaming")
        #expect((status["shown"] as? Int ?? -1) > 0, "the main window shows frames: \(text)")
        #expect((status["dropped"] as? Int ?? -1) >= 0)
        #expect(status["fps"] is NSNumber)
        let mainField = try #require(status["main"] as? [String: Any])
        #expect(mainField["visible"] as? Bool == true)
        #expect(XRect(x: mainField["x"] as? Int ?? -1, y: mainField["y"] as? Int ?? -1,
                      width: mainField["width"] as? Int ?? -1, height: mainField["height"] as? Int ?? -1) == mainRect)
        let pipField = try #require(status["pip"] as? [String: Any])
        #expect((pipField["width"] as? Int ?? 0) > 0 && (pipField["height"] as? Int ?? 0) > 0)
    }

    @Test func startStopToggleQuitDoWhatTheySayAndExitZero() throws {
        let x = try XServer(windowManager: .openbox)
        let p = try x.startPipcam(["--source", "test"])
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
        _ = try x.waitForStableGeometry(of: main)

        #expect(try x.runPipcam(["start"]).succeeded)
        try waitUntil("PiP is up", timeout: .seconds(5)) { try x.isViewable(pip) }
        try waitUntil("status says active", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "active" }
        let pipRect = try x.waitForStableGeometry(of: pip)
        let reported = try #require(try x.pipcamStatus().object["pip"] as? [String: Int])
        #expect(XRect(x: reported["x"] ?? -1, y: reported["y"] ?? -1, width: reported["width"] ?? -1,
                      height: reported["height"] ?? -1) == pipRect)
        #expect(try x.runPipcam(["start"]).succeeded, "start while active is no error")

        #expect(try x.runPipcam(["stop"]).succeeded)
        try waitUntil("PiP is gone", timeout: .seconds(5)) { try !x.isViewable(pip) }
        try waitUntil("status says idle", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "idle" }
        #expect(try x.isViewable(main))

        #expect(try x.runPipcam(["toggle"]).succeeded)
        try waitUntil("toggle starts PiP", timeout: .seconds(5)) { try x.isViewable(pip) }
        try waitUntil("PiP is active", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "active" }
        #expect(try x.runPipcam(["toggle"]).succeeded)
        try waitUntil("toggle stops PiP", timeout: .seconds(5)) { try !x.isViewable(pip) }

        let quit = try x.runPipcam(["quit"])
        #expect(quit.succeeded, "\(quit)")
        #expect(try p.wait(timeout: .seconds(3)).exitCode == 0, "quit ends pipcam cleanly, before 'pipcam quit' returns")
    }

    @Test func withNoInstanceEveryCommandExitsThreeWithOneLine() throws {
        let x = try XServer()
        for command in Self.commands {
            let r = try x.runPipcam([command])
            #expect(r.exitCode == 3, "\(r)")
            #expect(r.stderrText == "pipcam: no pipcam is running on \(x.display)\n", "\(r)")
            #expect(r.stdoutText.isEmpty)
        }
        let named = try x.runPipcam(["status", "--name", "cam"])
        #expect(named.exitCode == 3 && named.stderrText.contains("no pipcam 'cam' is running"), "\(named)")
    }

    @Test(arguments: [["toggle", "now"], ["status", "--name"], ["status", "--name", "a b"], ["quit", "--bogus"],
                      ["frobnicate"], ["--hotkey", "super+nosuchkey"], ["--hotkey", "hyper+p"], ["--name", "x/y"]])
    func usageErrorsExitTwoWithOneLine(arguments: [String]) throws {
        let x = try XServer()
        let r = try x.runPipcam(arguments)
        #expect(r.exitCode == 2, "\(r)")
        #expect(r.stderrText.hasPrefix("pipcam: ") && r.stderrText.filter { $0 == "\n" }.count == 1, "\(r)")
        // ArgumentParser's sentences too go on as pipcam's do, lower-case after "pipcam: ".
        #expect(r.stderrText.dropFirst("pipcam: ".count).first?.isUppercase == false, "\(r)")
    }

    /// A request longer than the instance reads is said to be too long, before it is sent.
    @Test func overlongRequestsAreSaidToBeTooLong() throws {
        let x = try XServer()
        _ = try x.startPipcam(["--source", "test"])
        try waitUntil("pipcam answers", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        let long = String(repeating: "a", count: 5000)
        for arguments in [["switch", "y4m:/\(long).y4m"], ["set", "brightness=\(long)"]] {
            let r = try x.runPipcam(arguments)
            #expect(r.exitCode == 2 && r.stderrText.hasPrefix("pipcam: the request is ") && r.stderrText.contains("pipcam reads at most 4096"), "\(r)")
            #expect(r.stderrText.filter { $0 == "\n" }.count == 1, "\(r)")
        }
        #expect(try x.runPipcam(["status"]).succeeded, "the instance is untouched")
    }

    /// The main command's options given to a control command are refused, not ignored: the
    /// running pipcam is not toggled by `pipcam toggle --pip`.
    @Test func controlCommandsRefuseTheMainCommandsOptions() throws {
        let x = try XServer()
        _ = try x.startPipcam(["--source", "test"])
        try waitUntil("pipcam answers", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        for arguments in [["toggle", "--pip"], ["--pip", "toggle"], ["--source", "test", "start"], ["status", "--stats"],
                          ["--name", "cam", "quit", "--frames", "1"]] {
            let r = try x.runPipcam(arguments)
            let command = arguments.first { ["toggle", "start", "status", "quit"].contains($0) } ?? ""
            #expect(r.exitCode == 2 && r.stderrText.hasPrefix("pipcam: '\(command)' takes only --name NAME, not '--"), "\(arguments): \(r)")
            #expect(r.stderrText.filter { $0 == "\n" }.count == 1 && r.stdoutText.isEmpty, "\(arguments): \(r)")
        }
        try waitUntil("the status", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "idle" }
        #expect(try x.runPipcam(["--name=none", "toggle"]).succeeded, "--name=NAME before the command is taken")
        try waitUntil("PiP started by the toggle", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "active" }
    }

    /// Eight pipcams started at the same moment by a shell (a keybinding pressed repeatedly):
    /// exactly one runs, the others say so and exit 1. Each saw no owner, and X lets a later
    /// claim replace an owner: without the server grabbed for the check and the claim, 2 to 6 of
    /// them ran (5 tries by hand), fighting over the camera.
    @Test func ofPipcamsStartedTogetherOneRuns() throws {
        let x = try XServer()
        let script = """
            pids=""
            for i in 1 2 3 4 5 6 7 8; do "$0" --source test >/dev/null 2>"$1/race.$i" & pids="$pids $!"; done
            sleep 2
            n=0; for p in $pids; do kill -0 "$p" 2>/dev/null && n=$((n + 1)); done
            echo "running $n"; kill $pids 2>/dev/null; wait
            """
        let result = try x.run(["sh", "-c", script, try Pipcam.binaryPath(), x.directory], timeout: .seconds(20))
        #expect(result.stdoutText == "running 1\n", "\(result)")
        let refusals = try (1...8).map { try String(contentsOfFile: x.directory + "/race.\($0)", encoding: .utf8) }
            .filter { $0.hasPrefix("pipcam: already running on ") }
        #expect(refusals.count == 7, "\(refusals)")
    }

    @Test func aSecondPipcamIsRefusedAndKillNineFreesTheDisplay() throws {
        let x = try XServer(windowManager: .openbox)
        let first = try x.startPipcam(["--source", "test"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")

        let second = try x.startPipcam(["--source", "test"])
        let refused = try second.wait(timeout: .seconds(5))
        #expect(refused.exitCode == 1, "\(refused)")
        #expect(refused.stderrText.hasPrefix("pipcam: already running on \(x.display) ("), "\(refused)")
        #expect(refused.stderrText.contains("pipcam toggle") && refused.stderrText.filter { $0 == "\n" }.count == 1)
        #expect(try x.windows(role: "main", pid: second.pid).isEmpty, "the refused pipcam made no window")
        #expect(try x.runPipcam(["status"]).succeeded, "the first one still answers")

        first.send(SIGKILL)
        #expect(try first.wait(timeout: .seconds(5)).termination == .signaled(SIGKILL))
        #expect(try x.runPipcam(["status"]).exitCode == 3, "the server dropped the dead instance's selection")
        let third = try x.startPipcam(["--source", "test"])
        _ = try x.waitForWindow(className: "pipcam", role: "main", timeout: .seconds(5))
        try waitUntil("the new pipcam answers", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        #expect(third.termination == nil)
    }

    @Test func namedInstancesAreControlledIndependently() throws {
        let x = try XServer(windowManager: .openbox)
        let plain = try x.startPipcam(["--source", "test"])
        let named = try x.startPipcam(["--source", "test", "--name", "b"])
        try waitUntil("both main windows", timeout: .seconds(10)) {
            try !x.windows(role: "main", pid: plain.pid).isEmpty && !x.windows(role: "main", pid: named.pid).isEmpty
        }
        let plainPip = try #require(try x.windows(role: "PictureInPicture", pid: plain.pid).first)
        let namedPip = try #require(try x.windows(role: "PictureInPicture", pid: named.pid).first)
        Thread.sleep(forTimeInterval: 0.3)

        #expect(try x.runPipcam(["start", "--name", "b"]).succeeded)
        try waitUntil("b's PiP is up", timeout: .seconds(5)) { try x.isViewable(namedPip) }
        #expect(try !x.isViewable(plainPip))
        try waitUntil("b is active", timeout: .seconds(5)) { try x.pipcamStatus(name: "b").object["state"] as? String == "active" }
        #expect(try x.pipcamStatus().object["state"] as? String == "idle")
        #expect(try x.runPipcam(["--name", "b", "status"]).succeeded, "--name before the subcommand works too")

        let second = try x.startPipcam(["--source", "test", "--name", "b"])
        let refused = try second.wait(timeout: .seconds(5))
        #expect(refused.exitCode == 1 && refused.stderrText.contains("already running on \(x.display) (name 'b')"), "\(refused)")

        #expect(try x.runPipcam(["quit", "--name", "b"]).succeeded)
        #expect(try named.wait(timeout: .seconds(3)).exitCode == 0)
        #expect(try x.runPipcam(["status", "--name", "b"]).exitCode == 3)
        #expect(try x.runPipcam(["status"]).succeeded && plain.termination == nil, "the unnamed one runs on")
    }

    @Test func aHungInstanceGivesExitOneWithinASecondOrSo() throws {
        let x = try XServer()
        let p = try x.startPipcam(["--source", "test"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        p.send(SIGSTOP)
        defer { p.send(SIGCONT) }
        let clock = ContinuousClock()
        let started = clock.now
        let r = try x.runPipcam(["status"])
        let took = clock.now - started
        #expect(r.exitCode == 1, "\(r)")
        #expect(r.stderrText == "pipcam: no answer from the pipcam on \(x.display) within 1 s\n", "\(r)")
        // The client gives up after 1 s; the rest is starting a process, which a loaded machine slows.
        #expect(took < .milliseconds(2500), "\(took)")
        p.send(SIGCONT)
        try waitUntil("it answers again", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        #expect(p.termination == nil, "the late answer to a vanished requestor did no harm")
    }

    @Test func garbageFromOtherClientsIsIgnored() throws {
        let x = try XServer(windowManager: .openbox)
        let p = try x.startPipcam(["--source", "test"])
        let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        for seed in 1...3 { try x.sendGarbage(toOwnerOf: "_PIPCAM_S0", seed: seed) }
        #expect(p.termination == nil, "pipcam survived: \(p.stderrText.suffix(500))")
        #expect(try x.pipcamStatus().object["state"] as? String == "idle", "no garbage message started PiP")
        #expect(try !x.isViewable(pip))
        #expect(try x.runPipcam(["toggle"]).succeeded)
        try waitUntil("toggle still works", timeout: .seconds(5)) { try x.isViewable(pip) }
        #expect(!p.stderrText.contains("X error"), "\(p.stderrText.suffix(500))")
    }

    @Test func statusRoundTripIsWellUnderASecond() throws {
        let x = try XServer(windowManager: .openbox)
        _ = try x.startPipcam(["--source", "test"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        var times: [Double] = []
        for _ in 0..<20 {
            let clock = ContinuousClock()
            let started = clock.now
            let r = try x.runPipcam(["status"])
            times.append((clock.now - started).seconds * 1000)
            #expect(r.succeeded, "\(r)")
        }
        times.sort()
        let median = (times[9] + times[10]) / 2
        print(String(format: "pipcam status round trip (whole process): median %.1f ms, max %.1f ms of 20", median, times[19]))
        #expect(median < 1000, "replies well within the 1 s the client waits")
    }

    /// pipcam reading `format:FIFO` from a FIFO nobody writes to yet, once it waits for a writer.
    func startWaitingForAWriter(_ x: XServer, format: String, options: [String] = []) throws -> (RunningProcess, fifo: String) {
        let fifo = x.directory + "/late.\(format)"
        #expect(mkfifo(fifo, 0o600) == 0)
        let p = try x.startPipcam(["--source", "\(format):\(fifo)"] + options)
        try waitUntilWaitingForAWriter(p)
        return (p, fifo)
    }

    /// While its source starts (a FIFO nobody writes to yet) the instance answers: `status` says
    /// it shows nothing yet and names the source as given, `toggle` decides that PiP starts once
    /// frames come. Before, every command timed out with exit 1 and the toggle was lost. The main
    /// window comes up too (this is no `--pip` start): stopping PiP leaves pipcam running.
    @Test func commandsWhileTheSourceStartsAreAnsweredAndKept() throws {
        let x = try XServer(windowManager: .none)
        let (p, fifo) = try startWaitingForAWriter(x, format: "mjpeg")
        let (idle, text) = try x.pipcamStatus()
        #expect(idle["state"] as? String == "idle" && idle["camera"] as? String == "waiting", "\(text)")
        #expect(idle["source"] as? String == "mjpeg:\(fifo)", "the source as given: \(text)")
        #expect(try x.runPipcam(["toggle"]).succeeded)
        #expect(try x.pipcamStatus().object["state"] as? String == "starting")
        let clip = try TestMedia.mjpeg(width: 160, height: 120, frames: 30)
        try x.startStalledWriter(into: fifo, from: clip)
        let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture")
        try waitUntil("PiP is up", timeout: .seconds(5)) { try x.isViewable(pip) }
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        #expect(try x.isViewable(main), "the main window shows too")
        #expect(try x.runPipcam(["stop"]).succeeded)
        try waitUntil("PiP stops", timeout: .seconds(5)) { try !x.isViewable(pip) }
        #expect(p.isRunning, "stopping PiP does not end a pipcam with a main window")
        #expect(try x.runPipcam(["quit"]).succeeded)
        #expect(try p.wait(timeout: .seconds(5)).termination == .exited(0))
    }

    /// `quit`, SIGTERM or SIGINT while the source starts end pipcam at once, with 0, and with
    /// `--stats` the line docs/BEHAVIOUR.md promises at exit: nothing shown, the camera waiting.
    @Test(arguments: ["quit", "SIGTERM", "SIGINT"])
    func endingPipcamWhileTheSourceStarts(how: String) throws {
        let x = try XServer(windowManager: .none)
        let (p, _) = try startWaitingForAWriter(x, format: "y4m", options: ["--stats", "--pip"])
        _ = try x.pipcamStatus()  // the start-up server answers: the signal comes while it runs
        switch how {
        case "quit":
            let quit = try x.runPipcam(["quit"])
            #expect(quit.succeeded, "\(quit)")
        default:
            p.send(how == "SIGINT" ? SIGINT : SIGTERM)
        }
        let result = try p.wait(timeout: .seconds(2))
        #expect(result.termination == .exited(0), "\(result)")
        #expect(result.stderrText == "pipcam: state=starting camera=waiting fps=0.00 shown=0 dropped=0 latency_p50_ms=0.00 latency_p99_ms=0.00 cpu_ms_per_frame=0.00\n",
                "\(result.stderrText)")
    }
}
