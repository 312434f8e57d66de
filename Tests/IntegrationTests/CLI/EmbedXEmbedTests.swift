import Foundation
import TestSupport
import Testing

/// `Tests/Embedders/xembed-embedder.py`: an XEmbed embedder (tabbed/GtkSocket style) that runs
/// pipcam with `$XEMBED` set and reports what it sees and receives on stdout, one line each.
struct XEmbedEmbedder {
    let process: RunningProcess
    let window: XWindowID
    let x: XServer

    static let script = Pipcam.packageRoot + "/Tests/Embedders/xembed-embedder.py"

    /// Starts the embedder, which starts `pipcam arguments…` inside it; with `otherVisual`, the
    /// embedder's window has a visual other than the default one (and its own colormap), like GTK's sockets.
    init(_ x: XServer, otherVisual: Bool = false, pipcam arguments: [String]) throws {
        self.x = x
        process = try x.start(
            ["python3", Self.script] + (otherVisual ? ["--other-visual"] : []) + [try Pipcam.binaryPath()] + arguments)
        let output = try process.waitForOutput(containing: "embedder 0x", inStderr: false)
        guard let line = IntegrationTests.lines(of: output).first(where: { $0.hasPrefix("embedder ") }),
            let id = XWindowID(line.dropFirst("embedder ".count))
        else { throw HarnessError("the embedder printed no window id: \(output)") }
        window = id
    }

    /// The lines printed so far.
    var lines: [String] { IntegrationTests.lines(of: process.stdoutText) }

    /// Waits for a line starting with `prefix` and returns it.
    @discardableResult
    func waitForLine(_ prefix: String, timeout: Duration = .seconds(5)) throws -> String {
        try poll(timeout: timeout, what: "the embedder to print '\(prefix)…' (so far: \(lines), stderr: \(process.stderrText.suffix(500)))") {
            lines.first { $0.hasPrefix(prefix) }
        }
    }

    /// The `received xembed M D on W` lines.
    var received: [String] { lines.filter { $0.hasPrefix("received xembed ") } }

    /// Has the embedder carry out `command` (`focus-in`, `focus-out`, `key p`, `destroy`) and waits until it did.
    func send(_ command: String) throws {
        let before = lines.filter { $0 == "done \(command)" }.count
        try x.runChecked(["xprop", "-id", "\(window)", "-f", "_EMBEDDER_COMMAND", "8s", "-set", "_EMBEDDER_COMMAND", command])
        try waitUntil("the embedder to do '\(command)'", timeout: .seconds(3)) {
            lines.filter { $0 == "done \(command)" }.count > before
        }
    }
}

extension EmbedTests {
    /// pipcam as an XEmbed client of an embedder written here, started through `$XEMBED` like
    /// suckless tabbed starts its clients.
    @Suite struct XEmbed {
        @Test func clientSpeaksXEmbedWithItsEmbedder() throws {
            let x = try makeServer(.openbox)
            let embedder = try XEmbedEmbedder(x, pipcam: ["--source", "test"])

            // The child appears inside the embedder, says it speaks XEmbed version 0 and wants to be mapped.
            let childLine = try embedder.waitForLine("child ")
            let child = try #require(XWindowID(childLine.dropFirst("child ".count)))
            #expect(try embedder.waitForLine("xembed-info ") == "xembed-info \(child) 0 1", "_XEMBED_INFO [version 0, XEMBED_MAPPED]")
            try embedder.waitForLine("sent embedded-notify ")
            let view = try x.waitForWindow(className: "pipcam", role: PipcamRole.main)
            #expect(view == child)
            #expect(try x.parent(of: view) == embedder.window)
            try waitUntil("the view fills the embedder", timeout: .seconds(2)) {
                try x.geometry(of: view) == x.geometry(of: embedder.window)
            }
            #expect(try x.showsMovingPicture(view))

            // A click on the unfocused view asks the embedder (named by EMBEDDED_NOTIFY) for focus.
            let center = try x.geometry(of: view).center
            try x.click(at: center)
            try waitUntil("XEMBED_REQUEST_FOCUS reaches the embedder", timeout: .seconds(2)) { !embedder.received.isEmpty }
            #expect(embedder.received == ["received xembed 3 0 on \(embedder.window)"])

            // Once the embedder gave it the focus, a click asks for nothing; after focus-out it asks again.
            try embedder.send("focus-in")
            try x.click(at: center)
            Thread.sleep(forTimeInterval: 0.5)
            #expect(embedder.received.count == 1, "no focus request while focused: \(embedder.received)")
            // Focused, Tab hands the focus on to the embedder's next widget (the view has no other).
            try embedder.send("key Tab")
            try waitUntil("XEMBED_FOCUS_NEXT reaches the embedder", timeout: .seconds(2)) { embedder.received.count == 2 }
            #expect(embedder.received.last == "received xembed 6 0 on \(embedder.window)", "\(embedder.received)")
            try embedder.send("focus-out")
            try embedder.send("key Tab")
            try x.click(at: center)
            try waitUntil("a second XEMBED_REQUEST_FOCUS", timeout: .seconds(2)) { embedder.received.count == 3 }
            #expect(embedder.received.last == "received xembed 3 0 on \(embedder.window)", "no FOCUS_NEXT unfocused: \(embedder.received)")

            // Keys the embedder forwards: `p` starts PiP, Escape brings the camera back.
            let (pip, _) = try x.pipWindows()
            #expect(try !x.isViewable(pip))
            try embedder.send("key p")
            try waitUntil("PiP is up after a forwarded `p`", timeout: .seconds(2)) { try x.isViewable(pip) }
            try embedder.send("key Escape")
            try waitUntil("PiP is gone after a forwarded Escape", timeout: .seconds(2)) { try !x.isViewable(pip) }

            // It follows the embedder's size (through the embedder's SubstructureRedirect, as in tabbed).
            try x.runChecked(["xdotool", "windowsize", "\(embedder.window.raw)", "560", "300"])
            try waitUntil("the view follows the embedder to 560x300", timeout: .seconds(2)) {
                let r = try x.geometry(of: view)
                return r.width == 560 && r.height == 300
            }

            // The embedder goes away: pipcam exits 0.
            try embedder.send("destroy")
            #expect(try embedder.waitForLine("exited ") == "exited 0", "\(embedder.lines)")
        }

        /// Under `--pip` the view asks not to be mapped (`_XEMBED_INFO` flags 0), so an embedder that
        /// maps its clients by the flags (GtkSocket) shows no blank view; it asks once PiP stops.
        @Test func underPipTheViewAsksToBeMappedOnlyWhenPipStops() throws {
            let x = try makeServer(.openbox)
            let embedder = try XEmbedEmbedder(x, pipcam: ["--source", "test", "--pip"])
            let child = try #require(XWindowID(try embedder.waitForLine("child ").dropFirst("child ".count)))
            _ = try x.waitForWindow(className: "pipcam", role: PipIdentity.role)
            #expect(try x.property("_XEMBED_INFO", of: child)?.integers == [0, 0], "version 0, not mapped")
            #expect(!embedder.lines.contains { $0.hasPrefix("mapped ") }, "\(embedder.lines)")
            try x.runChecked([Pipcam.binaryPath(), "stop"])
            #expect(try embedder.waitForLine("xembed-info ") == "xembed-info \(child) 0 1", "XEMBED_MAPPED once PiP stops")
            try embedder.waitForLine("mapped ")
        }

        /// The embedder ends the embedding the spec's way (`release`: unmaps its client and hands
        /// it to the root window), or closes it as suckless tabbed closes a tab (`close-client`:
        /// WM_DELETE_WINDOW if the client takes it, else XKillClient): pipcam ends with 0, neither
        /// streaming on with no view nor cut off from the X server with 1.
        @Test(arguments: ["release", "close-client"])
        func endedByTheEmbedderPipcamExitsZero(_ command: String) throws {
            let x = try makeServer(.openbox)
            let embedder = try XEmbedEmbedder(x, pipcam: ["--source", "test"])
            try embedder.waitForLine("sent embedded-notify ")
            _ = try x.waitForWindow(className: "pipcam", role: PipcamRole.main)
            try embedder.send(command)
            #expect(try embedder.waitForLine("exited ") == "exited 0", "\(embedder.lines)")
        }

        @Test func embedsInAWindowOfAnotherVisual() throws {
            // GtkSocket windows have a visual of their own: a child inheriting the parent's
            // colormap in the default visual would fail with BadMatch and never appear.
            let x = try makeServer(.none)
            let embedder = try XEmbedEmbedder(x, otherVisual: true, pipcam: ["--source", "test"])
            #expect(try embedder.waitForLine("visual ").hasPrefix("visual 0x"))
            let child = try #require(XWindowID(try embedder.waitForLine("child ").dropFirst("child ".count)))
            try embedder.waitForLine("mapped ")
            let view = try x.waitForWindow(className: "pipcam", role: PipcamRole.main)
            #expect(view == child)
            #expect(try x.parent(of: view) == embedder.window)
            try waitUntil("the view shows the moving test pattern", timeout: .seconds(3)) { try x.showsMovingPicture(view) }
            #expect(embedder.process.isRunning && !embedder.lines.contains { $0.hasPrefix("exited") }, "\(embedder.lines)")
        }

        @Test func minimizingTheEmbedderPopsOutToPipAndBack() throws {
            let x = try makeServer(.openbox)
            let embedder = try XEmbedEmbedder(x, pipcam: ["--source", "test"])
            try embedder.waitForLine("sent embedded-notify ")
            let view = try x.waitForWindow(className: "pipcam", role: PipcamRole.main)
            let viewFrame = try x.waitForStableGeometry(of: view)
            let (pip, proxy) = try x.pipWindows()

            let grown = try x.configureRects(of: proxy) {
                try x.hide(embedder.window)
                try waitUntil("PiP is up", timeout: .seconds(2)) { try x.isViewable(pip) }
                try waitUntil("the animation proxy is gone", timeout: .seconds(2)) { try !x.isViewable(proxy) }
            }
            let pipFrame = try x.waitForStableGeometry(of: pip)
            #expect(animation(grown, goesFrom: viewFrame, to: pipFrame), "grew from \(viewFrame): \(grown)")
            // The view itself stays mapped in its minimized embedder: off screen all the same.
            #expect(try mainVisible(x) == false, "status: the view is visible while its embedder is minimized")

            try x.show(embedder.window)
            try waitUntil("PiP is gone", timeout: .seconds(2)) { try !x.isViewable(pip) }
            try waitUntil("the view is back", timeout: .seconds(2)) { try x.isViewable(view) }
            #expect(try x.parent(of: view) == embedder.window)
            #expect(try mainVisible(x) == true)
        }

        func mainVisible(_ x: XServer) throws -> Bool? {
            (try x.pipcamStatus().object["main"] as? [String: Any])?["visible"] as? Bool
        }
    }
}
