import Foundation
import Glibc
import TestSupport
import Testing

/// What any other client on the display may do to pipcam's windows (docs/BEHAVIOUR.md, "Window
/// sizes" and "Control channel"): claim huge or zero sizes, send junk, destroy the control window,
/// take its selection. pipcam stays responsive (status answers, SIGTERM ends it with 0 within a
/// second), its memory stays bounded, and control comes back.
@Suite struct HostileClientTests {
    static let script = Pipcam.packageRoot + "/Tests/Embedders/x-hostile.py"
    /// Far below what a 65535×65535 image pair would take (~34 GB), well above pipcam's ~20–30 MB.
    static let rssLimitKB = 60 * 1024

    /// pipcam with its main window (PiP window made, not shown) under no window manager.
    static func start(_ x: XServer, _ extra: [String] = []) throws -> (RunningProcess, main: XWindowID, pip: XWindowID) {
        let p = try x.startPipcam(["--source", "test"] + extra)
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
        try Self.expectStatusAnswers(x)
        return (p, main, pip)
    }

    /// Status answers (within a few tries: a loaded machine can miss the client's 1 s once; a
    /// pipcam busy for good, as one converting into 65535×65535 images was, never answers).
    static func expectStatusAnswers(_ x: XServer) throws {
        _ = try poll(timeout: .seconds(5), what: "pipcam status to answer") { try? x.pipcamStatus() }
    }

    static func hostile(_ x: XServer, _ arguments: [String], timeout: Duration = .seconds(30)) throws {
        try runChecked(["python3", script] + arguments, environment: x.environment, timeout: timeout)
    }

    static func residentKB(_ p: RunningProcess, _ field: String = "VmRSS") throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(p.pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw HarnessError("no \(field) for \(p)") }
        return kb
    }

    /// The control window: the one window of class pipcam titled "pipcam control".
    static func controlWindow(_ x: XServer) throws -> XWindowID {
        let found = try x.run(["xdotool", "search", "--classname", "--name", "^pipcam control$"])
        let ids = found.stdoutText.split(separator: "\n").compactMap { XWindowID(String($0)) }
        guard ids.count == 1 else { throw HarnessError("control windows: \(ids)") }
        return ids[0]
    }

    /// SIGTERM ends it with 0 within a second, whatever it was doing.
    static func expectQuickCleanExit(_ p: RunningProcess) throws {
        #expect(p.isRunning, "pipcam ended early: \(p.stderrText)")
        let clock = ContinuousClock()
        let sent = clock.now
        p.send(SIGTERM)
        let result = try p.wait(timeout: .seconds(5))
        #expect(clock.now - sent < .seconds(1), "SIGTERM took \(clock.now - sent)")
        #expect(result.exitCode == 0, "\(result)")
    }

    /// A forged ConfigureNotify of 65535×65535 (or 0×0) on the main and PiP windows changes
    /// nothing: no window or image is resized by what a client merely claims.
    @Test(arguments: [(65535, 65535), (0, 0)])
    func aForgedConfigureNotifyResizesNothing(size: (Int, Int)) throws {
        let x = try makeServer()
        let (p, main, pip) = try Self.start(x)
        let before = try x.geometry(of: main)
        for w in [main, pip] { try Self.hostile(x, ["configure", "\(w)", "\(size.0)", "\(size.1)"]) }
        try x.waitForPipcamToCatchUp(main)
        try Self.expectStatusAnswers(x)
        #expect(try Self.residentKB(p) < Self.rssLimitKB)
        #expect(try x.geometry(of: main) == before)
        try Self.expectQuickCleanExit(p)
    }

    /// A window really made 65535×65535 (`xdotool windowsize`, no window manager to clamp it) is
    /// drawn only where it is on the screen: memory stays bounded, the picture shows there, status
    /// answers; back to a small size, the images shrink with it.
    @Test func aHugeRealWindowDrawsOnlyTheScreenAndShrinksBack() throws {
        let x = try makeServer()
        let (p, main, _) = try Self.start(x)
        try x.runChecked(["xdotool", "windowmove", "\(main)", "0", "0"])
        try x.runChecked(["xdotool", "windowsize", "\(main)", "65535", "65535"])
        try waitUntil("the window is 65535 wide", timeout: .seconds(5)) { try x.geometry(of: main).width == 65535 }
        try x.waitForPipcamToCatchUp(main)
        try Self.expectStatusAnswers(x)
        #expect(try Self.residentKB(p) < Self.rssLimitKB)
        // The whole screen is the window's top-left part: the pattern shows there.
        let shot = try poll(timeout: .seconds(5), what: "the screen to show the picture") {
            let shot = try x.screenshot(XRect(x: 0, y: 0, width: x.width, height: x.height))
            return shot.distinctColorCount >= 8 ? shot : nil
        }
        #expect(shot.meanColor().red + shot.meanColor().green + shot.meanColor().blue > 60)

        try x.runChecked(["xdotool", "windowsize", "\(main)", "320", "180"])
        try waitUntil("the window is small again", timeout: .seconds(5)) { try x.geometry(of: main).width == 320 }
        try x.waitForPipcamToCatchUp(main)
        // Two 320×180 images are 0.46 MB; two of the 1280×720 screen were 7.4 MB.
        try waitUntil("shared memory back to the small window's", timeout: .seconds(5)) {
            try Self.residentKB(p, "RssShmem") < 3 * 1024
        }
        try Self.expectQuickCleanExit(p)
    }

    /// Junk ClientMessages and property changes on every pipcam window: it keeps answering and
    /// ends cleanly.
    @Test func junkOnEveryWindowLeavesItResponsive() throws {
        let x = try makeServer()
        let (p, main, pip) = try Self.start(x)
        let control = try Self.controlWindow(x)
        for (seed, w) in [main, pip, control].enumerated() {
            try Self.hostile(x, ["garbage", "\(w)", "3000", "\(seed + 1)"])
        }
        try Self.expectStatusAnswers(x)
        #expect(try Self.residentKB(p) < Self.rssLimitKB)
        try Self.expectQuickCleanExit(p)
    }

    /// SIGTERM in the middle of a flood of junk still ends it within a second.
    @Test func sigtermDuringAFloodEndsItQuickly() throws {
        let x = try makeServer()
        let (p, main, _) = try Self.start(x)
        let flood = try x.start(["python3", Self.script, "garbage", "\(main)", "200000", "7"])
        Thread.sleep(forTimeInterval: 0.5)
        #expect(flood.isRunning, "the flood is still going when the signal comes")
        try Self.expectQuickCleanExit(p)
    }

    /// The control window destroyed by another client: a new one takes the selection back at
    /// once, says so in one line, and a second pipcam is still refused.
    /// Requests through the X selection from any client: one with no parameter is refused, one too
    /// long is told so, one that is no request (a source that is none, standard input, bytes that
    /// are no text) is told so; one whose requestor is gone before the answer is still carried out,
    /// and answering the vanished window hurts nothing.
    @Test func requestsFromAnyClientAreAnsweredOrRefused() throws {
        let x = try XServer()
        let (p, _, _) = try Self.start(x)
        func convert(_ parameter: String, _ extra: [String] = []) throws -> String {
            let result = try runChecked(["python3", Self.script, "convert", "_PIPCAM_S0", "_PIPCAM_REQUEST", parameter] + extra,
                                        environment: x.environment, timeout: .seconds(30))
            return result.stdoutText.trimmingCharacters(in: .newlines)
        }
        let noRequest = "answered failed|pipcam: not a request pipcam knows"
        #expect(try convert("-") == "refused")
        #expect(try convert("big:5000") == "answered failed|pipcam: the request is longer than 4096 bytes, the most pipcam reads")
        #expect(try convert("big:4097") == "answered failed|pipcam: the request is longer than 4096 bytes, the most pipcam reads")
        #expect(try convert("hex:fffe00") == noRequest)
        #expect(try convert("switch\nsource\nbogus:x") == noRequest)
        #expect(try convert("switch\nsource\ny4m:-") == noRequest)
        #expect(try convert("toggle\n") == noRequest)
        #expect(try convert("switch\nsource\ntest") == "answered done|")
        #expect(try convert("switch\nsource\ntest", ["vanish"]) == "vanished")
        try waitUntil("the switch with no one to answer is made", timeout: .seconds(5)) {
            p.stderrText.isEmpty && (try? x.pipcamStatus().object["source"] as? String) == "test"
        }
        #expect(try x.runPipcam(["switch", "test"]).exitCode == 0, "switching works on")
        try Self.expectQuickCleanExit(p)
    }

    @Test func controlComesBackAfterItsWindowIsDestroyed() throws {
        let x = try makeServer()
        let (p, _, _) = try Self.start(x)
        let control = try Self.controlWindow(x)
        try x.runChecked(["xdotool", "windowclose", "\(control)"])
        let status = try poll(timeout: .seconds(3), what: "status to answer again") { try? x.pipcamStatus() }
        #expect(status.object["source"] as? String == "test")
        #expect(try Self.controlWindow(x) != control)
        #expect(p.stderrText.contains("pipcam: another program destroyed the control window; _PIPCAM_S0 taken back with a new one\n"),
                "stderr: \(p.stderrText)")
        let second = try x.runPipcam(["--source", "test"])
        #expect(second.exitCode == 1, "\(second)")
        try Self.expectQuickCleanExit(p)
    }

    /// The selection taken by another client: while it holds it, commands through X reach that
    /// client (status fails), those through the control socket still reach pipcam, and a second
    /// pipcam is refused; once it lets go — by ending, or by setting no owner and staying — pipcam
    /// takes the selection back.
    @Test(arguments: [false, true])
    func controlComesBackWhenTheClientHoldingItLetsGo(releasesAndStays: Bool) throws {
        let x = try makeServer()
        let (p, _, _) = try Self.start(x)
        let thief = try x.start(["python3", Self.script, "steal", "_PIPCAM_S0", "3"] + (releasesAndStays ? ["release"] : []))
        _ = try thief.waitForOutput(containing: "stolen", inStderr: false, timeout: .seconds(5))
        try waitUntil("pipcam says it lost the selection", timeout: .seconds(3)) {
            p.stderrText.contains("pipcam: another program took over _PIPCAM_S0;")
        }
        #expect(try !x.runPipcamOverX(["status"]).succeeded, "status goes to the client holding the selection")
        #expect(try x.runPipcam(["status"]).succeeded, "the socket still reaches pipcam")
        #expect(try x.runPipcam(["--source", "test"]).exitCode == 1, "a second pipcam is still refused")

        let status = try poll(timeout: .seconds(6), what: "status to answer again through X") {
            try? x.runPipcamOverX(["status"]).succeeded ? x.runPipcamOverX(["status"]).stdoutText : nil
        }
        #expect(status.contains("\"source\":\"test\""), "\(status)")
        #expect(p.stderrText.contains("pipcam: took back _PIPCAM_S0; control commands reach this pipcam again\n"),
                "stderr: \(p.stderrText)")
        if releasesAndStays { #expect(thief.isRunning, "the selection came back while its last holder still runs") }
        let toggle = try x.runPipcamOverX(["toggle"])
        #expect(toggle.succeeded, "\(toggle)")
        try Self.expectQuickCleanExit(p)
    }
}
