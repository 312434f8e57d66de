import CameraSource
import Foundation
@testable import PipWindow
import Testing
import PipCore

/// The library's `PipController` used as an application would, in this process on its own Xvfb
/// (no window manager).
@Suite struct PipControllerLifecycleTests {
    /// A controller for a mapped 640×360 window of this process, on its own Xvfb (no window manager).
    static func controllerOnItsOwnServer() throws -> (XServer, XDisplay, DisplayLoop, WindowID, PipController) {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let loop = DisplayLoop(display: display)
        let window = display.createWindow(rect: Rect(x: 80, y: 80, width: 640, height: 360), events: [.structureNotify])
        display.map(window)
        let pip = try PipController(
            loop: loop, contentSource: PipContentSource(sourceWindow: window, preferredContentSize: (640, 360)))
        return (x, display, loop, window, pip)
    }

    /// A controller for the first of two windows of this process, on its own Xvfb (no window
    /// manager): 640×360 at 80,80, mapped; the second, `second` in size at 500,300, mapped when
    /// `mapSecond`.
    static func controllerWithTwoWindows(second: (Int, Int), mapSecond: Bool) throws
        -> (XServer, XDisplay, DisplayLoop, WindowID, WindowID, PipController)
    {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let loop = DisplayLoop(display: display)
        let first = display.createWindow(rect: Rect(x: 80, y: 80, width: 640, height: 360), events: [.structureNotify])
        let other = display.createWindow(
            rect: Rect(x: 500, y: 300, width: second.0, height: second.1), events: [.structureNotify])
        display.map(first)
        if mapSecond { display.map(other) }
        let pip = try PipController(
            loop: loop, contentSource: PipContentSource(sourceWindow: first, preferredContentSize: (640, 360)))
        return (x, display, loop, first, other, pip)
    }

    /// Torn down and released while PiP is up, with its hover controls showing (their hiding is
    /// timed), its map check pending and a work-area change being waited out, the controller
    /// leaves nothing behind in the loop that could call into it: the loop runs on for seconds,
    /// and PiP's windows are gone.
    @Test func tearDownWhilePipIsUpLeavesNothingRunning() throws {
        let (x, display, loop, window, made) = try Self.controllerOnItsOwnServer()
        var pip: PipController? = made
        let pipWindow = pip!.pipWindowID
        var pipFrame: Rect?
        let script = LoopScript()
        script.wait("the window to show", until: { display.isViewable(window) == true }) { pip?.start() }
        script.wait("PiP to be up", until: { pip?.isActive == true }) {
            pipFrame = display.rootGeometry(of: pipWindow)
            if let r = pipFrame {
                _ = try? x.run(["xdotool", "mousemove", "\(r.x + r.width / 2)", "\(r.y + r.height / 2)"])
            }
        }
        // A work area changed just before: the controller waits 300 ms for the burst to end.
        script.pause(200) {
            display.setProperty(display.root, ._NET_WORKAREA, type: .CARDINAL_, values: [0, 0, 1280, 700])
            display.flush()
        }
        script.pause(100) {
            #expect(pip?.isActive == true)
            pip?.tearDown()
            pip = nil
        }
        script.pause(3200)
        script.start(on: loop)
        #expect(loop.run() == 0, "timed out: \(script.failedStep ?? "")")
        #expect(pipFrame != nil, "PiP was up")
        #expect(try x.info(of: XWindowID(UInt32(pipWindow.rawValue))) == nil, "PiP's window is gone")
        display.close()
    }

    /// A content source with another window, set while PiP is up, switches PiP in place (as
    /// `AVPictureInPictureController.contentSource` does): PiP stays up, and the new window is
    /// the one it belongs to now — the old one can go, the new one going ends PiP.
    @Test func anotherSourceWindowWhilePipIsUpSwitchesInPlace() throws {
        let (server, display, loop, first, second, pip) = try Self.controllerWithTwoWindows(second: (480, 360), mapSecond: true)
        var seen: [String] = []
        let script = LoopScript()
        script.wait("the window to show", until: { display.isViewable(first) == true }) { pip.start() }
        script.wait("PiP to be up", until: { pip.isActive }) {
            seen.append("active before: \(pip.isActive)")
            pip.contentSource = PipContentSource(sourceWindow: second, preferredContentSize: (480, 360))
        }
        script.pause(300) {
            seen.append("active after switching: \(pip.isActive)")
            display.destroy(first)
            display.flush()
        }
        script.pause(400) {
            seen.append("active after the old window went: \(pip.isActive)")
            display.destroy(second)
            display.flush()
        }
        script.wait("PiP to be impossible", until: { !pip.isPossible }) {
            seen.append("possible after the new window went: \(pip.isPossible)")
        }
        script.start(on: loop)
        #expect(loop.run() == 0, "timed out: \(script.failedStep ?? "")")
        #expect(seen == [
            "active before: true", "active after switching: true", "active after the old window went: true",
            "possible after the new window went: false",
        ])
        pip.tearDown()
        display.close()
        withExtendedLifetime(server) {}
    }

    /// Switched during the grow animation to a 4:3 window: PiP still comes up (it used to end),
    /// takes the new shape once the animation is over, and a stop brings the new window back.
    @Test func anotherSourceWindowDuringTheStartAnimationSwitchesInPlace() throws {
        let (server, display, loop, first, second, pip) = try Self.controllerWithTwoWindows(second: (480, 360), mapSecond: false)
        var seen: [String] = []
        var pipFrame: Rect?
        let script = LoopScript()
        script.wait("the window to show", until: { display.isViewable(first) == true }) { pip.start() }
        script.pause(60) {
            seen.append("phase when switched: \(pip.phase)")
            // An unmapped window: hidden, no frame; a stop maps it.
            pip.contentSource = PipContentSource(sourceWindow: second, preferredContentSize: (480, 360))
        }
        script.wait("PiP to be up", until: { pip.isActive }) {}
        script.pause(300) {
            pipFrame = display.rootGeometry(of: pip.pipWindowID)
            pip.stop()
        }
        script.wait("the new window to be restored", until: { display.isViewable(second) == true }) {
            seen.append("first still viewable: \(display.isViewable(first) == true)")
        }
        script.wait("PiP to stop", until: { pip.phase == .idle }) {}
        script.start(on: loop)
        #expect(loop.run() == 0, "timed out: \(script.failedStep ?? "")")
        #expect(seen == ["phase when switched: starting", "first still viewable: true"])
        let frame = try #require(pipFrame)
        #expect(abs(frame.width * 3 - frame.height * 4) <= 4, "4:3 after the animation: \(frame)")
        pip.tearDown()
        display.close()
        withExtendedLifetime(server) {}
    }

    /// Switched while shrinking back to a window that is not shown: the shrink ends at once and
    /// the new window is the one brought back (it used to end PiP without a restore).
    @Test func anotherSourceWindowDuringTheStopAnimationIsTheOneRestored() throws {
        let (server, display, loop, first, second, pip) = try Self.controllerWithTwoWindows(second: (640, 360), mapSecond: false)
        var phaseWhenSwitched: PipPhase?
        let script = LoopScript()
        script.wait("the window to show", until: { display.isViewable(first) == true }) { pip.start() }
        script.wait("PiP to be up", until: { pip.isActive }) { pip.stop() }
        script.pause(60) {
            phaseWhenSwitched = pip.phase
            pip.contentSource = PipContentSource(sourceWindow: second, preferredContentSize: (640, 360))
        }
        script.wait("the new window to be restored", until: { display.isViewable(second) == true }) {}
        script.wait("PiP to stop", until: { pip.phase == .idle }) {}
        script.start(on: loop)
        #expect(loop.run() == 0, "timed out: \(script.failedStep ?? "")")
        #expect(phaseWhenSwitched == .stopping)
        #expect(pip.isPossible)
        pip.tearDown()
        display.close()
        withExtendedLifetime(server) {}
    }
}
