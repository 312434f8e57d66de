import Foundation
import Glibc
import PipWindow
import TestSupport

/// The steps the scenarios share: pipcam started, streaming, ended; the camera's controls.
extension ScenarioRun {
    /// Starts `pipcam ARGUMENTS` as the scenario's `pipcam` (its stats lines are checked at the end).
    func startPipcam(_ arguments: [String], environment extra: [String: String] = [:]) throws -> StampedProcess {
        try start("pipcam", [pipcam] + arguments, environment: extra)
    }

    /// Waits (up to `seconds`) for a stats line with shown >= 5, or pipcam's end; fails if neither.
    func waitForFiveFrames(_ pipcam: StampedProcess, within seconds: Double = 40) throws {
        guard try wait(seconds, until: { pipcam.shown(atLeast: 5) || pipcam.hasExited }) else {
            try aliveOrFail(pipcam, "while starting")
            throw HarnessError("no stats line with shown>=5 within \(Int(seconds)) s (last: \(pipcam.lastStatsText))")
        }
    }

    /// `pipcam --pip --source CAMERA --size SIZE --stats EXTRA…`, once it showed 5 frames.
    func startStreaming(
        source: String = VMDevices.camera, size: String = VMDevices.size, _ extra: [String] = []
    ) throws -> StampedProcess {
        let pipcam = try startPipcam(["--pip", "--source", source, "--size", size, "--stats"] + extra)
        try waitForFiveFrames(pipcam)
        return pipcam
    }

    /// The last stats line and its stamp once a line came at or after `after` (waiting up to
    /// `within` s; without one, the last line there is); fails with pipcam's end (`what`: the
    /// situation) if it ended, or when it printed no stats line at all.
    @discardableResult
    func statsLine(of pipcam: StampedProcess, after: Double, within seconds: Double, _ what: String) throws
        -> (time: Double, stats: StatsLine)
    {
        _ = try wait(seconds, until: { pipcam.firstStats(after: after) != nil || pipcam.hasExited })
        try aliveOrFail(pipcam, what)
        guard let last = pipcam.lastStampedStats else { throw HarnessError("\(what): no stats line") }
        return last
    }

    /// Fails with pipcam's exit code and last words if it has exited.
    func aliveOrFail(_ pipcam: StampedProcess, _ what: String) throws {
        if let code = pipcam.exitCode {
            throw HarnessError("\(what): pipcam exited with \(code): \(pipcam.lastMessage)")
        }
    }

    /// SIGTERM to pipcam (`pid`: the one traced when it runs under strace): it must exit 0 within
    /// 10 s and leave `device` free for another process to stream from.
    func sigtermAndCheckReleased(_ pipcam: StampedProcess, pid: pid_t? = nil, device: String = VMDevices.camera) throws {
        let t0 = GuestClock.now()
        kill(pid ?? pipcam.pid, SIGTERM)
        guard try wait(10, until: { pipcam.hasExited }) else { throw HarnessError("pipcam did not exit within 10 s of SIGTERM") }
        metric("sigterm_to_exit_s", seconds: GuestClock.elapsed(t0, pipcam.exitTime ?? t0))
        guard pipcam.exitCode == 0 else { throw HarnessError("SIGTERM: exit \(pipcam.exitCode ?? -1), expected 0") }
        let result = try streamThreeFrames(from: device, log: "after-release.txt")
        guard result.streamed else {
            throw HarnessError("camera not released: v4l2-ctl --stream-mmap --stream-count=3 after pipcam's exit failed: \(lastLine(result.output))")
        }
    }

    /// `v4l2-ctl --stream-mmap --stream-count=3` on `device` (30 s at most), its output in `log`:
    /// whether three frames came. v4l2-ctl exits 0 when the device refuses it too (REQBUFS busy),
    /// so the bytes it wrote out are what count.
    func streamThreeFrames(from device: String, log: String) throws -> (streamed: Bool, output: String) {
        let frames = NSTemporaryDirectory() + "/three-frames-\(getpid()).raw"
        defer { try? FileManager.default.removeItem(atPath: frames) }
        let result = try run(["v4l2-ctl", "-d", device, "--stream-mmap", "--stream-count=3", "--stream-to=\(frames)"], timeout: 30)
        let output = result.stdoutText + result.stderrText
        write(log, output)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: frames)[.size] as? Int) ?? 0
        return (result.succeeded && bytes > 0, output)
    }

    /// Shown keeps growing for real (by 3 within 10 s, live), not a stale last line.
    func keepsShowing(_ pipcam: StampedProcess, _ what: String) throws {
        let s0 = pipcam.lastStats?.shown ?? 0
        try waitForStreaming(
            pipcam, shownAtLeast: s0 + 3, after: GuestClock.now(), within: 10, what,
            "\(what): shown stopped growing (from \(s0); last: \(pipcam.lastStatsText))")
    }

    /// Waits (up to `seconds`) for a live stats line at or after `after` with shown >= `count`,
    /// and returns the stamp of the first live line at or after `after` (when frames flowed again).
    /// If none comes: fails with pipcam's end (`what`) if it ended, else with `failure`.
    @discardableResult
    func waitForStreaming(
        _ pipcam: StampedProcess, shownAtLeast count: Int, after: Double, within seconds: Double, _ what: String,
        _ failure: @autoclosure () -> String
    ) throws -> Double {
        guard try wait(seconds, until: { pipcam.streaming(shownAtLeast: count, after: after) != nil }) else {
            try aliveOrFail(pipcam, what)
            throw HarnessError(failure())
        }
        return pipcam.firstStats(after: after) { $0.isLive }?.time ?? after
    }

    /// `v4l2-ctl -d DEVICE ARGUMENTS` from another process, logged to `v4l2-ctl.txt`; fails if it fails.
    func v4l2ctl(_ arguments: [String], device: String = VMDevices.camera) throws {
        let result = try run(["v4l2-ctl", "-d", device] + arguments)
        append("v4l2-ctl.txt", result.stdoutText + result.stderrText)
        guard result.succeeded else {
            throw HarnessError("v4l2-ctl \(arguments.joined(separator: " ")) failed: \(lastLine(result.stdoutText + result.stderrText))")
        }
    }

    /// Lowers vivid's frame rate to 10 fps under the streaming pipcam (S_PARM from another
    /// process), so that vivid is never late under TCG: no natural drops to blur the counting.
    func slowDown(_ pipcam: StampedProcess) throws {
        try v4l2ctl(["--set-parm=10"])
        if let parm = try? run(["v4l2-ctl", "-d", VMDevices.camera, "--get-parm"]) { append("v4l2-ctl.txt", parm.stdoutText) }
        let t = GuestClock.now()
        try statsLine(of: pipcam, after: t + 1.5, within: 10, "after S_PARM")
    }

    /// Holds `device` open in a third process ("plug"), so that an unplugged vivid stays unplugged
    /// until it ends (vivid re-registers the node when its last handle closes).
    func startPlug(_ device: String = VMDevices.camera) throws -> StampedProcess {
        let plug = try start("plug", ["bash", "-c", "exec 7<\"$0\" && exec sleep 600", device])
        guard try wait(10, until: { V4L2Queries.holds(plug.pid, device) }) else { throw HarnessError("could not hold \(device) open") }
        return plug
    }

    /// The stamp of vivid's "reconnect" after `after` (the last handle of the unplugged node closed).
    func waitForReconnect(after: Double) throws -> Double {
        var found: Double?
        guard try wait(10, until: {
            found = try? GuestClock.kernelMessage("vivid-000: reconnect", after: after)
            return found != nil
        }), let stamp = found else {
            throw HarnessError("vivid did not reconnect when the last handle closed (is pipcam holding one?)")
        }
        return stamp
    }

    /// Waits (up to `seconds`) for a stats line at or after `after` whose camera is `camera`;
    /// returns its stamp, or fails saying so (`what`: the situation; `since`: the event waited from).
    func waitForCamera(
        _ camera: String, _ pipcam: StampedProcess, after: Double, within seconds: Double, _ what: String, since: String? = nil
    ) throws -> Double {
        var found: Double?
        guard try wait(seconds, until: {
            found = pipcam.firstStats(after: after) { "\($0.camera)" == camera }?.time
            return found != nil
        }), let stamp = found else {
            try aliveOrFail(pipcam, what)
            throw HarnessError("no stats line with camera=\(camera) within \(Int(seconds)) s\(since.map { " of \($0)" } ?? "") (last: \(pipcam.lastStatsText))")
        }
        return stamp
    }

    /// `pipcam status` parsed; fails with its output when it does not answer with JSON.
    func status() throws -> [String: Any] {
        try x.pipcamStatus(name: nil).object
    }

    /// `pipcam status` as printed (stdout and stderr), for failure messages.
    func statusText() -> String {
        guard let result = try? run([pipcam, "status"]) else { return "(no answer)" }
        return (result.stdoutText + result.stderrText).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `pipcam COMMAND…` (a control command) must exit 0; fails with `what` and its output.
    func control(_ command: [String], _ what: String, timeout: Double = 30) throws {
        let result = try run([pipcam] + command, timeout: timeout)
        guard result.succeeded else { throw HarnessError("\(what): \(lastLine(result.stderrText + result.stdoutText))") }
    }

    /// The pipcam process running under `tracer` (strace), once it runs.
    func tracedPipcam(under tracer: StampedProcess) throws -> pid_t {
        var found: pid_t?
        guard try wait(10, until: {
            found = Self.children(of: tracer.pid).first { Self.command(of: $0) == "pipcam" }
            return found != nil
        }), let pid = found else { throw HarnessError("no pipcam process under strace") }
        return pid
    }

    private static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && pid_t(fields[1]) == parent
        }
    }

    private static func command(of pid: pid_t) -> String {
        ((try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
