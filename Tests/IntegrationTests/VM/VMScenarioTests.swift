import Foundation
import Glibc
import TestSupport
import Testing
import PipWindow

/// The real-driver tier (docs/TESTING.md, "The real-driver tier"): the release pipcam against the
/// kernel's vivid webcam (and v4l2loopback's virtual cameras) inside the QEMU guest that
/// scripts/vm-test boots. On only there (`PIPCAM_VM_GUEST`); one scenario at a time, each on a
/// freshly loaded vivid, its logs in `OUT/NAME/`. The share and switch scenarios are in
/// VMShareScenarioTests.swift.
@Suite(.enabled(if: VMTier.enabled), .serialized, .vmGuest)
struct VMScenarioTests {
    static let camera = VMDevices.camera
    static let size = VMDevices.size

    @Test(.enabled(if: VMTier.runs(.listCameras)), .timeLimit(VMScenario.listCameras.timeLimit))
    func listCameras() {
        runScenario(.listCameras) { run in
            let result = try run.run([run.pipcam, "--list-cameras"], timeout: 30)
            run.write("list.txt", result.stdoutText)
            run.write("list.err", result.stderrText)
            guard result.succeeded else {
                let code = result.exitCode.map(String.init) ?? "\(result.termination)"
                throw HarnessError("--list-cameras exited \(code): \(lines(of: result.stderrText).first ?? "")")
            }
            let listed = lines(of: result.stdoutText)
            guard listed.contains(where: { $0.hasPrefix("\(Self.camera): ") && $0.hasSuffix("(vivid)") }) else {
                throw HarnessError("no '\(Self.camera): ... (vivid)' line in: \(listed.first ?? "")")
            }
            guard listed.contains(where: { $0.contains(/^  YUYV .*(?:^| )640x360(?: |;|$)/) }) else {
                throw HarnessError("no YUYV line with 640x360: \(listed.first { $0.contains("YUYV") } ?? "")")
            }
        }
    }

    @Test(.enabled(if: VMTier.runs(.streamFrames)), .timeLimit(VMScenario.streamFrames.timeLimit))
    func streamFrames() {
        runScenario(.streamFrames) { run in
            let t0 = GuestClock.now()
            let pipcam = try run.startPipcam(["--pip", "--source", Self.camera, "--size", Self.size, "--stats", "--frames", "30"])
            guard try run.wait(60, until: { pipcam.hasExited }) else {
                throw HarnessError("--frames 30 did not exit within 60 s (last: \(pipcam.lastStatsText))")
            }
            guard pipcam.exitCode == 0 else { throw HarnessError("exit \(pipcam.exitCode ?? -1), expected 0: \(pipcam.lastMessage)") }
            guard let line = pipcam.lastStats else { throw HarnessError("no stats line on stderr") }
            guard line.shown == 30 else { throw HarnessError("last stats line says shown=\(line.shown), expected 30: \(line)") }
            guard line.isLive else { throw HarnessError("last stats line says camera=\(line.camera): \(line)") }
            run.metric("fps", String(format: "%.2f", line.fps))
            run.metric("run_s", seconds: GuestClock.elapsed(t0, pipcam.exitTime ?? t0))
        }
    }

    @Test(.enabled(if: VMTier.runs(.defaultSource)), .timeLimit(VMScenario.defaultSource.timeLimit))
    func defaultSource() {
        runScenario(.defaultSource) { run in
            let pipcam = try run.startPipcam(["--pip", "--size", Self.size, "--stats"])
            guard try run.wait(40, until: { pipcam.shown(atLeast: 5) }) else {
                try run.aliveOrFail(pipcam, "while starting")
                throw HarnessError("no stats line with shown>=5 within 40 s")
            }
            if let notice = pipcam.firstLine(containing: "no camera found") { throw HarnessError("pipcam found no camera: \(notice.text)") }
            guard V4L2Queries.holds(pipcam.pid, Self.camera) else {
                let nodes = V4L2Queries.openFiles(of: pipcam.pid).count(where: { $0.hasPrefix("/dev/video") })
                throw HarnessError("pipcam does not hold \(Self.camera) open (fds: \(nodes) video nodes)")
            }
            let camera = pipcam.lastStats.map { "\($0.camera)" } ?? ""
            guard pipcam.lastStats?.isLive == true else { throw HarnessError("camera=\(camera), expected streaming") }
            try run.sigtermAndCheckReleased(pipcam)
        }
    }

    @Test(.enabled(if: VMTier.runs(.sigtermRelease)), .timeLimit(VMScenario.sigtermRelease.timeLimit))
    func sigtermRelease() {
        runScenario(.sigtermRelease) { run in
            let pipcam = try run.startStreaming()
            try run.requireWindow("streaming")
            try run.sigtermAndCheckReleased(pipcam)
        }
    }

    /// Another application streams first (v4l2-ctl, which prints its rate once a second);
    /// returns it once it does.
    private func startHolder(_ run: ScenarioRun) throws -> StampedProcess {
        let holder = try run.start("holder", ["v4l2-ctl", "-d", Self.camera, "--stream-mmap"])
        guard try run.wait(20, until: { holder.firstLine(containing: " fps") != nil }) else {
            throw HarnessError("v4l2-ctl --stream-mmap did not start streaming: \(holder.lines.last?.text ?? "")")
        }
        return holder
    }

    /// pipcam started while the holder has the camera, once it says so (camera=interrupted:in-use).
    private func startWaitingPipcam(_ run: ScenarioRun) throws -> (pipcam: StampedProcess, started: Double, inUse: Double) {
        let started = GuestClock.now()
        let pipcam = try run.startPipcam(["--pip", "--source", Self.camera, "--size", Self.size, "--stats"])
        let inUse = try run.waitForCamera("interrupted:in-use", pipcam, after: started, within: 20, "camera held by another process")
        return (pipcam, started, inUse)
    }

    @Test(.enabled(if: VMTier.runs(.inUseWait)), .timeLimit(VMScenario.inUseWait.timeLimit))
    func inUseWait() {
        runScenario(.inUseWait) { run in
            // Another application streams first; pipcam must wait for it, not give up.
            let holder = try startHolder(run)
            let (pipcam, started, inUse) = try startWaitingPipcam(run)
            run.metric("start_to_in_use_s", seconds: GuestClock.elapsed(started, inUse))
            // One line names who holds the camera.
            guard pipcam.firstLine(containing: "in use by another application (v4l2-ctl, pid ") != nil else {
                throw HarnessError("no stderr line naming the holder v4l2-ctl: \(pipcam.firstLine(containing: "in use")?.text ?? "none")")
            }
            // So does the status (the window's notice draws the same text).
            let named = (try? run.status())?["holder"] as? String ?? ""
            guard named == "v4l2-ctl, pid \(holder.pid)" else {
                throw HarnessError("status names the holder '\(named)', expected 'v4l2-ctl, pid \(holder.pid)'")
            }
            // Stays up and keeps saying so while the other process streams.
            let check = GuestClock.now()
            guard try run.wait(10, until: { pipcam.firstStats(after: check + 2) { $0.camera == .interrupted(.inUse) } != nil }) else {
                try run.aliveOrFail(pipcam, "camera still held")
                throw HarnessError("stats stopped saying interrupted:in-use while the camera was held (last: \(pipcam.lastStatsText))")
            }
            try run.requireWindow("camera in use")
            try run.stop(holder, "v4l2-ctl holder did not exit")
            let freed = holder.exitTime ?? GuestClock.now()
            let streaming = try run.waitForStreaming(
                pipcam, shownAtLeast: 1, after: freed, within: 15, "after the camera was freed",
                "no camera=streaming stats line within 15 s of the other process's exit (last: \(pipcam.lastStatsText))")
            let took = GuestClock.elapsed(freed, streaming)
            run.metric("freed_to_streaming_s", seconds: took)
            guard took <= 4 else {
                throw HarnessError("took \(GuestClock.format(took)) s after the camera was freed to stream (contract: ~2 s, allowed 4 s with the 1 s stats period)")
            }
            try run.keepsShowing(pipcam, "after taking the camera")
            try run.sigtermAndCheckReleased(pipcam)
        }
    }

    @Test(.enabled(if: VMTier.runs(.inUseSigterm)), .timeLimit(VMScenario.inUseSigterm.timeLimit))
    func inUseSigterm() {
        runScenario(.inUseSigterm) { run in
            // SIGTERM while waiting for a camera another application holds: exit 0 at once, and
            // the other application streams on undisturbed.
            let holder = try startHolder(run)
            let (pipcam, _, _) = try startWaitingPipcam(run)
            let t0 = GuestClock.now()
            kill(pipcam.pid, SIGTERM)
            guard try run.wait(10, until: { pipcam.hasExited }) else {
                throw HarnessError("pipcam did not exit within 10 s of SIGTERM while waiting for the camera")
            }
            run.metric("sigterm_to_exit_s", seconds: GuestClock.elapsed(t0, pipcam.exitTime ?? t0))
            guard pipcam.exitCode == 0 else { throw HarnessError("SIGTERM while waiting: exit \(pipcam.exitCode ?? -1), expected 0") }
            let t1 = GuestClock.now()
            guard try run.wait(10, until: { holder.firstLine(after: t1 + 1.5, containing: " fps") != nil }) else {
                throw HarnessError("the other application stopped streaming after pipcam's exit: \(holder.lines.last?.text ?? "")")
            }
            if holder.hasExited { throw HarnessError("the other application exited: \(holder.lastMessage)") }
        }
    }

    @Test(.enabled(if: VMTier.runs(.disconnect)), .timeLimit(VMScenario.disconnect.timeLimit))
    func disconnect() {
        runScenario(.disconnect) { run in
            // vivid's USB-unplug emulation: every open handle gets ENODEV/POLLERR, new opens get
            // ENODEV, and vivid re-registers the node ("reconnect" in dmesg) when its last handle
            // closes. A third process ("plug") keeps a handle open, so the camera stays unplugged
            // until it ends: pipcam must say so, close all its handles, keep retrying, and resume
            // after the replug.
            let pipcam = try run.startStreaming()
            try run.requireWindow("streaming, before the disconnect")
            let plug = try run.startPlug()
            let shownBefore = pipcam.lastStats?.shown ?? 0
            let event = GuestClock.now()
            try run.v4l2ctl(["-c", "disconnect=1"])
            let interrupted = try run.waitForCamera(
                "interrupted:disconnected", pipcam, after: event, within: 15, "after disconnect", since: "the disconnect")
            run.metric("event_to_interrupted_s", seconds: GuestClock.elapsed(event, interrupted))
            try run.requireWindow("disconnected")
            guard try run.wait(10, until: { !V4L2Queries.holds(pipcam.pid, Self.camera) }) else {
                throw HarnessError("pipcam still holds \(Self.camera) open 10 s after the disconnect: the device cannot come back")
            }
            run.metric("event_to_handles_closed_s", seconds: GuestClock.elapsed(event, GuestClock.now()))
            // Unplugged for a while: pipcam stays up and keeps saying so.
            let check = GuestClock.now()
            try run.statsLine(of: pipcam, after: check + 3, within: 10, "while unplugged")
            let camera = pipcam.lastStats.map { "\($0.camera)" } ?? ""
            guard camera == "interrupted:disconnected" else {
                throw HarnessError("camera=\(camera) while still unplugged, expected interrupted:disconnected")
            }
            // Replug: the plug's handle was the last one, so vivid reconnects when it ends.
            kill(plug.pid, SIGTERM)
            let replug = try run.waitForReconnect(after: event)
            let back = try run.waitForStreaming(
                pipcam, shownAtLeast: shownBefore + 1, after: replug, within: 30, "after the replug",
                "no camera=streaming stats line with shown>\(shownBefore) within 30 s of the replug (last: \(pipcam.lastStatsText))")
            run.metric("replug_to_streaming_s", seconds: GuestClock.elapsed(replug, back))
            try run.keepsShowing(pipcam, "after the replug")
            try run.sigtermAndCheckReleased(pipcam)
        }
    }

    @Test(.enabled(if: VMTier.runs(.bufFlagError)), .timeLimit(VMScenario.bufFlagError.timeLimit))
    func bufFlagError() {
        runScenario(.bufFlagError) { run in
            // Buffers flagged V4L2_BUF_FLAG_ERROR are dropped and counted; the stream goes on.
            // Under TCG vivid also skips frames by itself (no buffer queued in time), more so
            // while v4l2-ctl processes start, so as many harmless v4l2-ctl calls give the control.
            let pipcam = try run.startStreaming()
            try run.slowDown(pipcam)
            let injected = 20
            // The drops from the stats line before `injected` calls 0.3 s apart (so that no two
            // flags merge into one buffer) to the first line a period after them.
            func press(_ control: String) throws -> Int {
                let d0 = pipcam.lastStats?.dropped ?? 0
                for _ in 0..<injected {
                    try run.v4l2ctl(["-c", control])
                    try run.pause(0.3)
                }
                let t = GuestClock.now()
                return try run.statsLine(of: pipcam, after: t + 1.2, within: 10, "after \(control)").stats.dropped - d0
            }
            let control = try press("brightness=128")
            let withErrors = try press("inject_v4l2_buf_flag_error=1")
            run.metric("dropped_with_\(injected)_harmless_calls", control)
            run.metric("dropped_with_\(injected)_flagged_buffers", withErrors)
            guard withErrors - control >= injected / 2 else {
                throw HarnessError(
                    "dropped grew by \(withErrors) with \(injected) flagged buffers and by \(control) with as many harmless v4l2-ctl calls: flagged buffers not counted")
            }
            guard pipcam.lastStats?.isLive == true else {
                throw HarnessError("camera=\(pipcam.lastStats.map { "\($0.camera)" } ?? "") after flagged buffers, expected streaming")
            }
            try run.keepsShowing(pipcam, "after flagged buffers")
            try run.sigtermAndCheckReleased(pipcam)
        }
    }

    @Test(.enabled(if: VMTier.runs(.droppedBuffers)), .timeLimit(VMScenario.droppedBuffers.timeLimit))
    func droppedBuffers() {
        runScenario(.droppedBuffers) { run in
            // vivid skips half its buffers: sequence gaps, which the stats must count as dropped.
            let pipcam = try run.startStreaming()
            try run.slowDown(pipcam)
            guard let start = pipcam.lastStampedStats else { throw HarnessError("no stats line") }
            let (t1, line1) = try run.statsLine(of: pipcam, after: start.time + 4, within: 10, "baseline")
            let rate = ((Double(line1.dropped - start.stats.dropped) / (t1 - start.time)) * 100).rounded() / 100
            run.metric("natural_drops_per_s", String(format: "%.2f", rate))
            try run.v4l2ctl(["-c", "percentage_of_dropped_buffers=50"])
            let (t2, line2) = try run.statsLine(of: pipcam, after: GuestClock.now() + 6, within: 15, "with 50% dropped buffers")
            let natural = Int((rate * (t2 - t1)).rounded(.toNearestOrEven))
            let dropped = line2.dropped - line1.dropped
            run.metric("dropped_with_50_percent", dropped)
            run.metric("shown_with_50_percent", line2.shown - line1.shown)
            run.metric("expected_natural_drops", natural)
            // Half of ~6 s of frames at 10 fps is ~30 gaps; natural drops are rare at 10 fps.
            guard dropped >= natural + 12 else {
                throw HarnessError(
                    "dropped grew by \(dropped) with 50% of the buffers dropped; natural drops alone would be ~\(natural) (shown \(line1.shown) -> \(line2.shown))")
            }
            guard line2.shown > line1.shown else {
                throw HarnessError("nothing shown with 50% of the buffers dropped (shown \(line1.shown) -> \(line2.shown))")
            }
            guard line2.isLive else {
                throw HarnessError("camera=\(line2.camera) with 50% dropped buffers, expected streaming (or interrupted:pressure)")
            }
            try run.v4l2ctl(["-c", "percentage_of_dropped_buffers=0"])
            let off = GuestClock.now()
            try run.waitForStreaming(
                pipcam, shownAtLeast: line2.shown + 3, after: off, within: 20, "after the drops stopped",
                "not streaming again after the drops stopped (last: \(pipcam.lastStatsText))")
            try run.sigtermAndCheckReleased(pipcam)
        }
    }

    @Test(.enabled(if: VMTier.runs(.fatalStreamError)), .timeLimit(VMScenario.fatalStreamError.timeLimit))
    func fatalStreamError() {
        runScenario(.fatalStreamError) { run in
            // vb2_queue_error: DQBUF fails with EIO (and poll with POLLERR) until the stream is
            // restarted. vivid_debug=1 logs vid_cap_start_streaming, which shows the restart.
            guard let debug = FileHandle(forWritingAtPath: "/sys/module/vivid/parameters/vivid_debug") else {
                throw HarnessError("cannot write /sys/module/vivid/parameters/vivid_debug")
            }
            debug.write(Data("1\n".utf8))
            try debug.close()
            let pipcam = try run.startStreaming()
            let shownBefore = pipcam.lastStats?.shown ?? 0
            let event = GuestClock.now()
            try run.v4l2ctl(["-c", "inject_fatal_streaming_error=1"])
            guard try run.wait(30, until: { pipcam.streaming(shownAtLeast: shownBefore + 5, after: event) != nil }) else {
                try run.aliveOrFail(pipcam, "after the queue error (EIO)")
                throw HarnessError(
                    "shown did not grow past \(shownBefore + 5) within 30 s of the queue error: stream not restarted (last: \(pipcam.lastStatsText))")
            }
            guard let restart = try GuestClock.kernelMessage("vivid-000: vid_cap_start_streaming", after: event) else {
                throw HarnessError("frames kept coming but vivid logged no new start_streaming after the queue error: was it injected?")
            }
            run.metric("event_to_stream_restart_s", seconds: GuestClock.elapsed(event, restart))
            let back = pipcam.streaming(shownAtLeast: shownBefore + 5, after: event)?.time ?? event
            run.metric("event_to_5_more_frames_s", seconds: GuestClock.elapsed(event, back))
            let noise = /buf_queue|buf_prepare|Thread Tick|loop_|filled buffer|buffer [0-9]* done/
            let kernelLog = try GuestClock.kernelLog()
            run.write("dmesg.txt", lines(of: kernelLog).filter { !$0.contains(noise) }.map { $0 + "\n" }.joined())
            try run.sigtermAndCheckReleased(pipcam)
        }
    }
}
