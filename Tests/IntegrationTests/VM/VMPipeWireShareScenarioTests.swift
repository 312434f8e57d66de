import Foundation
import Glibc
import TestSupport
import Testing

extension VMScenarioTests {
    @Test(.enabled(if: VMTier.runs(.pipewireShare)), .timeLimit(VMScenario.pipewireShare.timeLimit))
    func pipewireShare() {
        runScenario(.pipewireShare) { run in
            // vivid → pipcam → its own PipeWire camera node → a GStreamer reader, while PiP shows:
            // the reader gets >= 0.9 of vivid's rate; the camera unplugged, placeholders at about
            // the same rate; pipcam ending ends the reader. First the v4l2loopback route on the
            // same camera and rate, for the comparison (CPU and latency measured, not asserted).
            let registry = try run.start("gst-registry", ["gst-inspect-1.0", "pipewiresrc"])
            let looped = try run.startStreaming(["--share", VMDevices.loopback, "--share-size", VMDevices.shareSize])
            try run.slowDown(looped)
            let loopback = try run.measure(looped, seconds: 8)
            let loopbackShare = try run.shareStatus()
            try run.sigtermAndCheckReleased(looped)
            guard try run.wait(Self.registryWait, until: { registry.hasExited }) else {
                throw HarnessError("gst-inspect-1.0 did not end within \(Int(Self.registryWait)) s")
            }

            let daemon = try GuestPipeWire(run)
            let pipcam = try run.startPipcam(
                ["--pip", "--source", VMDevices.camera, "--size", VMDevices.size, "--stats", "--share", "pipewire", "--share-size", VMDevices.shareSize],
                environment: daemon.environment)
            try run.waitForFiveFrames(pipcam)
            guard try run.wait(20, until: { (try? run.shareStatus())?["node_id"] is Int }) else {
                throw HarnessError("no node published within 20 s (\(run.statusTail))")
            }
            let reader = try daemon.startReader(run, node: "pipcam")
            guard try run.wait(30, until: { reader.frames >= 5 || reader.process.hasExited }), reader.frames >= 5 else {
                throw HarnessError("the GStreamer reader got \(reader.frames) frames of pipcam's node in 30 s: \(reader.process.lastMessage)")
            }
            try run.slowDown(pipcam)
            try run.pause(1)
            let through = try run.measure(pipcam, seconds: 10) { [Double(reader.frames), daemon.cpuSeconds] }
            let share = try run.shareStatus()
            let readerRate = through.others[0] / through.seconds
            run.metric("fps", String(format: "%.2f (the node's reader %.2f)", through.fps, readerRate))
            run.metric(
                "cpu_ms_per_frame",
                String(format: "%.2f with the PipeWire node (v4l2loopback %.2f)", through.cpuMillisecondsPerFrame, loopback.cpuMillisecondsPerFrame))
            run.metric("daemon_cpu_ms_per_frame", String(format: "%.2f", through.others[1] * 1000 / max(1, through.others[0])))
            run.metric(
                "share_latency_ms",
                "p50 \(share["latency_p50_ms"] ?? "-") p99 \(share["latency_p99_ms"] ?? "-") (v4l2loopback p50 \(loopbackShare["latency_p50_ms"] ?? "-") p99 \(loopbackShare["latency_p99_ms"] ?? "-"))")
            let vividRate = 10.0
            guard readerRate >= 0.9 * vividRate, share["format"] as? String == "yuyv", share["readers"] as? Int == 1 else {
                throw HarnessError(String(format: "the node's reader got %.2f frames a second, expected >= %.1f (share: %@)", readerRate, 0.9 * vividRate, "\(share)"))
            }
            // Unplugged: placeholders at about the camera's rate.
            let plug = try run.startPlug()
            let event = GuestClock.now()
            try run.v4l2ctl(["-c", "disconnect=1"])
            _ = try run.waitForCamera("interrupted:disconnected", pipcam, after: event, within: 15, "after disconnect", since: "the disconnect")
            try run.pause(1)
            let placeholders0 = try run.shareStatus()["placeholders"] as? Int ?? 0, frames0 = reader.frames, t0 = GuestClock.now()
            try run.pause(6)
            let unpluggedRate = Double(reader.frames - frames0) / (GuestClock.now() - t0)
            let placeholders = (try run.shareStatus()["placeholders"] as? Int ?? 0) - placeholders0
            run.metric("reader_fps_unplugged", String(format: "%.2f (%d placeholders)", unpluggedRate, placeholders))
            guard unpluggedRate >= 0.5 * readerRate, placeholders > 0 else {
                throw HarnessError(String(format: "unplugged, the reader got %.2f frames a second (%.2f before), %d placeholders", unpluggedRate, readerRate, placeholders))
            }
            kill(plug.pid, SIGTERM)
            _ = try run.waitForReconnect(after: event)
            // pipcam ending ends the reader, within 2 s.
            let quit = GuestClock.now()
            kill(pipcam.pid, SIGTERM)
            guard try run.wait(10, until: { pipcam.hasExited }), pipcam.exitCode == 0 else {
                throw HarnessError("pipcam did not exit 0 within 10 s of SIGTERM (exit \(pipcam.exitCode.map(String.init) ?? "none"))")
            }
            guard try run.wait(5, until: { reader.process.hasExited }) else { throw HarnessError("the node's reader still runs 5 s after pipcam ended") }
            run.metric("reader_end_after_s", seconds: GuestClock.elapsed(quit, reader.process.exitTime ?? GuestClock.now()))
        }
    }
}
