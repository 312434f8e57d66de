import Foundation
import TestSupport
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
        /// (i3 is not among the window managers here: it puts a new window on its focused output,
        /// whatever position the window asks for.)
        @Test(arguments: [(WindowManager.openbox, true), (.openbox, false), (.none, true), (.fluxbox, true)])
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

        /// mutter's top bar is on the primary only: `_NET_WORKAREA` takes its 30 px off the top of
        /// the whole screen, `_GTK_WORKAREAS_D0` off the primary alone. While the window manager
        /// lists `_GTK_WORKAREAS` as supported, a top-right PiP on the other monitor sits 24 px from
        /// that monitor's top, not 54, and on the primary below the bar; a property no running window
        /// manager supports (left by mutter) is not used.
        @Test func perMonitorWorkAreasPlacePipBesideAPanelOnAnotherMonitor() throws {
            let x = try makeTwoMonitorServer(.openbox)
            try x.runChecked(["xprop", "-root", "-f", "_NET_WORKAREA", "32c", "-set", "_NET_WORKAREA", "0, 30, 3200, 1170"])
            try x.runChecked([
                "xprop", "-root", "-f", "_GTK_WORKAREAS_D0", "32c", "-set", "_GTK_WORKAREAS_D0",
                "1920, 0, 1280, 1024, 0, 30, 1920, 1170",
            ])
            func pipTop(on monitor: XRect) throws -> Int {
                try x.movePointer(to: monitor.center)
                let (p, window) = try x.startPip(["--source", "test", "--corner", "top-right"])
                let frame = try x.settledGeometry(of: window)
                #expect(abs(frame.maxX - (monitor.maxX - 24)) <= 2, "PiP \(frame) on \(monitor)")
                p.send(SIGTERM)
                #expect(try p.wait(timeout: .seconds(5)).termination == .exited(0))
                return frame.y
            }
            #expect(abs(try pipTop(on: Self.small) - 54) <= 2, "stale per-monitor areas are not used")
            try addGtkWorkAreasToSupported(x)
            let top = try pipTop(on: Self.small)
            #expect(abs(top - 24) <= 2, "the small monitor has no bar: PiP at y = \(top)")
            #expect(abs(try pipTop(on: Self.big) - 54) <= 2, "below the big monitor's bar")
        }

        /// Adds `_GTK_WORKAREAS` to openbox's `_NET_SUPPORTED`, as mutter lists it.
        private func addGtkWorkAreasToSupported(_ x: XServer) throws {
            // xprop sets one atom per property: the list goes in as numbers (read as such too), ours
            // first, as xprop takes at most 64 of them (openbox's are mostly its own after that).
            func atomIDs(_ property: String) throws -> [Int] {
                try x.runChecked(["xprop", "-root", "-f", property, "32x", property]).stdoutText
                    .matches(of: /0x[0-9a-f]+/).compactMap { Int($0.output.dropFirst(2), radix: 16) }
            }
            try x.runChecked(["xprop", "-root", "-f", "PIPCAM_TEST_ATOM", "32a", "-set", "PIPCAM_TEST_ATOM", "_GTK_WORKAREAS"])
            let supported = try atomIDs("PIPCAM_TEST_ATOM") + atomIDs("_NET_SUPPORTED")
            try #require(supported.count > 10, "openbox's _NET_SUPPORTED and _GTK_WORKAREAS: \(supported)")
            try x.runChecked([
                "xprop", "-root", "-f", "_NET_SUPPORTED", "32c", "-set", "_NET_SUPPORTED", supported.map(String.init).joined(separator: ","),
            ])
        }

        /// A shown PiP follows its monitor's work area when `_GTK_WORKAREAS_D<n>` changes (a bar
        /// added on the small monitor) and when another desktop, with other areas, comes up.
        @Test func pipFollowsPerMonitorWorkAreasAsTheyChange() throws {
            let x = try makeTwoMonitorServer(.openbox)
            try addGtkWorkAreasToSupported(x)
            func setAreas(desktop: Int, smallTop: Int) throws {
                let property = "_GTK_WORKAREAS_D\(desktop)"
                try x.runChecked([
                    "xprop", "-root", "-f", property, "32c", "-set", property,
                    "1920, \(smallTop), 1280, \(1024 - smallTop), 0, 30, 1920, 1170",
                ])
            }
            try setAreas(desktop: 0, smallTop: 0)
            try setAreas(desktop: 1, smallTop: 0)
            try x.movePointer(to: Self.small.center)
            let (_, window) = try x.startPip(["--source", "test", "--corner", "top-right", "--size", "320x180"])
            _ = try x.settledGeometry(of: window)
            let opened = try x.outerGeometry(of: window)
            #expect(abs(opened.y - 24) <= 2, "\(opened)")
            try setAreas(desktop: 0, smallTop: 40)
            try waitUntil("PiP below the new bar", timeout: .seconds(5)) { abs(try x.outerGeometry(of: window).y - 64) <= 2 }
            try x.runChecked(["xdotool", "set_desktop", "1"])
            try waitUntil("PiP on desktop 1's area", timeout: .seconds(5)) { abs(try x.outerGeometry(of: window).y - 24) <= 2 }
            #expect(try x.isViewable(window), "PiP is on every desktop")
            let frame = try x.outerGeometry(of: window)
            #expect(abs(frame.maxX - (Self.small.maxX - 24)) <= 2, "still in the small monitor's corner: \(frame)")
        }

        /// The main window opens centred on the pointer's monitor; moved to the other monitor
        /// before PiP starts, PiP grows out of it there, in that monitor's corner, and again after
        /// it is moved back: PiP follows it until the user moves PiP, and is not remembered.
        @Test(arguments: [WindowManager.none, .openbox])
        func pipFollowsTheMainWindowToItsMonitor(_ manager: WindowManager) throws {
            let x = try makeTwoMonitorServer(manager)
            try x.movePointer(to: Self.big.center)
            let p = try x.startPipcam(["--source", "test"])
            let main = try x.waitForWindow(className: "pipcam", role: "main")
            let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
            let opened = try x.waitForStableGeometry(of: main)
            if manager == .none {  // openbox places windows itself
                #expect(abs(opened.center.x - Self.big.center.x) <= 2 && abs(opened.center.y - Self.big.center.y) <= 2,
                        "main window \(opened) is not centred on \(Self.big)")
            }
            for monitor in [Self.small, Self.big, Self.small] {
                let frame = try startPip(x, pip, withTheMainWindow: main, on: monitor)
                let outer = try x.outerGeometry(of: pip)
                #expect(abs(outer.maxX - (monitor.maxX - 24)) <= 2 && abs(outer.maxY - (monitor.maxY - 24)) <= 2,
                        "PiP \(outer) is not in the bottom-right corner of \(monitor)")
                #expect(abs(frame.width - monitor.width / 4) <= 2, "PiP \(frame) is not a quarter of \(monitor) wide")
                try stopPip(x, pip, backTo: main)
            }
            #expect(p.isRunning)
            let remembered = x.directory + "/state/pipcam/geometry"
            #expect(!FileManager.default.fileExists(atPath: remembered), "a place nobody chose was remembered")
        }

        /// `--size` too large for the small monitor is shrunk there, and is the size given again
        /// when PiP follows the main window to the big monitor.
        @Test func aGivenSizeShrunkOnASmallMonitorComesBackOnABigOne() throws {
            let x = try makeTwoMonitorServer(.none)
            try x.movePointer(to: Self.small.center)
            let p = try x.startPipcam(["--source", "test", "--size", "1400x788"])
            let main = try x.waitForWindow(className: "pipcam", role: "main")
            let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
            _ = try x.waitForStableGeometry(of: main)
            for (monitor, width) in [(Self.small, Self.small.width - 48), (Self.big, 1400)] {
                let frame = try startPip(x, pip, withTheMainWindow: main, on: monitor)
                #expect(abs(frame.width - width) <= 2 && monitor.intersection(frame) == frame, "PiP \(frame) on \(monitor)")
                try stopPip(x, pip, backTo: main)
            }
            #expect(p.isRunning)
        }

        /// Moves the main window onto `monitor`, starts PiP and returns PiP's frame once settled.
        private func startPip(_ x: XServer, _ pip: XWindowID, withTheMainWindow main: XWindowID, on monitor: XRect) throws -> XRect {
            try x.runChecked(["xdotool", "windowmove", "\(main)", "\(monitor.x + 100)", "100"])
            try waitUntil("the main window to reach \(monitor)", timeout: .seconds(5)) {
                monitor.intersection(try x.geometry(of: main)) == (try x.geometry(of: main))
            }
            try x.sendPipcam("start")
            try waitUntil("PiP is up", timeout: .seconds(5)) { try x.isViewable(pip) }
            return try x.settledGeometry(of: pip)
        }

        /// Stops PiP and waits until the main window is back where it was restored.
        private func stopPip(_ x: XServer, _ pip: XWindowID, backTo main: XWindowID) throws {
            try x.sendPipcam("stop")
            try waitUntil("PiP is gone", timeout: .seconds(5)) { try !x.isViewable(pip) }
            try waitUntil("PiP is idle", timeout: .seconds(5)) { try x.pipcamStateAfterEarlierEvents() == "idle" }
            try waitUntil("the main window is back", timeout: .seconds(5)) { try x.isViewable(main) }
            _ = try x.waitForStableGeometry(of: main)
        }

        /// A drag that leaves PiP mostly on the small monitor, partly in the dead area below it,
        /// snaps it to that monitor's bottom edge.
        @Test(arguments: [WindowManager.openbox, .none, .fluxbox])
        func aDragEndsOnTheMonitorItIsMostlyOn(_ manager: WindowManager) throws {
            let x = try makeTwoMonitorServer(manager)
            try x.movePointer(to: Self.small.center)
            let (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180", "--corner", "top-left"])
            let start = try x.settledGeometry(of: window)
            #expect(Self.small.intersection(start) == start, "PiP \(start) did not open on \(Self.small)")

            // Its bottom 60 px below the small monitor, over nothing.
            let target = XPoint(start.center.x + 300, Self.small.maxY + 60 - start.height / 2)
            try x.drag(from: start.center, to: target, moving: window, steps: 10)
            let moved = try x.settledGeometry(of: window)
            #expect(Self.small.intersection(moved) == moved, "PiP \(moved) is not inside \(Self.small)")
            #expect(moved.maxY == Self.small.maxY, "PiP \(moved) not snapped to the bottom of \(Self.small)")
            #expect(abs(moved.x - (start.x + 300)) <= 3, "the horizontal move was lost: \(start) → \(moved)")
            #expect(pipcam.isRunning)
        }

        /// The small monitor unplugged while PiP is near its bottom-right corner: PiP comes as near
        /// the bottom-right corner of the monitor left, at its size, whether the screen shrinks to the
        /// monitor left or keeps its size (an output switched off beside a larger one), and that
        /// place is not remembered over the one the user chose.
        @Test(arguments: [(WindowManager.openbox, true), (.none, true), (.none, false)])
        func pipOnAnUnpluggedMonitorComesToTheSameCornerOfTheOneLeft(_ manager: WindowManager, _ shrinks: Bool) throws {
            let x = try makeTwoMonitorServer(manager)
            try x.movePointer(to: Self.small.center)
            // No --size: a run given one would not remember the place (a quarter of 1280 is 320 wide).
            let (pipcam, window) = try x.startPip(["--source", "test"])
            let start = try x.settledGeometry(of: window)
            #expect(Self.small.intersection(start) == start && start.width == 320, "PiP \(start) did not open on \(Self.small)")
            // The user puts it in the corner: remembered.
            try x.drag(from: start.center, to: XPoint(start.center.x - 10, start.center.y + 10), moving: window)
            let chosen = try x.settledGeometry(of: window, quiet: .milliseconds(600))
            let remembered = x.directory + "/state/pipcam/geometry"
            let saved = try String(contentsOfFile: remembered, encoding: .utf8)

            let removed = try x.run(["xrandr", "--delmonitor", "M1"])
            #expect(removed.succeeded, "xrandr --delmonitor: \(removed.stderrText)")
            if shrinks { try shrinkTheScreen(x) }
            try waitUntil("PiP to come onto \(Self.big)", timeout: .seconds(5)) {
                Self.big.intersection(try x.geometry(of: window)) == (try x.geometry(of: window))
            }
            let frame = try x.settledGeometry(of: window)
            let outer = try x.outerGeometry(of: window)
            #expect(frame.width == chosen.width && frame.height == chosen.height, "resized: \(chosen) → \(frame)")
            if manager == .none {  // openbox pulls windows onto the shrunk screen itself, first
                let (right, bottom) = (Self.small.maxX - chosen.maxX, Self.small.maxY - chosen.maxY)
                #expect(Self.big.maxX - outer.maxX == right && Self.big.maxY - outer.maxY == bottom,
                        "PiP \(outer) is not \(right), \(bottom) px from the bottom-right corner of \(Self.big), as \(chosen) was on \(Self.small)")
            }
            #expect(try String(contentsOfFile: remembered, encoding: .utf8) == saved, "the user's place was overwritten")
            #expect(pipcam.isRunning)
        }

        /// The screen shrinks to the big monitor, as when the monitor on its right is unplugged.
        /// Xvfb has no second output to switch off, so xrandr shrinks the screen and then fails to
        /// set the output (its mode is still the old size): the shrink stays.
        private func shrinkTheScreen(_ x: XServer) throws {
            _ = try x.run(["xrandr", "--fb", "\(Self.big.width)x\(Self.big.height)"])
            let root = try x.geometry(of: try x.rootWindow())
            guard root.width == Self.big.width else { throw HarnessError("the screen did not shrink: \(root)") }
        }
    }
}
