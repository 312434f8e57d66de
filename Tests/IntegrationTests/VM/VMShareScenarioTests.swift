import Foundation
import Glibc
import TestSupport
import Testing

/// The scenarios with virtual cameras (v4l2loopback at /dev/video10): pipcam sharing the camera
/// with a reader, a virtual camera as the source, --share's errors, switching cameras.
extension VMScenarioTests {
    static let loopback = VMDevices.loopback
    static let shareSize = VMDevices.shareSize

    @Test(.enabled(if: VMTier.runs(.shareReader)), .timeLimit(VMScenario.shareReader.timeLimit))
    func shareReader() {
        runScenario(.shareReader) { run in
            // --share: every camera frame goes to the virtual camera, where another application (a
            // reader: v4l2-ctl) gets >= 95 % of vivid's frames while PiP is up, while it is toggled
            // and while the main window is hidden. The shared picture is never mirrored (the
            // window is, by default), and the loopback is left writable for the next application.
            let pipcam = try run.startPipcam(
                ["--source", Self.camera, "--share", Self.loopback, "--share-size", Self.shareSize, "--size", "320x180", "--stats"])
            try run.waitForFiveFrames(pipcam)
            try run.requireWindow("main window")
            try run.waitForSharedFormat(
                "\(Self.loopback) offers '\(V4L2Queries.sizeAndFourCC(of: Self.loopback))' to readers 20 s after the start, expected \(ScenarioRun.sharedFormat) (caps: \(V4L2Queries.capabilities(of: Self.loopback)))")
            let cameraSize = V4L2Queries.size(of: Self.camera)
            guard cameraSize == Self.shareSize else { throw HarnessError("camera in \(cameraSize), expected the --share-size \(Self.shareSize)") }
            let share = try run.shareStatus()
            let (device, format, width, height, written) = (
                share["device"] as? String, share["format"] as? String, share["width"] as? Int, share["height"] as? Int, share["written"] as? Int ?? 0)
            guard device == Self.loopback, format == "yuyv", "\(width ?? 0)x\(height ?? 0)" == Self.shareSize, written > 0 else {
                throw HarnessError(
                    "pipcam status: share is '\(device ?? "") \(format ?? "") \(width ?? 0) \(height ?? 0) written=\(written)', expected \(Self.loopback) yuyv \(Self.shareSize) written>0 (\(run.statusTail))")
            }
            try run.slowDown(pipcam)  // vivid at 10 fps: never late under TCG, so every frame it delivers counts
            // Pictures are grabbed while the counting reader is not running: with v4l2loopback
            // 0.12.7 a second reader that stops ends the first one's stream (its DQBUF fails).
            let first = try run.grab("first")
            run.metric("left_luma", first.left)
            run.metric("right_luma", first.right)
            guard first.isUnmirroredBars else {
                throw HarnessError("the shared frame is not vivid's bars from white (left) to black (right), mirrored or blank? \(first)")
            }
            let reader = try run.startReader()
            let pipActive = { (try? run.status())?["state"] as? String == "active" }
            let mainShown = {
                let status = try? run.status()
                return status?["state"] as? String == "idle" && (status?["main"] as? [String: Any])?["visible"] as? Bool == true
            }
            try run.control(["toggle"], "pipcam toggle failed (PiP on)")
            guard try run.wait(15, until: pipActive) else { throw HarnessError("PiP not active 15 s after pipcam toggle: \(run.statusText())") }
            try run.shareWindow("pip", 10, pipcam: pipcam, reader: reader)
            try run.shareWindow("toggled", 10, pipcam: pipcam, reader: reader) {
                for i in 1...4 {
                    try run.control(["toggle"], "pipcam toggle \(i) failed")
                    try run.pause(2)
                }
            }
            guard try run.wait(15, until: pipActive) else { throw HarnessError("PiP not active after an even number of toggles: \(run.statusText())") }
            try run.control(["toggle"], "pipcam toggle failed (PiP off)")
            guard try run.wait(15, until: mainShown) else {
                throw HarnessError("the main window is not back 15 s after PiP stopped: \(run.statusText())")
            }
            // Minimized: no window manager runs here, so xdotool windowminimize would ask nobody;
            // with none, pipcam takes its unmapped main window for a hidden one and starts PiP (as
            // a minimize does).
            let main = try run.mainWindow()
            try run.xdotool(["windowunmap", "\(main)"])
            guard try run.wait(15, until: pipActive) else { throw HarnessError("PiP did not start with the main window unmapped: \(run.statusText())") }
            try run.shareWindow("hidden", 10, pipcam: pipcam, reader: reader)
            if reader.hasExited { throw HarnessError("the reader stopped: \(ScenarioRun.lastWords(of: reader))") }
            try run.stop(reader, "the reader did not stop")
            let last = try run.grab("last")
            guard last.isUnmirroredBars else {
                throw HarnessError("with the main window hidden, the shared frame is not vivid's bars left to right: \(last)")
            }
            try run.sigtermAndCheckReleased(pipcam)
            // v4l2loopback 0.12.7 gives the output capability back only to a writer that called
            // STREAMON on the output queue: one that only write()s leaves the device unwritable.
            guard try run.wait(5, until: { V4L2Queries.capabilities(of: Self.loopback).contains("Video Output") }) else {
                throw HarnessError(
                    "with pipcam and the reader gone, \(Self.loopback) offers '\(V4L2Queries.capabilities(of: Self.loopback))', no Video Output: nothing can write to it again until v4l2loopback is reloaded (pipcam must STREAMON its output queue)")
            }
        }
    }

    @Test(.enabled(if: VMTier.runs(.shareUnplug)), .timeLimit(VMScenario.shareUnplug.timeLimit))
    func shareUnplug() {
        runScenario(.shareUnplug) { run in
            // The camera unplugged under --share: the virtual camera's readers keep getting frames
            // at about the same rate, dark placeholders of the same size and format; real frames
            // again after the replug.
            let pipcam = try run.startStreaming(size: "320x180", ["--share", Self.loopback, "--share-size", Self.shareSize])
            try run.waitForSharedFormat(
                "\(Self.loopback) offers '\(V4L2Queries.sizeAndFourCC(of: Self.loopback))' to readers 20 s after the start, expected \(ScenarioRun.sharedFormat) (caps: \(V4L2Queries.capabilities(of: Self.loopback)))")
            // Pictures are grabbed while the counting reader is not running (see share-reader).
            let before = try run.grab("before")
            guard before.isUnmirroredBars else { throw HarnessError("before the unplug, the shared frame is not vivid's bars: \(before)") }
            let reader = try run.startReader()
            /// Frames the reader gets in the next 6 s, and their rate.
            func readerCount() throws -> (frames: Int, rate: String) {
                let a = GuestClock.now()
                try run.pause(6)
                let b = GuestClock.now()
                let frames = run.readerFrames(reader, a, b)
                return (frames, String(format: "%.2f", Double(frames) / (b - a)))
            }
            let plugged = try readerCount()
            run.metric("reader_fps_before", plugged.rate)
            let plug = try run.startPlug()
            let event = GuestClock.now()
            try run.v4l2ctl(["-c", "disconnect=1"])
            _ = try run.waitForCamera("interrupted:disconnected", pipcam, after: event, within: 15, "after disconnect", since: "the disconnect")
            try run.pause(1)
            let unplugged = try readerCount()
            run.metric("reader_fps_unplugged", unplugged.rate)
            try run.aliveOrFail(pipcam, "while unplugged")
            guard unplugged.frames >= 3, unplugged.frames * 2 >= plugged.frames else {
                throw HarnessError(
                    "unplugged, the reader got \(unplugged.frames) frames in 6 s against \(plugged.frames) in 6 s before: placeholders not written at about the camera's rate")
            }
            let offered = V4L2Queries.sizeAndFourCC(of: Self.loopback)
            guard offered == ScenarioRun.sharedFormat else {
                throw HarnessError("unplugged, \(Self.loopback) offers '\(offered)', expected \(ScenarioRun.sharedFormat) as before")
            }
            let gap = run.readerLongestGap(reader, event, GuestClock.now())
            run.metric("reader_longest_gap_s", String(format: "%.2f", gap))
            guard gap <= 3 else { throw HarnessError("the reader got no frame for \(String(format: "%.2f", gap)) s after the unplug") }
            if reader.hasExited { throw HarnessError("the reader stopped: \(ScenarioRun.lastWords(of: reader))") }
            try run.stop(reader, "the reader did not stop")
            let placeholder = try run.grab("unplugged")
            run.metric("placeholder_luma_mean", placeholder.mean)
            run.metric("placeholder_luma_sd", placeholder.sd)
            guard placeholder.mean < 60 else { throw HarnessError("the frame read while unplugged is not dark (mean luma < 60): \(placeholder)") }
            guard abs(placeholder.left - placeholder.right) < 30 else {
                throw HarnessError("the frame read while unplugged has the bars' left-right contrast, not a placeholder: \(placeholder)")
            }
            let placeholders = try run.shareStatus()["placeholders"] as? Int
            guard let placeholders, placeholders > 0 else {
                throw HarnessError("pipcam status while unplugged: share placeholders='\(placeholders.map(String.init) ?? "")' (\(run.statusTail))")
            }
            kill(plug.pid, SIGTERM)
            let replug = try run.waitForReconnect(after: event)
            try run.waitForStreaming(
                pipcam, shownAtLeast: 1, after: replug, within: 30, "after the replug",
                "no camera=streaming stats line within 30 s of the replug (last: \(pipcam.lastStatsText))")
            // The first frames after the replug may still be placeholders: three tries.
            var after = try run.grab("after1")
            for attempt in 2...3 where !after.isUnmirroredBars {
                try run.pause(2)
                after = try run.grab("after\(attempt)")
            }
            guard after.isUnmirroredBars else { throw HarnessError("after the replug, the shared frame is not vivid's bars: \(after)") }
            try run.sigtermAndCheckReleased(pipcam)
        }
    }

    @Test(.enabled(if: VMTier.runs(.loopbackSource)), .timeLimit(VMScenario.loopbackSource.timeLimit))
    func loopbackSource() {
        runScenario(.loopbackSource) { run in
            // A virtual camera as the source, written by another application
            // (scripts/vm-loopback-writer, streaming I/O like OBS): shown; when the writer stops,
            // interrupted:disconnected and the device released (so that the next writer may pick
            // another size); shown again from the next writer.
            let writer = try run.startWriter("writer1", size: "320x180", fps: 15)
            let pipcam = try run.startStreaming(source: Self.loopback, size: "320x180")
            try run.keepsShowing(pipcam, "from the virtual camera")
            let shownBefore = pipcam.lastStats?.shown ?? 0
            let event = GuestClock.now()
            try run.stop(writer, "the writer (writer1) did not stop")
            let interrupted = try run.waitForCamera(
                "interrupted:disconnected", pipcam, after: event, within: 12, "after the writer stopped", since: "the writer's exit")
            run.metric("writer_gone_to_interrupted_s", seconds: GuestClock.elapsed(event, interrupted))
            guard try run.wait(10, until: { !V4L2Queries.holds(pipcam.pid, Self.loopback) }) else {
                throw HarnessError("pipcam still holds \(Self.loopback) 10 s after its writer left: the next writer cannot set its own size")
            }
            run.metric("writer_gone_to_released_s", seconds: GuestClock.elapsed(event, GuestClock.now()))
            try run.aliveOrFail(pipcam, "with no writer")
            let restarted = GuestClock.now()
            _ = try run.startWriter("writer2", size: "256x144", fps: 15)
            let back = try run.waitForStreaming(
                pipcam, shownAtLeast: shownBefore + 1, after: restarted, within: 30, "after the writer came back at 256x144",
                "no camera=streaming stats line with shown>\(shownBefore) within 30 s of a new writer (last: \(pipcam.lastStatsText))")
            run.metric("writer_back_to_streaming_s", seconds: GuestClock.elapsed(restarted, back))
            try run.keepsShowing(pipcam, "from the writer at 256x144")
            try run.sigtermAndCheckReleased(pipcam, device: Self.loopback)
        }
    }

    @Test(.enabled(if: VMTier.runs(.shareErrors)), .timeLimit(VMScenario.shareErrors.timeLimit))
    func shareErrors() {
        runScenario(.shareErrors) { run in
            // --share's mistakes end pipcam at once, one line on stderr, the camera closed.
            /// pipcam with `arguments` exits `expected` within 30 s, one line on stderr that says
            /// `saying` (when given).
            func shareError(_ name: String, _ expected: Int32, saying: String? = nil, _ arguments: [String]) throws {
                let command = "'pipcam ... \(arguments.joined(separator: " "))'"
                let result: ProcessResult
                do {
                    result = try run.run([run.pipcam, "--source", Self.camera, "--pip", "--size", "320x180"] + arguments, timeout: 30)
                } catch {
                    throw HarnessError("\(name): \(command) still ran after 30 s, expected exit \(expected)")
                }
                run.write("\(name).out", result.stdoutText)
                run.write("\(name).err", result.stderrText)
                let code = result.exitCode ?? -1
                run.metric("\(name)_exit", code)
                let said = lines(of: result.stderrText)
                guard code == expected else { throw HarnessError("\(name): \(command) exited \(code), expected \(expected): \(said.first ?? "")") }
                guard said.count == 1 else {
                    throw HarnessError("\(name): \(said.count) lines on stderr, expected one: \(said.prefix(3).joined(separator: "|"))")
                }
                if let saying, !result.stderrText.contains(saying) {
                    throw HarnessError("\(name): stderr does not say '\(saying)': \(result.stderrText)")
                }
            }
            try KernelModules.unload("v4l2loopback")
            try shareError("not-loaded", 2, saying: "modprobe v4l2loopback", ["--share"])
            try KernelModules.modprobe(["v4l2loopback"] + VMDevices.loopbackOptions)
            guard try run.wait(10, until: { FileManager.default.fileExists(atPath: Self.loopback) }) else {
                throw HarnessError("no \(Self.loopback) after loading v4l2loopback again")
            }
            try shareError("not-a-loopback", 2, ["--share", Self.camera])
            let other = try run.startWriter("other", size: "320x180", fps: 15)
            try shareError("taken", 1, ["--share", Self.loopback])
            if other.hasExited { throw HarnessError("the other writer of \(Self.loopback) stopped: \(other.lastMessage)") }
            let result = try run.streamThreeFrames(from: Self.camera, log: "after-errors.txt")
            guard result.streamed else {
                throw HarnessError("camera not free after the errors: v4l2-ctl --stream-mmap --stream-count=3 failed: \(lastLine(result.output))")
            }
        }
    }
}
