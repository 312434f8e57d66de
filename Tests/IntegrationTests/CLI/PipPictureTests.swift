import Foundation
import TestSupport
import Testing

extension PipTests {
    /// What the PiP window shows: the moving test pattern, through XShm and through the
    /// plain XPutImage fallback (`PIPCAM_NO_XSHM=1`).
    @Suite struct Picture {
        @Test(arguments: [false, true])
        func showsTheMovingTestPattern(withoutSharedMemory: Bool) throws {
            let x = try makeServer()
            let environment = withoutSharedMemory ? ["PIPCAM_NO_XSHM": "1"] : [:]
            let (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180"], extraEnvironment: environment)
            let frame = try x.geometry(of: window)
            #expect(frame.width == 320 && frame.height == 180, "\(frame)")

            // The first frames may take a moment: wait until the window holds a picture.
            let first = try poll(timeout: .seconds(5), what: "the window to show a picture") {
                let shot = try x.screenshot(of: window)
                return shot.distinctColorCount >= 8 ? shot : nil
            }
            Thread.sleep(forTimeInterval: 0.3)
            let second = try x.screenshot(of: window)
            #expect(second.width == 320 && second.height == 180)

            // Not blank or black: colour bars, a box and a counter.
            #expect(second.distinctColorCount >= 8, "distinct colours: \(second.distinctColorCount)")
            let mean = second.meanColor()
            #expect(max(mean.red, mean.green, mean.blue) > 40, "mean colour \(mean) is nearly black")
            let background = try x.screenshot(XRect(x: 0, y: 0, width: 100, height: 100))
            #expect(second.meanColor().distance(to: background.meanColor()) > 20,
                    "window \(second.meanColor()) looks like the empty screen \(background.meanColor())")

            // Moving: two shots 0.3 s apart (about 9 frames at 30 fps) differ substantially.
            let changed = second.fractionDiffering(from: first)
            #expect(changed > 0.02, "only \(changed * 100)% of the pixels changed in 0.3 s")
            if changed <= 0.02 || second.distinctColorCount < 8 {
                let keep = NSTemporaryDirectory() + "pipcam-test-failures"
                try? FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                try? first.writePPM(to: "\(keep)/picture-first-\(withoutSharedMemory).ppm")
                try? second.writePPM(to: "\(keep)/picture-second-\(withoutSharedMemory).ppm")
            }
            #expect(pipcam.isRunning)
            #expect(pipcam.stderrText.isEmpty, "stderr: \(pipcam.stderrText)")
            // Shared-memory images are SysV segments mapped into the process; the fallback has none.
            let maps = (try? String(contentsOfFile: "/proc/\(pipcam.pid)/maps", encoding: .utf8)) ?? ""
            #expect(maps.contains("SYSV") == !withoutSharedMemory, "shared-memory mappings: \(maps.contains("SYSV"))")
        }

        /// `--rotate`: the test pattern's upright colour bars run across the window when it is
        /// turned a quarter, and stay upright when it is not or is turned half.
        @Test(arguments: [0, 90, 180, 270])
        func barsTurnWithTheRotation(degrees: Int) throws {
            let x = try makeServer()
            let quarter = degrees % 180 == 90
            let (pipcam, window) = try x.startPip(
                ["--source", "test", "--size", quarter ? "180x320" : "320x180", "--rotate", "\(degrees)"])
            let shot = try poll(timeout: .seconds(5), what: "the window to show a picture") {
                let shot = try x.screenshot(of: window)
                return shot.distinctColorCount >= 8 ? shot : nil
            }
            // One line across the middle and one down it: eight bars of 1/8 each, against one or two
            // bars (and perhaps the white box) the other way.
            let across = shot.cropped(to: XRect(x: 0, y: shot.height / 2, width: shot.width, height: 1)).commonColorCount()
            let down = shot.cropped(to: XRect(x: shot.width / 2, y: 0, width: 1, height: shot.height)).commonColorCount()
            let (alongBars, acrossBars) = quarter ? (across, down) : (down, across)
            #expect(acrossBars >= 5 && alongBars <= 3, "\(degrees)°: \(across) colours across, \(down) down")
            // Left to right in the window at 0°, top to bottom at 90° (clockwise), the other way
            // at 180° and 270°.
            let darkening = shot.barsDarkening(vertical: quarter)
            #expect(degrees < 180 ? darkening > 2 : darkening < -2, "\(degrees)°: darkening \(darkening) along the bars")
            #expect(pipcam.isRunning && pipcam.stderrText.isEmpty, "stderr: \(pipcam.stderrText)")
        }

        /// `--mirror` flips the test pattern (not mirrored by default: it is no camera), and `m`
        /// in PiP flips it back.
        @Test func mirrorFlipsThePictureAndMFlipsItBack() throws {
            let x = try makeServer()
            func darkening(_ window: XWindowID) throws -> Int {
                try poll(timeout: .seconds(5), what: "the window to show a picture") {
                    let shot = try x.screenshot(of: window)
                    return shot.distinctColorCount >= 8 ? shot : nil
                }.barsDarkening(vertical: false)
            }
            var (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180"])
            #expect(try darkening(window) > 2, "unmirrored, white comes first")
            pipcam.send(SIGTERM)
            _ = try pipcam.wait(timeout: .seconds(5))
            (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180", "--mirror"])
            #expect(try darkening(window) < -2, "mirrored, black comes first")
            try x.movePointer(to: try x.geometry(of: window).center)
            try x.runChecked(["xdotool", "key", "m"])
            try waitUntil("m to unmirror the picture", timeout: .seconds(5)) { try darkening(window) > 2 }
        }

        /// `+` and `-` in PiP zoom around its centre, and as many of each bring it back exactly
        /// where and as large as it was (an integer centre drifted it a pixel a cycle).
        @Test func plusAndMinusComeBackToTheSameRect() throws {
            let x = try makeServer()
            let (_, window) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
            let placed = try x.settledGeometry(of: window)
            try x.drag(from: placed.center, to: XPoint(placed.center.x + 377, placed.center.y + 233), moving: window)
            let before = try x.settledGeometry(of: window)
            try x.movePointer(to: before.center)
            for _ in 0..<4 {
                try x.runChecked(["xdotool", "key", "plus"])
                let grown = try poll(timeout: .seconds(5), what: "PiP to grow with +") {
                    let g = try x.geometry(of: window)
                    return g.width > before.width ? g : nil
                }
                try x.runChecked(["xdotool", "key", "minus"])
                _ = try poll(timeout: .seconds(5), what: "PiP to shrink with -") {
                    let g = try x.geometry(of: window)
                    return g.width < grown.width ? g : nil
                }
            }
            let after = try x.settledGeometry(of: window)
            #expect(after == before, "\(before) → \(after)")
        }

        /// A fast wheel spin zooms by every notch, though the window's ConfigureNotify for the first
        /// comes after the last notch is read.
        @Test func aFastWheelSpinZoomsByEveryNotch() throws {
            let x = try makeServer()
            let (_, window) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
            let before = try x.settledGeometry(of: window)
            try x.runChecked(["xdotool", "mousemove", "\(before.center.x)", "\(before.center.y)", "click", "--repeat", "5", "--delay", "1", "4"])
            let after = try x.settledGeometry(of: window)
            let expected = Double(before.width) * pow(1.1, 5)
            #expect(abs(Double(after.width) - expected) <= 4, "\(before) → \(after), expected about \(Int(expected)) wide")
        }

        /// `r` in PiP turns the picture and the window with it, even with no window manager to read
        /// the new aspect hints: same area, the corner it sits in kept; `r` again turns it back.
        @Test func rTurnsTheWindowWithThePicture() throws {
            let x = try makeServer()
            let (_, window) = try x.startPip(["--source", "test", "--size", "320x180"])
            let before = try x.settledGeometry(of: window)
            try x.movePointer(to: before.center)
            try x.runChecked(["xdotool", "key", "r"])
            let turned = try poll(timeout: .seconds(3), what: "the window to turn") {
                let g = try x.geometry(of: window)
                return g.height > g.width ? g : nil
            }
            #expect(turned.width == 180 && turned.height == 320, "\(turned)")
            #expect(turned.maxX == before.maxX && turned.maxY == before.maxY, "bottom-right corner kept: \(before) → \(turned)")
            try x.runChecked(["xdotool", "key", "r"])
            let back = try poll(timeout: .seconds(3), what: "the window to turn back") {
                let g = try x.geometry(of: window)
                return g.width > g.height ? g : nil
            }
            #expect(back == before, "\(before) → \(turned) → \(back)")
        }
    }
}
