import Foundation
import Glibc
import TestSupport
import Testing

/// Camera controls and framing on vivid, whose brightness changes its picture
/// (docs/BEHAVIOUR.md, "Camera controls and framing").
extension VMScenarioTests {
    @Test(.enabled(if: VMTier.runs(.cameraControls)), .timeLimit(VMScenario.cameraControls.timeLimit))
    func cameraControls() {
        runScenario(.cameraControls) { run in
            // Zoomed 2x on the left half of vivid's bars and shared: the reader gets the crop.
            let args = ["--source", Self.camera, "--size", Self.size, "--stats", "--zoom", "2", "--pan", "0.25,0.5",
                        "--share", Self.loopback, "--share-size", Self.shareSize]
            let pipcam = try run.startPipcam(args)
            try run.waitForFiveFrames(pipcam)
            try run.requireWindow("main window")
            let crop = try run.grab("zoomed")
            run.metric("zoomed_left_luma", crop.left)
            run.metric("zoomed_right_luma", crop.right)
            // Unzoomed, the right quarter is vivid's blue and black bars (luma ~25); zoomed on the
            // left half it is the green bar (~110), the left quarter the white one.
            guard crop.right > 80, crop.left > crop.right + 30 else {
                throw HarnessError("the shared frame is not the left half of vivid's bars, unmirrored: \(crop)")
            }
            let main = try run.mainWindow()
            let before = try run.x.screenshot(of: main).meanColor()
            try run.control(["set", "brightness=200"], "pipcam set brightness=200 failed")
            try run.expectBrightness(200, "after pipcam set")
            var after = before
            guard try run.wait(10, until: {
                after = (try? run.x.screenshot(of: main).meanColor()) ?? before
                return after.green > before.green + 15
            }) else { throw HarnessError("the window did not brighten: mean colour \(before) → \(after)") }
            run.metric("window_green_before", Int(before.green))
            run.metric("window_green_after", Int(after.green))
            let status = try run.status()
            guard (status["controls"] as? [String: Any])?["brightness"] as? String == "200", status["zoom"] as? Double == 2 else {
                throw HarnessError("status after pipcam set: \(run.statusText())")
            }
            try run.sigtermAndCheckReleased(pipcam)

            // The camera back at its default behind pipcam's back: started again, pipcam restores it.
            try run.v4l2ctl(["-c", "brightness=128"])
            let again = try run.startPipcam(["--source", Self.camera, "--size", Self.size, "--stats", "--pip"])
            try run.waitForFiveFrames(again)
            try run.expectBrightness(200, "after pipcam started again")
            let restarted = try run.status()
            guard restarted["zoom"] as? Double == 2 else { throw HarnessError("the framing was not remembered: \(run.statusText())") }
            try run.sigtermAndCheckReleased(again)

            // Unplugged (the module unloaded: vivid forgets its controls) and plugged in again while
            // pipcam waits for a camera: the camera found is restored as it opens.
            try KernelModules.unload("vivid")
            let waiting = try run.startPipcam(["--size", Self.size, "--stats", "--pip"])
            guard try run.wait(40, until: { waiting.shown(atLeast: 5) }) else { throw HarnessError("no frames with no camera") }
            try KernelModules.modprobe(["vivid"] + VMDevices.vividOptions)
            guard try run.wait(30, until: { V4L2Queries.holds(waiting.pid, Self.camera) }) else {
                throw HarnessError("pipcam did not open \(Self.camera) within 30 s of it appearing (last: \(waiting.lastStatsText))")
            }
            try run.expectBrightness(200, "after the camera was plugged in again")
            try run.sigtermAndCheckReleased(waiting)
        }
    }
}

extension ScenarioRun {
    /// Waits (up to 10 s) for vivid's brightness to read `value` from another process.
    func expectBrightness(_ value: Int, _ what: String) throws {
        var read = ""
        guard try wait(10, until: {
            read = (try? run(["v4l2-ctl", "-d", VMDevices.camera, "-C", "brightness"]))?.stdoutText ?? ""
            return read.trimmingCharacters(in: .whitespacesAndNewlines) == "brightness: \(value)"
        }) else { throw HarnessError("\(what): v4l2-ctl -C brightness reads '\(read.trimmingCharacters(in: .newlines))', expected \(value)") }
        append("v4l2-ctl.txt", "\(what): \(read)")
    }
}
