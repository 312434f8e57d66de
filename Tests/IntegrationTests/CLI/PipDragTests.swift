import Foundation
import Testing

extension PipTests {
    /// Dragging the borderless window: anywhere inside moves it, within 8 px of a corner
    /// resizes it with the aspect kept. openbox does it through `_NET_WM_MOVERESIZE`,
    /// with no WM pipcam does it itself.
    @Suite struct Drag {
        @Test(arguments: [WindowManager.openbox, .none])
        func dragInsideMovesTheWindow(_ manager: WindowManager) throws {
            let x = try makeServer(manager)
            let (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
            let start = try x.settledGeometry(of: window)

            let grab = start.center
            try x.drag(from: grab, to: XPoint(grab.x + 300, grab.y + 200), moving: window, steps: 10)
            let moved = try x.settledGeometry(of: window)
            let expected = start.offsetBy(dx: 300, dy: 200)
            #expect(abs(moved.x - expected.x) <= 3 && abs(moved.y - expected.y) <= 3,
                    "dragged by (300, 200) from \(start): now \(moved), expected \(expected)")
            #expect(moved.width == start.width && moved.height == start.height, "a move changed the size: \(start) → \(moved)")

            // And back up-left, by a different amount.
            try x.drag(from: moved.center, to: XPoint(moved.center.x - 150, moved.center.y - 100), moving: window, steps: 10)
            let back = try x.settledGeometry(of: window)
            let expectedBack = moved.offsetBy(dx: -150, dy: -100)
            #expect(abs(back.x - expectedBack.x) <= 3 && abs(back.y - expectedBack.y) <= 3,
                    "dragged by (-150, -100) from \(moved): now \(back), expected \(expectedBack)")
            #expect(pipcam.isRunning)
        }

        /// Grown past the screen's edge by its own resize (no window manager bounds it), PiP comes
        /// back inside the work area when the drag ends.
        @Test func aResizePastTheScreenEdgeEndsInside() throws {
            let x = try makeServer(.none)
            let (_, window) = try x.startPip(["--source", "test", "--size", "480x270"])
            let area = try x.workArea()
            let start = try x.settledGeometry(of: window)
            let grab = XPoint(start.x + 2, start.center.y)  // the left edge: the vertical centre stays
            try x.drag(from: grab, to: XPoint(grab.x - 400, grab.y), moving: window, steps: 10)
            let r = try x.settledGeometry(of: window)
            #expect(r.width > start.width + 300, "not resized: \(start) → \(r)")
            #expect(r.x >= area.x && r.y >= area.y && r.maxX <= area.x + area.width && r.maxY <= area.y + area.height,
                    "\(r) is not inside \(area)")
        }

        @Test(arguments: [WindowManager.openbox, .none])
        func bottomRightCornerDragResizesKeepingTheAspect(_ manager: WindowManager) throws {
            let x = try makeServer(manager)
            let (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
            let start = try x.settledGeometry(of: window)

            // 3 px inside the bottom-right corner; drag by a delta that is not 16:9.
            let grab = XPoint(start.maxX - 3, start.maxY - 3)
            try x.drag(from: grab, to: XPoint(grab.x + 200, grab.y + 40), moving: window, steps: 10)
            let resized = try x.settledGeometry(of: window)

            #expect(abs(resized.x - start.x) <= 2 && abs(resized.y - start.y) <= 2,
                    "the top-left corner moved: \(start) → \(resized)")
            #expect(resized.width * resized.height > start.width * start.height * 6 / 5,
                    "not enlarged: \(start) → \(resized)")
            let ratio = Double(resized.width) / Double(resized.height)
            #expect(abs(ratio / (16.0 / 9.0) - 1) <= 0.02, "aspect lost: \(resized) has ratio \(ratio)")

            // Shrink it again from the new corner (width-driven: -160 px; height-driven: -107 px).
            let grab2 = XPoint(resized.maxX - 3, resized.maxY - 3)
            try x.drag(from: grab2, to: XPoint(grab2.x - 160, grab2.y - 60), moving: window, steps: 10)
            let shrunk = try x.settledGeometry(of: window)
            #expect(abs(shrunk.x - start.x) <= 2 && abs(shrunk.y - start.y) <= 2,
                    "the top-left corner moved: \(resized) → \(shrunk)")
            #expect(shrunk.width <= resized.width - 60, "not shrunk: \(resized) → \(shrunk)")
            let ratio2 = Double(shrunk.width) / Double(shrunk.height)
            #expect(abs(ratio2 / (16.0 / 9.0) - 1) <= 0.02, "aspect lost: \(shrunk) has ratio \(ratio2)")
            #expect(pipcam.isRunning)
        }
    }
}

extension PipTests.Drag {
    /// i3 floats (and makes sticky) a window mapped with `_NET_WM_DESKTOP = 0xFFFFFFFF`: the PiP
    /// keeps its own size instead of being tiled full-screen, and a drag moves it.
    @Test func floatsUnderI3AndDragMovesIt() throws {
        let x = try makeServer(.i3)
        let (pipcam, window) = try x.startPip(["--source", "test", "--size", "400x225", "--corner", "top-left"])
        let start = try x.settledGeometry(of: window)
        #expect(start.width == 400 && start.height == 225, "tiled instead of floating: \(start)")

        try x.drag(from: start.center, to: XPoint(start.center.x + 250, start.center.y + 150), moving: window, steps: 10)
        let moved = try x.settledGeometry(of: window)
        let expected = start.offsetBy(dx: 250, dy: 150)
        #expect(abs(moved.x - expected.x) <= 3 && abs(moved.y - expected.y) <= 3,
                "dragged by (250, 150) from \(start): now \(moved), expected \(expected)")
        #expect(pipcam.isRunning)
    }
}
