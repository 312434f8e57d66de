import Foundation
import TestSupport
import Testing
import PipWindow

extension PipTests {
    /// `pipcam switch SOURCE` (docs/BEHAVIOUR.md, "Switching the source"): the running PiP window
    /// shows another source without going away, and a switch that cannot be made leaves the old
    /// picture up.
    @Suite struct Switch {
        /// A YUV4MPEG2 file of one flat colour (BT.601 limited-range Y, Cb, Cr), `seconds` long at 5 fps.
        static func flatY4M(width: Int, height: Int, ycbcr: (UInt8, UInt8, UInt8), seconds: Int = 20) throws -> String {
            let path = "\(Scratch.directory)/flat-\(width)x\(height)-\(ycbcr.0)-\(ycbcr.1)-\(ycbcr.2).y4m"
            if FileManager.default.fileExists(atPath: path) { return path }
            var frame = Array("FRAME\n".utf8)
            frame += [UInt8](repeating: ycbcr.0, count: width * height)
            frame += [UInt8](repeating: ycbcr.1, count: width * height / 4)
            frame += [UInt8](repeating: ycbcr.2, count: width * height / 4)
            var bytes = Array("YUV4MPEG2 W\(width) H\(height) F5:1 Ip A1:1 C420jpeg\n".utf8)
            for _ in 0..<(5 * seconds) { bytes += frame }
            try Data(bytes).write(to: URL(fileURLWithPath: path + ".part"))
            _ = rename(path + ".part", path)
            return path
        }

        static let blue: (UInt8, UInt8, UInt8) = (41, 240, 110)

        private func isBlue(_ c: RGB) -> Bool { c.blue > 180 && c.red < 70 && c.green < 70 }

        /// The test pattern in PiP, shown: its window and settled frame.
        private func testPatternInPip(_ x: XServer, size: String = "320x180") throws -> (RunningProcess, XWindowID, XRect) {
            let (pipcam, window) = try x.startPip(["--source", "test", "--size", size, "--stats"])
            _ = try poll(timeout: .seconds(5), what: "the test pattern in PiP") {
                try x.screenshot(of: window).distinctColorCount >= 8 ? true : nil
            }
            return (pipcam, window, try x.settledGeometry(of: window))
        }

        @Test func aFileReplacesTheTestPatternInTheSameWindowAtTheSamePlace() throws {
            let x = try makeServer(.openbox)
            let (pipcam, window, before) = try testPatternInPip(x)
            let file = try Self.flatY4M(width: 320, height: 180, ycbcr: Self.blue)
            let clock = ContinuousClock(), asked = clock.now
            let result = try x.runPipcam(["switch", "y4m:\(file)"])
            let took = clock.now - asked
            #expect(result.exitCode == 0 && result.stderrText.isEmpty && result.stdoutText.isEmpty, "\(result)")
            // The command returns once the new picture is put: the first look finds it.
            let shot = try x.screenshot(of: window)
            #expect(isBlue(shot.meanColor()), "right after the switch returned (\(took)): \(shot.meanColor())")
            #expect(took < .seconds(2), "switch took \(took)")
            let after = try x.settledGeometry(of: window)
            #expect(abs(after.x - before.x) <= 1 && abs(after.y - before.y) <= 1, "moved: \(before) → \(after)")
            #expect(abs(after.width - before.width) <= 1 && abs(after.height - before.height) <= 1, "resized: \(before) → \(after)")
            #expect(try x.windows(className: PipIdentity.instance, role: PipIdentity.role).filter { try x.isViewable($0) } == [window],
                    "one PiP window, the same")
            let status = try x.pipcamStatus().object
            #expect(status["source"] as? String == "y4m:\(file)" && status["state"] as? String == "active", "\(status)")

            // Back to the test pattern; the stats line counts both switches.
            #expect(try x.runPipcam(["switch", "test"]).exitCode == 0)
            #expect(try x.screenshot(of: window).distinctColorCount >= 8, "the test pattern again")
            #expect(try x.pipcamStatus().object["source"] as? String == "test")
            let final = pipcam.terminate(grace: .seconds(3))
            let last = try #require(lines(of: final.stderrText).last)
            #expect(last.hasSuffix(" switches=2"), "\(last)")
            #expect(StatsLine(last.replacingOccurrences(of: " switches=2", with: "")) != nil, "the contract's fields before it: \(last)")
        }

        /// A picture of another shape reshapes PiP around its corner: the corner nearest the
        /// screen's stays where it was.
        @Test func aPictureOfAnotherShapeKeepsTheWindowsCorner() throws {
            let x = try makeServer(.openbox)
            let (_, window, before) = try testPatternInPip(x)
            let file = try Self.flatY4M(width: 320, height: 240, ycbcr: Self.blue)
            #expect(try x.runPipcam(["switch", "y4m:\(file)"]).exitCode == 0)
            let after = try poll(timeout: .seconds(5), what: "PiP to take the 4:3 shape") {
                let g = try x.settledGeometry(of: window)
                return abs(g.width * 3 - g.height * 4) <= 8 ? g : nil
            }
            let right = before.x + before.width / 2 > x.width / 2, bottom = before.y + before.height / 2 > x.height / 2
            let corner = { (r: XRect) in (right ? r.x + r.width : r.x, bottom ? r.y + r.height : r.y) }
            #expect(abs(corner(after).0 - corner(before).0) <= 1 && abs(corner(after).1 - corner(before).1) <= 1,
                    "\(before) → \(after)")
        }

        @Test func aSwitchThatCannotBeMadeKeepsTheOldPicture() throws {
            let x = try makeServer()
            let (pipcam, window, _) = try testPatternInPip(x)
            let notVideo = Scratch.directory + "/not-video.y4m"
            try Data("hello".utf8).write(to: URL(fileURLWithPath: notVideo))
            for spec in ["y4m:/nonexistent/clip.y4m", "y4m:\(notVideo)", "/dev/nonexistent-video9", "next"] {
                let result = try x.runPipcam(["switch", spec])
                #expect(result.exitCode == 1, "\(spec): \(result)")
                #expect(result.stderrText.hasPrefix("pipcam: cannot switch to ") && result.stderrText.hasSuffix(" (still showing test)\n")
                        && lines(of: result.stderrText).count == 1, "\(spec): \(result)")
            }
            let status = try x.pipcamStatus().object
            #expect(status["source"] as? String == "test" && status["state"] as? String == "active", "\(status)")
            let first = try x.screenshot(of: window)
            Thread.sleep(forTimeInterval: 0.3)
            let second = try x.screenshot(of: window)
            #expect(second.distinctColorCount >= 8 && second.fractionDiffering(from: first) > 0.02, "the test pattern goes on")
            #expect(pipcam.isRunning && pipcam.stderrText.split(separator: "\n").allSatisfy { $0.hasPrefix("pipcam: state=") },
                    "nothing but stats lines: \(pipcam.stderrText.suffix(500))")
        }

        /// A source that never opens (a FIFO nobody writes) fails the switch after 5 s, and
        /// switching goes on working.
        @Test func aSourceThatNeverOpensFailsInTimeAndSwitchingGoesOn() throws {
            let x = try makeServer()
            let (_, window, _) = try testPatternInPip(x)
            let fifo = try Scratch.makeDirectory("switch-fifo") + "/never.y4m"
            #expect(mkfifo(fifo, 0o600) == 0)
            let clock = ContinuousClock(), asked = clock.now
            let stuck = try x.runPipcam(["switch", "y4m:\(fifo)"], timeout: .seconds(15))
            let took = clock.now - asked
            #expect(stuck.exitCode == 1 && stuck.stderrText == "pipcam: cannot switch to y4m:\(fifo): it did not open within 5 s (still showing test)\n",
                    "\(stuck)")
            #expect(took >= .seconds(4) && took < .seconds(9), "gave up after \(took)")
            let file = try Self.flatY4M(width: 320, height: 180, ycbcr: Self.blue)
            #expect(try x.runPipcam(["switch", "y4m:\(file)"]).exitCode == 0)
            #expect(isBlue(try x.screenshot(of: window).meanColor()))
        }

        @Test(arguments: [["switch"], ["switch", "y4m:-"], ["switch", "bogus:x"], ["switch", "test", "next"], ["switch", "test", "--pip"],
                          ["--switch-key", "super+nosuchkey"], ["--hotkey", "super+n", "--switch-key", "super+n"]])
        func badSwitchArgumentsExitTwoWithOneLine(arguments: [String]) throws {
            let x = try XServer()
            let r = try x.runPipcam(arguments)
            #expect(r.exitCode == 2 && r.stderrText.hasPrefix("pipcam: ") && lines(of: r.stderrText).count == 1, "\(r)")
        }

        @Test func withNoInstanceSwitchExitsThree() throws {
            let x = try XServer()
            let r = try x.runPipcam(["switch", "test"])
            #expect(r.exitCode == 3 && r.stderrText == "pipcam: no pipcam is running on \(x.display)\n", "\(r)")
        }

        /// Switched while PiP grows out of the main window, and while it shrinks back: PiP still
        /// comes up (or goes) as asked, showing the new source, and the main window comes back with it.
        @Test func switchesDuringTheStartAndStopAnimations() throws {
            let x = try makeServer(.openbox)
            let pipcam = try x.startPipcam(["--source", "test"])
            let main = try x.waitForWindow(className: "pipcam", role: "main")
            let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
            _ = try x.waitForStableGeometry(of: main)
            let file = try Self.flatY4M(width: 320, height: 180, ycbcr: Self.blue)

            #expect(try x.runPipcam(["start"]).succeeded)
            let during = try x.pipcamStatus().object["state"] as? String
            let switched = try x.runPipcam(["switch", "y4m:\(file)"])
            #expect(switched.exitCode == 0, "\(switched)")
            try waitUntil("PiP is active", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "active" }
            let shot = try poll(timeout: .seconds(3), what: "PiP to show the file") {
                let s = try x.screenshot(of: pip)
                return isBlue(s.meanColor()) ? s : nil
            }
            #expect(shot.width > 0)

            #expect(try x.runPipcam(["stop"]).succeeded)
            let stopping = try x.pipcamStatus().object["state"] as? String
            #expect(try x.runPipcam(["switch", "test"]).exitCode == 0)
            try waitUntil("PiP has stopped", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "idle" }
            try waitUntil("the main window is back", timeout: .seconds(5)) { try x.isViewable(main) && !x.isViewable(pip) }
            _ = try poll(timeout: .seconds(3), what: "the main window to show the test pattern") {
                try x.screenshot(of: main).distinctColorCount >= 8 ? true : nil
            }
            #expect(try x.pipcamStatus().object["source"] as? String == "test")
            #expect(pipcam.isRunning)
            // Where the switch landed in the animations (a loaded machine may have finished one first).
            print("switch asked while PiP was \(during ?? "?") and then \(stopping ?? "?")")
        }
    }
}
