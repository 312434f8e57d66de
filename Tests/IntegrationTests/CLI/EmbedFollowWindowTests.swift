import Foundation
import TestSupport
import Testing

extension EmbedTests {
    /// `pipcam --follow-window XID`: another program's window (`xlogo`) is the PiP source and
    /// restore target; pipcam has no window of its own.
    @Suite struct FollowWindow {
        @Test(arguments: [WindowManager.openbox, .none])
        func followedWindowHidesToPipAndComesBack(wm: WindowManager) throws {
            let x = try makeServer(wm)
            let app = try x.startForeignWindow(name: "video-call")
            let pipcam = try x.startPipcam(["--source", "test", "--follow-window", "\(app.window)"])
            let (pip, proxy) = try x.pipWindows()
            #expect(try x.windows(className: "pipcam", role: PipcamRole.main).isEmpty, "no main window")
            let before = try x.waitForStableGeometry(of: app.window)
            let outer = try x.outerGeometry(of: app.window)

            // Minimized by the user: PiP grows out of its frame.
            let grown = try x.configureRects(of: proxy) {
                try x.hide(app.window)
                try waitUntil("PiP is up", timeout: .seconds(2)) { try x.isViewable(pip) }
                try waitUntil("the animation proxy is gone", timeout: .seconds(2)) { try !x.isViewable(proxy) }
            }
            let pipFrame = try x.waitForStableGeometry(of: pip)
            #expect(animation(grown, goesFrom: outer, to: pipFrame), "grew from \(outer): \(grown)")
            #expect(try x.showsMovingPicture(pip))

            // Restored by the user: PiP goes, the window is where it was.
            try x.show(app.window)
            try waitUntil("PiP is gone", timeout: .seconds(2)) { try !x.isViewable(pip) }
            try waitUntil("the window is back", timeout: .seconds(2)) { try x.isViewable(app.window) }
            #expect(try x.waitForStableGeometry(of: app.window) == before)

            // Minimized again, then restored from PiP (double-click): pipcam brings the window back.
            // Hide/show reports in the 500 ms after a restore are taken as its echo and ignored;
            // those 500 ms start as the shrink ends and its proxy goes, however late that is.
            try waitUntil("the shrink is over", timeout: .seconds(2)) { try !x.isViewable(proxy) }
            Thread.sleep(forTimeInterval: 0.6)
            try x.hide(app.window)
            try waitUntil("PiP is up again", timeout: .seconds(2)) { try x.isViewable(pip) }
            let shrunk = try x.configureRects(of: proxy) {
                try x.click(at: try x.waitForStableGeometry(of: pip).center, count: 2)
                try waitUntil("PiP restores the window", timeout: .seconds(2)) { try x.isViewable(app.window) }
                try waitUntil("PiP is gone", timeout: .seconds(2)) { try !x.isViewable(pip) }
                Thread.sleep(forTimeInterval: 0.4)
            }
            #expect(animation(shrunk, shrinksInto: outer), "shrank into \(outer): \(shrunk)")
            #expect(try x.waitForStableGeometry(of: app.window) == before)
            if wm != .none {
                #expect(try x.rawIntegers("WM_STATE", of: app.window)?.first == 1, "NormalState again")
            }

            // The window's program ends: pipcam says so in one line and exits 0.
            app.process.terminate(grace: .seconds(2))
            try expectEndsAsWindowGone(pipcam, app.window)
        }

        /// pipcam ends because its followed window is gone: exit 0, one line naming the window.
        func expectEndsAsWindowGone(_ pipcam: RunningProcess, _ window: XWindowID) throws {
            let result = try pipcam.wait(timeout: .seconds(5))
            #expect(result.termination == .exited(0), "\(result)")
            #expect(lines(of: result.stderrText) == ["pipcam: window \(window) is gone"], "\(result.stderrText)")
        }

        /// The window destroyed while the source still starts (a pipe nobody writes yet): once the
        /// frames come, pipcam says the window is gone and exits 0 rather than run on with no window
        /// (or, embedding, fail with 1 as if it could not embed).
        @Test(arguments: ["--follow-window", "--wid"])
        func aWindowGoneWhileTheSourceStartsEndsPipcam(_ flag: String) throws {
            let x = try makeServer(.none)
            let app = try x.startForeignWindow(name: "video-call")
            let fifo = x.directory + "/late.y4m"
            #expect(mkfifo(fifo, 0o600) == 0)
            let pipcam = try x.startPipcam(["--source", "y4m:\(fifo)", flag, "\(app.window)"])
            try waitUntilWaitingForAWriter(pipcam)
            app.process.terminate(grace: .seconds(2))
            try waitUntil("the window is gone", timeout: .seconds(3)) { try x.info(of: app.window) == nil }
            let clip = try TestMedia.y4m(subsampling: 420, width: 160, height: 120, frames: 10, rate: 30)
            try x.startStalledWriter(into: fifo, from: clip)
            try expectEndsAsWindowGone(pipcam, app.window)
        }

        /// Follows the hidden `window`: PiP starts by itself; stopped, the window comes back and PiP goes.
        private func followHiddenUntilPipStartsThenStop(_ x: XServer, _ window: XWindowID) throws {
            _ = try x.startPipcam(["--source", "test", "--follow-window", "\(window)"])
            let (pip, _) = try x.pipWindows()
            try waitUntil("PiP is up", timeout: .seconds(3)) { try x.isViewable(pip) }
            Thread.sleep(forTimeInterval: 0.6)  // past the restore grace
            #expect(try x.runPipcam(["stop"]).succeeded)
            try waitUntil("the window is back", timeout: .seconds(2)) { try x.isViewable(window) }
            try waitUntil("PiP is gone", timeout: .seconds(2)) { try !x.isViewable(pip) }
        }

        /// Followed while already minimized: PiP starts by itself, and stopping it brings the window
        /// back (shrinking into where it will be), as for a window minimized later.
        @Test func aWindowMinimizedBeforePipcamStartsComesBackWhenPipStops() throws {
            let x = try makeServer(.openbox)
            let app = try x.startForeignWindow(name: "video-call")
            let before = try x.waitForStableGeometry(of: app.window)
            try x.hide(app.window)
            try waitUntil("the window is minimized", timeout: .seconds(2)) {
                try x.rawIntegers("WM_STATE", of: app.window)?.first == 3
            }
            try followHiddenUntilPipStartsThenStop(x, app.window)
            #expect(try x.rawIntegers("WM_STATE", of: app.window)?.first == 1, "NormalState again")
            #expect(try x.waitForStableGeometry(of: app.window) == before)
        }

        /// With no window manager, a window unmapped before pipcam follows it has no frame to
        /// shrink into: PiP starts by itself, and stopping it still maps the window again (it
        /// stayed unmapped, and the camera showed nowhere).
        @Test func anUnmappedWindowWithNoWindowManagerComesBackWhenPipStops() throws {
            let x = try makeServer(.none)
            let app = try x.startForeignWindow(name: "video-call")
            _ = try x.waitForStableGeometry(of: app.window)
            try x.runChecked(["xdotool", "windowunmap", "--sync", "\(app.window.raw)"])
            try followHiddenUntilPipStartsThenStop(x, app.window)
        }

        /// Minimized, then withdrawn by its application (closed to the tray: the window manager
        /// drops its WM_STATE and _NET_WM_STATE): PiP stays up, and the window stays hidden.
        @Test func aMinimizedWindowWithdrawnKeepsPipAndStaysHidden() throws {
            let x = try makeServer(.openbox)
            let app = try x.startForeignWindow(name: "video-call")
            _ = try x.startPipcam(["--source", "test", "--follow-window", "\(app.window)"])
            let (pip, _) = try x.pipWindows()
            try x.hide(app.window)
            try waitUntil("PiP is up", timeout: .seconds(3)) { try x.isViewable(pip) }
            // What openbox does when it unmanages a withdrawn window.
            try x.runChecked(["xprop", "-id", "\(app.window)", "-remove", "_NET_WM_STATE"])
            try x.runChecked(["xprop", "-id", "\(app.window)", "-remove", "WM_STATE"])
            try x.waitForPipcamToCatchUp(pip)  // it has handled both property changes
            #expect(try x.pipcamStatus().object["state"] as? String == "active", "PiP stopped for a window that was withdrawn, not shown")
            #expect(try x.isViewable(pip))
            #expect(try x.info(of: app.window)?.mapState == "IsUnMapped", "the withdrawn window was mapped again")
            // Stopped by the user: PiP goes, and the window its application hid stays hidden.
            #expect(try x.runPipcam(["stop"]).succeeded)
            try waitUntil("PiP is idle", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "idle" }
            #expect(try !x.isViewable(pip))
            try x.waitForPipcamToCatchUp(pip)
            #expect(try x.info(of: app.window)?.mapState == "IsUnMapped", "stopping PiP showed the window its application hid")
        }
    }

    /// Window ids that name nothing usable: exit 2, one `pipcam: …` line naming the culprit, no window.
    @Suite struct BadWindowIDs {
        static let cases: [(arguments: [String], environment: [String: String], culprit: String)] = [
            (["--wid", "0x123"], [:], "0x123"),
            (["--wid", "zz"], [:], "zz"),
            (["--follow-window", "12345"], [:], "12345"),
            (["--follow-window", "0"], [:], "'0'"),
            ([], ["XEMBED": "0x123"], "$XEMBED 0x123"),
            ([], ["XEMBED": "abc"], "abc"),
        ]

        @Test(arguments: 0..<cases.count)
        func invalidWindowIDExitsTwoWithOneLine(index: Int) throws {
            let (arguments, environment, culprit) = Self.cases[index]
            let x = try makeServer(.none)
            let (mapped, result) = try x.watchingForMappedWindows { () throws -> RunningProcess in
                let p = try x.startPipcam(["--source", "test"] + arguments, extraEnvironment: environment)
                _ = try p.wait(timeout: .seconds(5))
                return p
            }
            let ended = try result.wait(timeout: .seconds(1))
            #expect(ended.termination == .exited(2), "\(ended)")
            let errors = lines(of: ended.stderrText)
            #expect(errors.count == 1, "one line: \(ended.stderrText)")
            #expect(errors.first?.hasPrefix("pipcam: ") == true, "\(errors)")
            #expect(errors.first?.contains(culprit) == true, "names \(culprit): \(errors)")
            #expect(mapped.isEmpty, "no window was mapped: \(mapped)")
        }

        /// The root window is no window to embed into or to follow (its events would go to that
        /// role alone): exit 2, one line.
        @Test(arguments: ["--wid", "--follow-window"])
        func theRootWindowIsRefused(_ flag: String) throws {
            let x = try makeServer(.none)
            let root = try x.rootWindow()
            let r = try x.runPipcam(["--source", "test", flag, "\(root)"])
            #expect(r.exitCode == 2 && r.stderrText == "pipcam: \(flag) \(root): is the root window\n", "\(r)")
        }
    }

    /// What `--follow-window` is given, as scripts find it.
    @Suite struct FollowWindowIDs {
        /// The window manager's frame around the application's window (`xwininfo -tree`, `xdotool
        /// selectwindow` on the border): minimizing the application still starts PiP.
        @Test func aFrameIdFollowsTheApplicationWindowInIt() throws {
            let x = try makeServer(.openbox)
            let app = try x.startForeignWindow(name: "video-call")
            let frame = try #require(try x.parent(of: app.window))
            let root = try x.rootWindow()
            #expect(frame != app.window && root != frame, "openbox reparents into a frame")
            _ = try x.startPipcam(["--source", "test", "--follow-window", "\(frame)"])
            let (pip, _) = try x.pipWindows()
            try x.hide(app.window)
            try waitUntil("PiP is up", timeout: .seconds(3)) { try x.isViewable(pip) }
        }

        /// tabbed exports `$XEMBED` to every shell inside it: `--follow-window` there follows, and
        /// neither embeds nor fails on a stale `$XEMBED`.
        @Test func followingIgnoresXEMBED() throws {
            let x = try makeServer(.none)
            let app = try x.startForeignWindow(name: "video-call")
            let p = try x.startPipcam(["--source", "test", "--follow-window", "\(app.window)"], extraEnvironment: ["XEMBED": "0x123"])
            let (pip, _) = try x.pipWindows()
            try x.hide(app.window)
            try waitUntil("PiP is up", timeout: .seconds(3)) { try x.isViewable(pip) }
            #expect(p.isRunning, "\(p.stderrText)")
        }
    }
}
