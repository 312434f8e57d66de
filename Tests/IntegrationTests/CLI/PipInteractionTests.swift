import Foundation
import TestSupport
import Testing

/// The window interactions on the real PiP window: hover controls, snapping, wheel resize,
/// keyboard, and the position remembered across runs.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PipInteractionTests {
    func viewable(_ x: XServer, _ w: XWindowID) throws -> Bool { try x.info(of: w)?.isViewable == true }

    /// Hovering shows the controls; the close control (top-right) ends a `--pip` pipcam with exit 0.
    @Test(arguments: [WindowManager.openbox, .none])
    func closeControlEndsPipOnlyPipcam(wm: WindowManager) throws {
        let x = try makeServer(wm)
        let (process, pip) = try x.startPip(["--source", "test", "--size", "480x270"])
        let r = try x.settledGeometry(of: pip)
        try x.movePointer(to: XPoint(r.x + 200, r.y + 120))
        try x.movePointer(to: XPoint(r.x + 210, r.y + 125))
        // The close control's backdrop is a dark square 8 px in from the top-right corner (1x icons).
        try waitUntil("the controls are drawn", timeout: .seconds(2)) {
            let shot = try x.screenshot(XRect(x: r.x + r.width - 40, y: r.y + 8, width: 32, height: 32))
            return shot.meanColor().red < 120 && shot.distinctColorCount > 2
        }
        try x.click(at: XPoint(r.x + r.width - 24, r.y + 24))
        let result = try process.wait(timeout: .seconds(5))
        #expect(result.exitCode == 0, "\(result)")
    }

    @Test func backControlReturnsToTheMainWindow() throws {
        let x = try makeServer(.openbox)
        let (_, pip) = try x.startPip(["--source", "test", "--size", "480x270"])
        let main = try x.waitForWindow(className: "pipcam", role: "main", viewable: false)
        let r = try x.settledGeometry(of: pip)
        try x.movePointer(to: XPoint(r.x + 200, r.y + 120))
        try x.movePointer(to: XPoint(r.x + 24, r.y + 24))
        Thread.sleep(forTimeInterval: 0.2)
        try x.click(at: XPoint(r.x + 24, r.y + 24))
        try waitUntil("the main window appears", timeout: .seconds(3)) { try viewable(x, main) }
        try waitUntil("PiP is gone", timeout: .seconds(2)) { try !viewable(x, pip) }
    }

    /// The mirror control flips the picture: the test pattern's frame counter (a black box with
    /// white digits, top left) moves to the top right.
    @Test func mirrorControlFlipsThePicture() throws {
        let x = try makeServer(.none)
        let (_, pip) = try x.startPip(["--source", "test", "--size", "480x270", "--corner", "top-left"])
        let r = try x.settledGeometry(of: pip)
        // Where the counter box is (the test pattern draws it at 14…94 × 14…62 of 640×360).
        let left = XRect(x: r.x + 14, y: r.y + 14, width: 50, height: 28)
        let right = XRect(x: r.x + r.width - 14 - 50, y: r.y + 14, width: 50, height: 28)
        /// Black box with white digits: mostly black pixels, and some white ones.
        func counterIsAt(_ area: XRect) throws -> Bool {
            let shot = try x.screenshot(area)
            var black = 0, white = 0
            for py in 0..<shot.height {
                for px in 0..<shot.width {
                    let c = shot.pixel(px, py)
                    if c.red < 40 && c.green < 40 && c.blue < 40 { black += 1 }
                    if c.red > 215 && c.green > 215 && c.blue > 215 { white += 1 }
                }
            }
            let total = shot.width * shot.height
            return black * 10 > total * 4 && white * 100 > total * 5
        }
        try waitUntil("the counter shows top-left", timeout: .seconds(3)) { try counterIsAt(left) }
        #expect(try !counterIsAt(right))
        let mirrorControl = XPoint(r.x + r.width / 2, r.y + r.height - 8 - 20)
        try x.movePointer(to: XPoint(r.center.x, r.center.y - 10))
        try x.movePointer(to: mirrorControl)
        Thread.sleep(forTimeInterval: 0.2)
        try x.click(at: mirrorControl)
        try x.movePointer(to: XPoint(r.x + r.width + 200, r.y + r.height + 200))  // leave: controls hide
        try waitUntil("the counter shows top-right", timeout: .seconds(3)) { try counterIsAt(right) && !counterIsAt(left) }
    }

    /// A click just after a quick drag is not a double-click with the drag's press: PiP stays up.
    @Test func aClickRightAfterADragDoesNotEndPip() throws {
        let x = try makeServer(.none)
        let (process, pip) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
        let main = try x.waitForWindow(className: "pipcam", role: "main", viewable: false)
        let r = try x.settledGeometry(of: pip)
        // Far from every edge, so the move does not snap: the second press is where the first one
        // was in the window, well within 400 ms of it.
        let end = XPoint(r.center.x + 400, r.center.y + 300)
        var command = ["xdotool", "mousemove", "\(r.center.x)", "\(r.center.y)", "mousedown", "1"]
        for step in 1...3 {
            command += ["sleep", "0.02", "mousemove", "\(r.center.x + 400 * step / 3)", "\(r.center.y + 300 * step / 3)"]
        }
        command += ["mouseup", "1", "sleep", "0.05", "mousedown", "1", "mouseup", "1"]
        try x.runChecked(command)
        let moved = try x.settledGeometry(of: pip)
        #expect(moved.center == end, "the drag moved PiP to \(moved)")
        Thread.sleep(forTimeInterval: 0.8)
        #expect(try viewable(x, pip) && !viewable(x, main), "the click after the drag sent PiP back")
        #expect(process.isRunning)
    }

    @Test(arguments: [WindowManager.openbox, .none])
    func moveEndingNearACornerSnapsFlush(wm: WindowManager) throws {
        let x = try makeServer(wm)
        let (_, pip) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
        let area = try x.workArea()
        let r = try x.settledGeometry(of: pip)
        // Drag so the window ends 10 px from the top-right corner's edges.
        let target = XPoint(area.x + area.width - 10 - r.width + (r.center.x - r.x), area.y + 10 + (r.center.y - r.y))
        try x.drag(from: r.center, to: target, moving: pip)
        try waitUntil("the window snapped to the top-right corner", timeout: .seconds(3)) {
            let g = try x.geometry(of: pip)
            return g.x + g.width == area.x + area.width && g.y == area.y
        }
    }

    /// A new PiP sits 24 px in from the corner, farther than the 16 px snap distance: dragged away
    /// and back to where it started, it stays there instead of jumping flush into the corner.
    @Test(arguments: [WindowManager.openbox, .none])
    func droppedBackWhereItStartedItStaysThere(wm: WindowManager) throws {
        let x = try makeServer(wm)
        let (_, pip) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
        let start = try x.settledGeometry(of: pip)
        let away = XPoint(start.center.x + 300, start.center.y + 200)
        try x.drag(from: start.center, to: away, moving: pip)
        #expect(try x.settledGeometry(of: pip) != start)
        try x.drag(from: away, to: start.center, moving: pip)
        Thread.sleep(forTimeInterval: 0.4)  // past the 250 ms after which a move settles and snaps
        #expect(try x.settledGeometry(of: pip) == start)
    }

    @Test func wheelResizesAroundThePointerKeepingTheAspect() throws {
        let x = try makeServer(.openbox)
        let (_, pip) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
        _ = try x.settledGeometry(of: pip)
        try x.runChecked(["xdotool", "windowmove", "\(pip.raw)", "400", "250"])  // room to grow on every side
        let before = try x.settledGeometry(of: pip)
        try x.scroll(at: before.center, clicks: 3)
        let after = try poll(timeout: .seconds(3), what: "the window to grow") { () -> XRect? in
            let g = try x.settledGeometry(of: pip)
            return g.width > before.width + 60 ? g : nil
        }
        #expect(abs(Double(after.width) / Double(after.height) - 16.0 / 9) < 0.02, "\(after)")
        // The point under the pointer stayed (about) under it.
        #expect(abs(after.center.x - before.center.x) <= 4 && abs(after.center.y - before.center.y) <= 4, "\(before) → \(after)")
    }

    @Test func positionIsRememberedAcrossRuns() throws {
        let x = try makeServer(.openbox)
        var (process, pip) = try x.startPip(["--source", "test"])
        let start = try x.settledGeometry(of: pip)
        let destination = XPoint(300, 250)
        try x.drag(from: start.center, to: destination, moving: pip)
        let moved = try x.settledGeometry(of: pip, quiet: .milliseconds(600))
        #expect(abs(moved.center.x - destination.x) <= 3 && abs(moved.center.y - destination.y) <= 3)
        process.send(SIGTERM)
        _ = try process.wait(timeout: .seconds(5))
        (process, pip) = try x.startPip(["--source", "test"])
        let again = try x.settledGeometry(of: pip)
        #expect(again == moved, "restored where it was left")
        // An explicit corner wins over the memory.
        process.send(SIGTERM)
        _ = try process.wait(timeout: .seconds(5))
        let third: XWindowID
        (process, third) = try x.startPip(["--source", "test", "--corner", "top-left"])
        let placed = try x.settledGeometry(of: third)
        let area = try x.workArea()
        #expect(placed.x == area.x + 24 && placed.y == area.y + 24)
        // Moved in that run, it leaves the memory alone: the next plain run comes back to `moved`.
        try x.drag(from: placed.center, to: XPoint(600, 400), moving: third)
        _ = try x.settledGeometry(of: third, quiet: .milliseconds(600))
        process.send(SIGTERM)
        _ = try process.wait(timeout: .seconds(5))
        let (_, fourth) = try x.startPip(["--source", "test"])
        #expect(try x.settledGeometry(of: fourth) == moved, "a --corner run replaced the remembered place")
    }

    /// A move the window manager makes for the user right after PiP appears (a key binding,
    /// `xdotool windowmove`) is the user's: remembered, not taken for pipcam's own placement.
    @Test func aMoveRightAfterPipAppearsIsRemembered() throws {
        let x = try makeServer(.openbox)
        let (process, pip) = try x.startPip(["--source", "test"])
        try x.runChecked(["xdotool", "windowmove", "\(pip.raw)", "300", "250"])
        let moved = try x.settledGeometry(of: pip, quiet: .milliseconds(600))
        #expect(abs(moved.x - 300) <= 2 && abs(moved.y - 250) <= 2, "\(moved)")
        try waitUntil("the place is saved", timeout: .seconds(3)) {
            FileManager.default.fileExists(atPath: x.directory + "/state/pipcam/geometry")
        }
        process.send(SIGTERM)
        _ = try process.wait(timeout: .seconds(5))
        let (_, again) = try x.startPip(["--source", "test"])
        #expect(try x.settledGeometry(of: again) == moved, "restored where it was moved")
    }

    /// Ended right after a move (SIGTERM before the place settled), pipcam still remembers it.
    @Test func aMoveJustBeforeTheEndIsRemembered() throws {
        let x = try makeServer(.openbox)
        let (process, pip) = try x.startPip(["--source", "test"])
        _ = try x.settledGeometry(of: pip)
        try x.runChecked(["xdotool", "windowmove", "\(pip.raw)", "300", "250"])
        // pipcam has seen the move once it answers a ping sent after it; then it ends at once.
        try x.waitForPipcamToCatchUp(pip)
        let moved = try x.geometry(of: pip)
        process.send(SIGTERM)
        #expect(try process.wait(timeout: .seconds(5)).exitCode == 0)
        let (_, again) = try x.startPip(["--source", "test"])
        #expect(try x.settledGeometry(of: again) == moved, "restored where it was moved just before the end")
    }

    /// Each `--name` instance remembers its own place: two cameras' PiPs do not come back on top
    /// of each other, nor take the unnamed instance's.
    @Test func namedInstancesRememberTheirOwnPlace() throws {
        let x = try makeServer(.openbox)
        let (first, pip) = try x.startPip(["--source", "test"])
        let start = try x.settledGeometry(of: pip)
        try x.drag(from: start.center, to: XPoint(300, 250), moving: pip)
        let moved = try x.settledGeometry(of: pip, quiet: .milliseconds(600))
        first.send(SIGTERM)
        _ = try first.wait(timeout: .seconds(5))

        var (named, namedPip) = try x.startPip(["--source", "test", "--name", "b"])
        let fresh = try x.settledGeometry(of: namedPip)
        #expect(fresh == start, "a new name starts at the default place, not at \(moved)")
        try x.drag(from: fresh.center, to: XPoint(700, 200), moving: namedPip)
        let namedMoved = try x.settledGeometry(of: namedPip, quiet: .milliseconds(600))
        named.send(SIGTERM)
        _ = try named.wait(timeout: .seconds(5))
        (named, namedPip) = try x.startPip(["--source", "test", "--name", "b"])
        #expect(try x.settledGeometry(of: namedPip) == namedMoved, "b comes back where b was left")
        named.send(SIGTERM)
        _ = try named.wait(timeout: .seconds(5))

        let (_, again) = try x.startPip(["--source", "test"])
        #expect(try x.settledGeometry(of: again) == moved, "the unnamed instance's place is its own")
    }
}
