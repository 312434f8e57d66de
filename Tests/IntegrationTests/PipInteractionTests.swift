import Foundation
import Testing

/// Issue #8's window interactions on the real PiP window: hover controls, snapping, wheel resize,
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

    @Test(arguments: [WindowManager.openbox, .none])
    func moveEndingNearACornerSnapsFlush(wm: WindowManager) throws {
        let x = try makeServer(wm)
        let (_, pip) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
        let area = try x.workArea()
        let r = try x.settledGeometry(of: pip)
        // Drag so the window ends 10 px from the top-right corner's edges.
        let target = XPoint(area.x + area.width - 10 - r.width + (r.center.x - r.x), area.y + 10 + (r.center.y - r.y))
        try x.drag(from: r.center, to: target)
        try waitUntil("the window snapped to the top-right corner", timeout: .seconds(3)) {
            let g = try x.geometry(of: pip)
            return g.x + g.width == area.x + area.width && g.y == area.y
        }
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
        try x.drag(from: start.center, to: destination)
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
        let (_, third) = try x.startPip(["--source", "test", "--corner", "top-left"])
        let placed = try x.settledGeometry(of: third)
        let area = try x.workArea()
        #expect(placed.x == area.x + 24 && placed.y == area.y + 24)
    }
}
