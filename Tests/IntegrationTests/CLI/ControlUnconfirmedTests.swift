import Foundation
import Glibc
import TestSupport
import Testing

/// A command sent to an instance that does not answer in time (stopped, or far behind) is not
/// lost: it runs when the instance goes on. The client says so, instead of reporting a failure,
/// and exits 1 (docs/BEHAVIOUR.md, "Exit status").
@Suite struct ControlUnconfirmedTests {
    /// A pipcam that answered once, then stopped (SIGSTOP); the caller sends SIGCONT.
    static func stoppedInstance() throws -> (XServer, RunningProcess) {
        let x = try XServer()
        let p = try x.startPipcam(["--source", "test"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        try waitUntil("pipcam answers", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        p.send(SIGSTOP)
        return (x, p)
    }

    @Test func quitToAStoppedInstanceIsSentNotYetConfirmed() throws {
        let (x, p) = try Self.stoppedInstance()
        defer { p.send(SIGCONT) }
        let quit = try x.runPipcam(["quit"])
        #expect(quit.exitCode == 1, "\(quit)")
        #expect(quit.stderrText == "pipcam: quit sent, not yet confirmed (the pipcam on \(x.display) did not answer within 3 s)\n", "\(quit)")
        #expect(quit.stdout.isEmpty)
        p.send(SIGCONT)
        #expect(try p.wait(timeout: .seconds(5)).termination == .exited(0), "the quit runs once the instance goes on")
    }

    @Test(arguments: ["toggle", "start"])
    func pipCommandToAStoppedInstanceIsSentNotYetConfirmed(command: String) throws {
        let (x, p) = try Self.stoppedInstance()
        defer { p.send(SIGCONT) }
        let r = try x.runPipcam([command])
        #expect(r.exitCode == 1, "\(r)")
        #expect(r.stderrText == "pipcam: \(command) sent, not yet confirmed (the pipcam on \(x.display) did not answer within 3 s)\n", "\(r)")
        p.send(SIGCONT)
        try waitUntil("the \(command) runs once the instance goes on", timeout: .seconds(5)) {
            try x.pipcamStatus().object["state"] as? String == "active"
        }
        #expect(p.isRunning)
    }

    /// Another client asked through X and went before its refusal came; the server may give its
    /// window id to the next client. That refusal, carrying the other request's time, is not
    /// taken for the next client's answer.
    @Test func aLateAnswerToAClientThatWentIsNotTheNextOnes() throws {
        let (x, p) = try Self.stoppedInstance()
        defer { p.send(SIGCONT) }
        let script = Pipcam.packageRoot + "/Tests/Embedders/x-hostile.py"
        for _ in 0..<3 {
            // No parameter: refused, once the instance goes on.
            let gone = try x.run(["python3", script, "convert", "_PIPCAM_S0", "_PIPCAM_REQUEST", "-", "vanish"], timeout: .seconds(10))
            #expect(gone.stdoutText == "vanished\n", "\(gone)")
        }
        var environment = x.environment
        environment["XDG_RUNTIME_DIR"] = nil
        let toggle = try RunningProcess([Pipcam.binaryPath(), "toggle"], environment: environment)
        Thread.sleep(forTimeInterval: 0.5)
        p.send(SIGCONT)
        let r = try toggle.wait(timeout: .seconds(10))
        #expect(r.exitCode == 0 && r.stderrText.isEmpty, "\(r)")
        try waitUntil("PiP starts", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "active" }
    }
}
