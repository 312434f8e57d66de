import Foundation
import Glibc
import TestSupport
import Testing

extension EmbedTests {
    /// `Examples/PipExample` (`pip-example`): the library used without the CLI. Its window is the
    /// PiP source; minimizing it starts PiP, restoring it stops PiP.
    @Suite struct Example {
        @Test func exampleGetsPipWhenMinimizedAndEndsCleanly() throws {
            let x = try makeServer(.openbox)
            let example = try x.start([try Pipcam.binaryPath("pip-example")])
            let window = try x.waitForWindow(className: "pip-example")
            #expect(try x.wmClass(of: window)?.class == "PipExample")
            #expect(try x.property("_NET_WM_NAME", of: window)?.strings.first == "PiP example")
            let frame = try x.waitForStableGeometry(of: window)
            let outer = try x.outerGeometry(of: window)
            let (pip, proxy) = try x.pipWindows()
            #expect(try !x.isViewable(pip))

            let grown = try x.configureRects(of: proxy) {
                try x.hide(window)
                try waitUntil("PiP is up", timeout: .seconds(2)) { try x.isViewable(pip) }
                try waitUntil("the animation proxy is gone", timeout: .seconds(2)) { try !x.isViewable(proxy) }
            }
            let pipFrame = try x.waitForStableGeometry(of: pip)
            #expect(animation(grown, goesFrom: outer, to: pipFrame), "grew from \(outer): \(grown)")
            // Frames keep coming: PiP's shared-memory completions reach the controller by themselves.
            #expect(try x.showsMovingPicture(pip), "PiP shows the moving test pattern")
            try example.waitForOutput(containing: "pip-example: PiP started")

            try x.show(window)
            try waitUntil("PiP is gone", timeout: .seconds(2)) { try !x.isViewable(pip) }
            try waitUntil("the window is back", timeout: .seconds(2)) { try x.isViewable(window) }
            #expect(try x.waitForStableGeometry(of: window) == frame)
            try example.waitForOutput(containing: "pip-example: PiP stopped")

            example.send(SIGTERM)
            let result = try example.wait(timeout: .seconds(5))
            #expect(result.termination == .exited(0), "\(result)")
            #expect(lines(of: result.stderrText) == ["pip-example: PiP started", "pip-example: PiP stopped"])
        }

        /// Playing a file, PiP's own controls reach the example's playback delegate: pause, then
        /// skip forward; a camera-less test pattern run (above) says neither.
        @Test func theExamplesPlaybackDelegateHearsPipsControls() throws {
            let x = try makeServer(.openbox)
            let clip = try FilePlaybackControlTests.clip(frames: 900)
            let example = try x.start([try Pipcam.binaryPath("pip-example"), "y4m:\(clip)"])
            let window = try x.waitForWindow(className: "pip-example")
            _ = try x.waitForStableGeometry(of: window)
            let (pip, _) = try x.pipWindows()
            try x.hide(window)
            try waitUntil("PiP is up", timeout: .seconds(5)) { try x.isViewable(pip) }
            let g = try x.waitForStableGeometry(of: pip)
            let row = g.y + g.height - 8 - 18
            try x.movePointer(to: XPoint(g.x + g.width / 2, g.y + g.height / 3))
            try x.click(at: XPoint(g.x + g.width / 2, row))
            try example.waitForOutput(containing: "pip-example: pause")
            try x.click(at: XPoint(g.x + g.width / 2 + 40, row))
            try example.waitForOutput(containing: "pip-example: skip 10.0")
            example.send(SIGTERM)
            #expect(try example.wait(timeout: .seconds(5)).termination == .exited(0))
        }
    }
}
