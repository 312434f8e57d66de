import Foundation
import TestSupport
import Testing

extension EmbedTests {
    /// `pipcam --wid XID` in a plain parent window of another program (mpv style: the parent knows
    /// nothing of XEmbed). The parent is `xlogo`.
    @Suite struct Parent {
        @Test(arguments: [WindowManager.openbox, .none])
        func viewLivesInTheParentFollowsItAndPopsOutToPip(wm: WindowManager) throws {
            let x = try makeServer(wm)
            let host = try x.startForeignWindow()
            let pipcam = try x.startPipcam(["--source", "test", "--wid", "\(host.window)"])
            let view = try x.waitForWindow(className: "pipcam", role: PipcamRole.main)
            let (pip, proxy) = try x.pipWindows()

            // A child of the parent, filling it, showing the moving test pattern.
            #expect(try x.parent(of: view) == host.window)
            let hostFrame = try x.geometry(of: host.window)
            try waitUntil("the view fills its parent", timeout: .seconds(2)) { try x.geometry(of: view) == hostFrame }
            #expect(try x.showsMovingPicture(view), "the view shows the moving test pattern")
            #expect(try !x.isViewable(pip))

            // It follows the parent's size.
            try x.runChecked(["xdotool", "windowsize", "\(host.window.raw)", "520", "330"])
            try waitUntil("the parent is 520x330", timeout: .seconds(2)) {
                let r = try x.geometry(of: host.window)
                return r.width == 520 && r.height == 330
            }
            try waitUntil("the view follows the parent's new size", timeout: .seconds(2)) {
                try x.geometry(of: view) == x.geometry(of: host.window)
            }
            // Two quick resizes, the second back to where it was: the view ends at the parent's size.
            try x.runChecked(["xdotool", "windowsize", "\(host.window.raw)", "600", "400", "windowsize", "\(host.window.raw)", "520", "330"])
            try waitUntil("the parent is 520x330 again", timeout: .seconds(2)) { try x.geometry(of: host.window).width == 520 }
            Thread.sleep(forTimeInterval: 0.3)
            #expect(try x.geometry(of: view) == x.geometry(of: host.window), "the view after a resize and back")
            let viewFrame = try x.waitForStableGeometry(of: view)
            let hostBefore = try x.geometry(of: host.window)

            // Hiding the parent's top-level: PiP grows out of the view's on-screen frame.
            let grown = try x.configureRects(of: proxy) {
                try x.hide(host.window)
                try waitUntil("PiP is up", timeout: .seconds(2)) { try x.isViewable(pip) }
                try waitUntil("the animation proxy is gone", timeout: .seconds(2)) { try !x.isViewable(proxy) }
            }
            let pipFrame = try x.waitForStableGeometry(of: pip)
            #expect(!grown.isEmpty, "an animation window grew out of the view")
            #expect(animation(grown, goesFrom: viewFrame, to: pipFrame), "grew from \(viewFrame): \(grown)")
            #expect(try x.showsMovingPicture(pip), "PiP shows the moving test pattern")
            #expect(try !x.isViewable(view), "the view went with its hidden parent")
            #expect(try x.parent(of: view) == host.window, "the embedded view is never reparented")

            // Showing it again: PiP shrinks back into the view, which shows video again.
            let shrunk = try x.configureRects(of: proxy) {
                try x.show(host.window)
                try waitUntil("PiP is gone", timeout: .seconds(2)) { try !x.isViewable(pip) }
                // The proxy was mapped before PiP went; it goes when the 250 ms shrink is over.
                try waitUntil("the shrink to end", timeout: .seconds(3)) { try !x.isViewable(proxy) }
            }
            #expect(animation(shrunk, shrinksInto: viewFrame), "shrank into \(viewFrame): \(shrunk)")
            try waitUntil("the view is back", timeout: .seconds(2)) { try x.isViewable(view) }
            #expect(try x.waitForStableGeometry(of: host.window) == hostBefore, "the parent is where it was")
            try waitUntil("video is back in the view", timeout: .seconds(2)) { try x.showsMovingPicture(view) }

            // The parent's program ends: its window goes, the view with it, and pipcam exits 0.
            host.process.terminate(grace: .seconds(2))
            let result = try pipcam.wait(timeout: .seconds(5))
            #expect(result.termination == .exited(0), "\(result)")
            #expect(result.stderrText.isEmpty, "\(result.stderrText)")
        }

        @Test func pipcamSelectsNoButtonEventsOnTheParent() throws {
            // Button presses on a window can be selected by one client only: pipcam taking them on
            // the parent would take the parent's own clicks away (BadAccess for its program).
            let x = try makeServer(.none)
            let host = try x.startForeignWindow()
            /// The events any client selected on the parent (`xwininfo -events`, "Someone wants these events").
            func selected() throws -> [String] {
                let text = try x.runChecked(["xwininfo", "-events", "-id", "\(host.window)"]).stdoutText
                guard let start = text.range(of: "Someone wants these events:") else { return [] }
                let rest = text[start.upperBound...]
                let block = rest.range(of: "\n\n").map { rest[..<$0.lowerBound] } ?? rest
                return block.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            }
            let before = try selected()
            #expect(!before.contains("ButtonPress") && before.contains("StructureNotify"), "xlogo's own selection: \(before)")
            // A decimal id (xdotool's and xwininfo's -int form) names the window as hex does.
            _ = try x.startPipcam(["--source", "test", "--wid", "\(host.window.raw)"])
            let view = try x.waitForWindow(className: "pipcam", role: PipcamRole.main)
            #expect(try x.parent(of: view) == host.window)
            let after = try selected()
            #expect(!after.contains("ButtonPress") && !after.contains("ButtonRelease"), "\(after)")
        }
    }
}
