import Foundation
import TestSupport
import Testing

extension PipTests {
    /// Digital zoom and pan (docs/BEHAVIOUR.md, "Camera controls and framing") on a still picture
    /// of four coloured quarters, told apart in screenshots.
    @Suite struct Framing {
        /// The share of `window`'s picture in `quarter`'s colour, once it is at least `least`.
        static func waitForShare(
            _ x: XServer, _ window: XWindowID, _ quarter: QuadrantClip.Quarter, atLeast least: Double, what: String
        ) throws {
            var last: [QuadrantClip.Quarter: Double] = [:]
            do {
                _ = try poll(timeout: .seconds(8), what: what) { () -> Bool? in
                    last = try x.screenshot(of: window).quarterShares()
                    return (last[quarter] ?? 0) >= least ? true : nil
                }
            } catch {
                throw HarnessError("\(error); shares: \(last)")
            }
        }

        static func framing(_ x: XServer) throws -> (zoom: Double, x: Double, y: Double) {
            let status = try x.pipcamStatus().object
            let pan = status["pan"] as? [String: Any]
            return ((status["zoom"] as? NSNumber)?.doubleValue ?? -1, (pan?["x"] as? NSNumber)?.doubleValue ?? -1,
                    (pan?["y"] as? NSNumber)?.doubleValue ?? -1)
        }

        /// `--zoom 2 --pan 0.25,0.25` shows the top-left quarter alone, in the main window and in PiP;
        /// `z` shows the whole picture again.
        @Test func zoomAndPanShowOneQuarterInBothWindows() throws {
            let x = try makeServer(.openbox)
            let clip = try QuadrantClip.path()
            let pipcam = try x.startPipcam(["--source", "y4m:\(clip)", "--zoom", "2", "--pan", "0.25,0.25", "--size", "320x180"])
            let main = try x.waitForWindow(className: "pipcam", role: "main")
            try Self.waitForShare(x, main, .red, atLeast: 0.95, what: "the main window to show the red quarter alone")
            let framing = try Self.framing(x)
            #expect(framing == (2, 0.25, 0.25), "status: \(framing)")
            #expect(try x.runPipcam(["start"]).succeeded)
            let pip = try x.waitForWindow(className: PipIdentity.instance, role: PipIdentity.role)
            try Self.waitForShare(x, pip, .red, atLeast: 0.95, what: "PiP to show the red quarter alone")
            // Back in the main window (which the window manager focuses), `z` shows the whole picture.
            #expect(try x.runPipcam(["stop"]).succeeded)
            try Self.waitForShare(x, main, .red, atLeast: 0.95, what: "the main window to show the red quarter again")
            try x.movePointer(to: try x.geometry(of: main).center)
            // The window manager focuses the window back a moment after it shows; `z` again does no harm.
            _ = try poll(timeout: .seconds(5), what: "z to show the whole picture") {
                try x.runChecked(["xdotool", "key", "z"])
                Thread.sleep(forTimeInterval: 0.2)
                return try Self.framing(x) == (1, 0.5, 0.5) ? true : nil
            }
            // The bottom quarters lose a little to the playback bar a file has and the PiP button.
            try Self.waitForShare(x, main, .white, atLeast: 0.15, what: "all four quarters in the main window")
            #expect(pipcam.isRunning)
            #expect(pipcam.stderrText.isEmpty, "stderr: \(pipcam.stderrText)")
        }

        /// Ctrl + wheel zooms around the pointer (the green quarter it is over fills the window),
        /// Ctrl + drag pans and stops at the picture's edge, Ctrl + wheel down zooms out to the whole picture.
        @Test func wheelZoomsAroundThePointerDragPansToTheEdgeAndZResets() throws {
            let x = try makeServer(.openbox)
            let clip = try QuadrantClip.path()
            let (pipcam, window) = try x.startPip(["--source", "y4m:\(clip)", "--size", "320x180", "--corner", "top-left"])
            try Self.waitForShare(x, window, .white, atLeast: 0.2, what: "PiP to show the whole picture")
            let g = try x.settledGeometry(of: window)
            let over = XPoint(g.x + g.width * 3 / 4, g.y + g.height / 4)
            try x.runChecked([
                "xdotool", "mousemove", "\(over.x)", "\(over.y)", "keydown", "ctrl", "click", "--repeat", "6", "--delay", "40", "4",
                "keyup", "ctrl",
            ])
            let zoom = 1.25 * 1.25 * 1.25 * 1.25 * 1.25 * 1.25
            _ = try poll(timeout: .seconds(5), what: "six Ctrl + wheel steps to zoom in") {
                abs(try Self.framing(x).zoom - zoom) < 0.01 ? true : nil
            }
            try Self.waitForShare(x, window, .green, atLeast: 0.95, what: "the green quarter under the pointer to fill PiP")
            #expect(try x.geometry(of: window) == g, "Ctrl + wheel zooms the picture, not the window")

            // The picture dragged far to the left: the part shown goes right until the picture's edge.
            var drag = ["xdotool", "mousemove", "\(over.x)", "\(over.y)", "keydown", "ctrl", "mousedown", "1"]
            for step in 1...6 { drag += ["mousemove", "\(max(1, over.x - 40 * step))", "\(over.y)", "sleep", "0.03"] }
            try x.runChecked(drag + ["mouseup", "1", "keyup", "ctrl"])
            let edge = 1 - 0.5 / zoom
            let panned = try poll(timeout: .seconds(5), what: "Ctrl + drag to pan to the right edge") { () -> (Double, Double, Double)? in
                let f = try Self.framing(x)
                return abs(f.x - edge) < 0.002 ? f : nil
            }
            #expect(abs(panned.1 - edge) < 0.002 && abs(panned.0 - zoom) < 0.01, "\(panned)")
            try Self.waitForShare(x, window, .green, atLeast: 0.95, what: "the right edge of the green quarter")
            #expect(try x.geometry(of: window) == g, "Ctrl + drag pans the picture, not the window")

            // As many steps out: the whole picture again.
            try x.runChecked([
                "xdotool", "mousemove", "\(g.center.x)", "\(g.center.y)", "keydown", "ctrl", "click", "--repeat", "6", "--delay", "40", "5",
                "keyup", "ctrl",
            ])
            _ = try poll(timeout: .seconds(5), what: "Ctrl + wheel down to zoom out") { try Self.framing(x) == (1, 0.5, 0.5) ? true : nil }
            try Self.waitForShare(x, window, .blue, atLeast: 0.2, what: "all four quarters again")
            #expect(pipcam.isRunning)
        }
    }
}
