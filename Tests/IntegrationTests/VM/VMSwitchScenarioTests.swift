import Foundation
import TestSupport
import Testing

extension VMScenarioTests {
    @Test(.enabled(if: VMTier.runs(.switchCameras)), .timeLimit(VMScenario.switchCameras.timeLimit))
    func switchCameras() {
        runScenario(.switchCameras) { run in
            // Two vivid webcams and --share: `pipcam switch next` alternates between them in the
            // same PiP window; each switch returns once the new camera's picture is up, the old
            // camera is let go, and the virtual camera keeps its format and size. Then the camera
            // shown is unplugged while a switch is under way: the switch still ends on the other
            // camera, and pipcam lets the unplugged one go.
            let second = VMDevices.secondCamera
            guard FileManager.default.fileExists(atPath: second) else {
                throw HarnessError("no \(second) with vivid \(VMScenario.switchCameras.vividOptions.joined(separator: " "))")
            }
            let pipcam = try run.startPipcam(
                ["--pip", "--source", Self.camera, "--size", "320x180", "--share", Self.loopback, "--share-size", Self.shareSize, "--stats"])
            try run.waitForFiveFrames(pipcam)
            try run.requireWindow("PiP")
            let window = run.visiblePipcamWindows().first
            try run.waitForSharedFormat(
                "\(Self.loopback) offers '\(V4L2Queries.sizeAndFourCC(of: Self.loopback))', expected \(ScenarioRun.sharedFormat)")
            let sourceNow = { (try? run.status())?["source"] as? String ?? "" }
            var (expected, old) = (second, Self.camera)
            var took: [Int] = []
            for i in 1...10 {
                let t0 = GuestClock.now()
                try run.control(["switch", "next"], "switch \(i) (\(old) to \(expected))")
                took.append(Int((GuestClock.now() - t0) * 1000))
                let shown = sourceNow()
                guard shown == expected else { throw HarnessError("switch \(i): status names '\(shown)', expected \(expected)") }
                guard V4L2Queries.holds(pipcam.pid, expected) else { throw HarnessError("switch \(i): pipcam does not hold \(expected) open") }
                let size = V4L2Queries.size(of: expected)
                guard size == Self.shareSize else { throw HarnessError("switch \(i): \(expected) streams \(size), not the --share-size \(Self.shareSize)") }
                guard try run.wait(10, until: { !V4L2Queries.holds(pipcam.pid, old) }) else {
                    throw HarnessError("switch \(i): pipcam still holds \(old) 10 s after switching away")
                }
                guard run.visiblePipcamWindows().first == window else {
                    throw HarnessError("switch \(i): another PiP window (\(run.windowsReport().joined(separator: ";")))")
                }
                try run.keepsShowing(pipcam, "after switch \(i)")
                let offered = V4L2Queries.sizeAndFourCC(of: Self.loopback)
                guard offered == ScenarioRun.sharedFormat else {
                    throw HarnessError("switch \(i): \(Self.loopback) offers '\(offered)', expected \(ScenarioRun.sharedFormat) throughout")
                }
                (old, expected) = (expected, expected == Self.camera ? second : Self.camera)
            }
            run.write("switch_ms", took.map { "\($0)\n" }.joined())
            let sorted = took.sorted()
            let median = Double(sorted[(sorted.count + 1) / 2 - 1] + sorted[sorted.count / 2]) / 2
            run.metric("switch_next_ms_median", median == median.rounded() ? "\(Int(median))" : "\(median)")
            run.metric("switch_next_ms_p95", sorted[max(1, Int((Double(sorted.count) * 0.95).rounded(.up))) - 1])
            run.metric("switch_next_ms_all", took.map(String.init).joined(separator: ","))
            guard try run.wait(5, until: { pipcam.lastStats?.switches == 10 }) else {
                throw HarnessError("the stats line does not count 10 switches: \(pipcam.lastStatsText)")
            }
            // Showing /dev/video0 again: a switch to it is no switch (and no "in use" failure).
            let shown = sourceNow()
            guard shown == Self.camera else { throw HarnessError("expected \(Self.camera) shown after 10 switches, not \(shown)") }
            try run.control(["switch", Self.camera], "switch to \(Self.camera) while it is shown")
            try run.pause(1.5)  // a stats line printed after it
            guard pipcam.lastStats?.switches == 10 else { throw HarnessError("a switch to the camera shown was counted: \(pipcam.lastStatsText)") }
            // Unplug it while the switch to /dev/video1 is under way.
            let event = GuestClock.now()
            let switching = try run.start("unplug-switch", [run.pipcam, "switch", "next"])
            try run.v4l2ctl(["-c", "disconnect=1"])
            guard try run.wait(15, until: { switching.hasExited }) else { throw HarnessError("switch next did not return within 15 s of the unplug") }
            guard switching.exitCode == 0 else {
                throw HarnessError(
                    "switch next with the camera shown unplugged meanwhile: exit \(switching.exitCode ?? -1): \(switching.lastMessage)")
            }
            let after = sourceNow()
            guard after == second else { throw HarnessError("after the unplug during the switch, status names '\(after)', expected \(second)") }
            guard try run.wait(10, until: { !V4L2Queries.holds(pipcam.pid, Self.camera) }) else {
                throw HarnessError("pipcam still holds the unplugged \(Self.camera) 10 s later")
            }
            run.metric("unplug_to_released_s", seconds: GuestClock.elapsed(event, GuestClock.now()))
            try run.keepsShowing(pipcam, "on \(second) after the unplug")
            guard pipcam.lastStats?.isLive == true else { throw HarnessError("camera not streaming on \(second): \(pipcam.lastStatsText)") }
            try run.sigtermAndCheckReleased(pipcam)
        }
    }
}
