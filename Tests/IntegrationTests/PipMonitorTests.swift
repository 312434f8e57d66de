import Foundation
import Testing

extension PipTests {
    /// Two monitors of different sizes side by side: a 1920×1200 primary and a 1280×1024 one to its
    /// right, in a 3200×1200 screen whose bottom-right 1280×176 no monitor shows. `_NET_WORKAREA`
    /// covers all of it, so PiP placed by the work area alone lands in that dead area.
    @Suite struct Monitors {
        static let big = XRect(x: 0, y: 0, width: 1920, height: 1200)
        static let small = XRect(x: 1920, y: 0, width: 1280, height: 1024)

        func makeTwoMonitorServer(_ manager: WindowManager) throws -> XServer {
            try makeServer(manager, width: 3200, height: 1200, monitors: [Self.big, Self.small])
        }

        /// PiP opens on the monitor the user is at, in its corner, a quarter of that monitor wide.
        @Test(arguments: [(WindowManager.openbox, true), (.openbox, false), (.none, true)])
        func pipOpensInTheCornerOfThePointersMonitor(_ manager: WindowManager, _ onSmall: Bool) throws {
            let x = try makeTwoMonitorServer(manager)
            let monitor = onSmall ? Self.small : Self.big
            try x.movePointer(to: monitor.center)
            let (_, window) = try x.startPip(["--source", "test"])
            _ = try x.settledGeometry(of: window)
            let frame = try x.outerGeometry(of: window)
            #expect(abs(frame.maxX - (monitor.maxX - 24)) <= 2, "right edge: \(frame) on \(monitor)")
            #expect(abs(frame.maxY - (monitor.maxY - 24)) <= 2, "bottom edge: \(frame) on \(monitor)")
            #expect(abs(frame.width - monitor.width / 4) <= 2, "width: \(frame) on \(monitor)")
        }

        /// The main window opens centred on the pointer's monitor; moved to the other monitor
        /// before PiP ever started, PiP grows out of it there, in that monitor's corner.
        @Test func pipStartsOnTheMonitorTheMainWindowWasMovedTo() throws {
            let x = try makeTwoMonitorServer(.none)
            try x.movePointer(to: Self.big.center)
            let p = try x.startPipcam(["--source", "test"])
            let main = try x.waitForWindow(className: "pipcam", role: "main")
            let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
            let opened = try x.waitForStableGeometry(of: main)
            #expect(abs(opened.center.x - Self.big.center.x) <= 2 && abs(opened.center.y - Self.big.center.y) <= 2,
                    "main window \(opened) is not centred on \(Self.big)")

            try x.runChecked(["xdotool", "windowmove", "\(main)", "\(Self.small.x + 100)", "100"])
            _ = try x.waitForStableGeometry(of: main)
            #expect(try x.runPipcam(["start"]).succeeded)
            try waitUntil("PiP is up", timeout: .seconds(5)) { try x.isViewable(pip) }
            let frame = try x.settledGeometry(of: pip)
            #expect(abs(frame.maxX - (Self.small.maxX - 24)) <= 2 && abs(frame.maxY - (Self.small.maxY - 24)) <= 2,
                    "PiP \(frame) is not in the bottom-right corner of \(Self.small)")
            #expect(p.isRunning)
        }

        /// A drag that leaves PiP mostly on the small monitor, partly in the dead area below it,
        /// snaps it to that monitor's bottom edge.
        @Test(arguments: [WindowManager.openbox, .none])
        func aDragEndsOnTheMonitorItIsMostlyOn(_ manager: WindowManager) throws {
            let x = try makeTwoMonitorServer(manager)
            try x.movePointer(to: Self.small.center)
            let (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
            let start = try x.settledGeometry(of: window)
            #expect(Self.small.intersection(start) == start, "PiP \(start) did not open on \(Self.small)")

            // Its bottom 60 px below the small monitor, over nothing.
            let target = XPoint(start.center.x + 300, Self.small.maxY + 60 - start.height / 2)
            try x.drag(from: start.center, to: target, steps: 10)
            let moved = try x.settledGeometry(of: window)
            #expect(Self.small.intersection(moved) == moved, "PiP \(moved) is not inside \(Self.small)")
            #expect(moved.maxY == Self.small.maxY, "PiP \(moved) not snapped to the bottom of \(Self.small)")
            #expect(abs(moved.x - (start.x + 300)) <= 3, "the horizontal move was lost: \(start) → \(moved)")
            #expect(pipcam.isRunning)
        }

        /// The small monitor unplugged while PiP is on it (the screen shrinks to the big one): PiP
        /// comes onto the monitor that is left, at its size.
        @Test(arguments: [WindowManager.openbox, .none])
        func pipOnAnUnpluggedMonitorComesOntoTheOneLeft(_ manager: WindowManager) throws {
            let x = try makeTwoMonitorServer(manager)
            try x.movePointer(to: Self.small.center)
            let (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180"])
            let start = try x.settledGeometry(of: window)
            #expect(Self.small.intersection(start) == start, "PiP \(start) did not open on \(Self.small)")

            try unplugTheSmallMonitor(x)
            try waitUntil("PiP to come onto \(Self.big)", timeout: .seconds(5)) {
                Self.big.intersection(try x.geometry(of: window)) == (try x.geometry(of: window))
            }
            let frame = try x.settledGeometry(of: window)
            #expect(frame.width == 320 && frame.height == 180, "resized: \(start) → \(frame)")
            #expect(pipcam.isRunning)
        }

        /// What unplugging does to the server: the monitor goes, and the screen shrinks to the
        /// monitor left. Xvfb has no second output to switch off, so xrandr shrinks the screen and
        /// then fails to set the output (its mode is still the old size): the shrink stays.
        private func unplugTheSmallMonitor(_ x: XServer) throws {
            let removed = try x.run(["xrandr", "--delmonitor", "M1"])
            guard removed.succeeded else { throw HarnessError("xrandr --delmonitor: \(removed.stderrText)") }
            _ = try x.run(["xrandr", "--fb", "\(Self.big.width)x\(Self.big.height)"])
            let root = try x.geometry(of: try x.rootWindow())
            guard root.width == Self.big.width else { throw HarnessError("the screen did not shrink: \(root)") }
        }
    }
}
