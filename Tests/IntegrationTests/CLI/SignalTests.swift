import Foundation
import Glibc
import TestSupport
import Testing

/// The signal rules of docs/BEHAVIOUR.md ("Signals"): SIGINT, SIGTERM and SIGHUP end pipcam
/// cleanly with 0 whenever they come, SIGUSR1, SIGUSR2, SIGALRM and SIGPIPE are ignored.
@Suite struct SignalTests {
    /// A SIGTERM sent as soon as pipcam catches it — before it has parsed its arguments, opened
    /// the display or made its loop — still ends it with 0 and the stats line promised at exit.
    /// (Sent before the process reaches its first line, while the dynamic loader runs, a signal
    /// kills any program: that first millisecond or so is no part of this test.)
    @Test func sigtermAsSoonAsPipcamCatchesItExitsZero() throws {
        let x = try XServer()
        var outcomes: [String] = []
        for _ in 0..<20 {
            let p = try x.startPipcam(["--source", "test", "--stats"])
            try waitUntilCatching(SIGTERM, pid: p.pid)
            p.send(SIGTERM)
            let result = try p.wait(timeout: .seconds(10))
            let lines = result.stderrText.split(separator: "\n")
            let ok = result.termination == .exited(0) && lines.last?.hasPrefix("pipcam: state=") == true
            outcomes.append(ok ? "ok" : "\(result.termination) \(result.stderrText.suffix(300))")
        }
        #expect(outcomes.allSatisfy { $0 == "ok" }, "\(outcomes.filter { $0 != "ok" })")
    }

    /// Spins (the moment matters) until process `pid` has a handler for `signal`, as the SigCgt
    /// mask in /proc/PID/status says.
    func waitUntilCatching(_ signal: Int32, pid: pid_t) throws {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while clock.now < deadline {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
                let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16),
                mask & (1 << UInt64(signal - 1)) != 0
            {
                return
            }
        }
        throw HarnessError("process \(pid) never caught signal \(signal)")
    }

    /// SIGHUP (the terminal closed) ends pipcam as SIGTERM does: exit 0 through the normal
    /// shutdown, which prints the final stats line.
    @Test func sighupEndsCleanlyWithZero() throws {
        let x = try XServer()
        let p = try x.startPipcam(["--source", "test", "--stats"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        try p.waitForOutput(containing: "pipcam: state=")
        p.send(SIGHUP)
        let result = try p.wait(timeout: .seconds(5))
        #expect(result.termination == .exited(0), "\(result)")
        #expect(result.stderrText.split(separator: "\n").count >= 2, "a stats line at exit too: \(result.stderrText)")
    }

    /// SIGUSR1, SIGUSR2, SIGALRM and SIGPIPE do nothing: pipcam runs on and answers `status`.
    @Test func otherSignalsAreIgnored() throws {
        let x = try XServer()
        let p = try x.startPipcam(["--source", "test"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        try waitUntil("pipcam answers", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        for signal in [SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE] {
            p.send(signal)
            let status = try x.runPipcam(["status"])
            #expect(status.succeeded, "after signal \(signal): \(status)")
            #expect(p.isRunning, "signal \(signal) ended pipcam: \(String(describing: p.termination))")
        }
        p.send(SIGTERM)
        #expect(try p.wait(timeout: .seconds(5)).termination == .exited(0))
    }
}
