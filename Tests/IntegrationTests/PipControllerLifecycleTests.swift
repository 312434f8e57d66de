import CameraSource
import Foundation
@testable import PipWindow
import Testing

/// The library's `PipController` used as an application would, in this process on its own Xvfb
/// (no window manager).
@Suite struct PipControllerLifecycleTests {
    /// Torn down and released while PiP is up, with its hover controls showing (their hiding is
    /// timed) and its map check pending, the controller leaves nothing behind in the loop that
    /// could call into it: the loop runs on for seconds, and PiP's windows are gone.
    @Test func tearDownWhilePipIsUpLeavesNothingRunning() throws {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let loop = DisplayLoop(display: display)
        let window = display.createWindow(rect: Rect(x: 80, y: 80, width: 640, height: 360), events: [.structureNotify])
        display.map(window)
        var pip: PipController? = try PipController(
            loop: loop, contentSource: PipContentSource(sourceWindow: window, preferredContentSize: (640, 360)))
        let pipWindow = pip!.pipWindowID
        var pipFrame: Rect?
        let start = MonotonicInstant.now()
        func at(_ milliseconds: Int64, _ body: @escaping () -> Void) {
            _ = loop.schedule(at: start.advanced(byNanoseconds: milliseconds * 1_000_000), body)
        }
        at(300) { pip?.start() }
        at(1000) {
            pipFrame = display.rootGeometry(of: pipWindow)
            if let r = pipFrame {
                _ = try? x.run(["xdotool", "mousemove", "\(r.x + r.width / 2)", "\(r.y + r.height / 2)"])
            }
        }
        at(1300) {
            #expect(pip?.isActive == true)
            pip?.tearDown()
            pip = nil
        }
        at(4500) { loop.stop(exitCode: 0) }
        #expect(loop.run() == 0)
        #expect(pipFrame != nil, "PiP was up")
        #expect(try x.info(of: XWindowID(UInt32(pipWindow))) == nil, "PiP's window is gone")
        display.close()
    }

    /// A content source with another window, set while PiP is up, switches PiP in place (as
    /// `AVPictureInPictureController.contentSource` does): PiP stays up, and the new window is
    /// the one it belongs to now — the old one can go, the new one going ends PiP.
    @Test func anotherSourceWindowWhilePipIsUpSwitchesInPlace() throws {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let loop = DisplayLoop(display: display)
        let first = display.createWindow(rect: Rect(x: 80, y: 80, width: 640, height: 360), events: [.structureNotify])
        let second = display.createWindow(rect: Rect(x: 500, y: 300, width: 480, height: 360), events: [.structureNotify])
        display.map(first)
        display.map(second)
        let pip = try PipController(
            loop: loop, contentSource: PipContentSource(sourceWindow: first, preferredContentSize: (640, 360)))
        var seen: [String] = []
        let start = MonotonicInstant.now()
        func at(_ milliseconds: Int64, _ body: @escaping () -> Void) {
            _ = loop.schedule(at: start.advanced(byNanoseconds: milliseconds * 1_000_000), body)
        }
        at(300) { pip.start() }
        at(1000) {
            seen.append("active before: \(pip.isActive)")
            pip.contentSource = PipContentSource(sourceWindow: second, preferredContentSize: (480, 360))
        }
        at(1300) {
            seen.append("active after switching: \(pip.isActive)")
            display.destroy(first)
            display.flush()
        }
        at(1700) {
            seen.append("active after the old window went: \(pip.isActive)")
            display.destroy(second)
            display.flush()
        }
        at(2100) {
            seen.append("possible after the new window went: \(pip.isPossible)")
            loop.stop(exitCode: 0)
        }
        #expect(loop.run() == 0)
        #expect(seen == [
            "active before: true", "active after switching: true", "active after the old window went: true",
            "possible after the new window went: false",
        ])
        pip.tearDown()
        display.close()
    }
}

/// The library's `PipController` released or torn down the ways an application may do it.
@Suite struct PipControllerReleaseTests {
    final class Recorder: PipControllerDelegate {
        var calls: [String] = []
        var keptCompletion: (() -> Void)?
        var onWillStart: (() -> Void)?
        func pipControllerWillStart(_ controller: PipController) { calls.append("willStart"); onWillStart?() }
        func pipControllerDidStart(_ controller: PipController) { calls.append("didStart") }
        func pipControllerWillStop(_ controller: PipController) { calls.append("willStop") }
        func pipControllerDidStop(_ controller: PipController) { calls.append("didStop") }
        func pipController(_ controller: PipController, restoreUserInterfaceWithCompletion completion: @escaping () -> Void) {
            calls.append("restore")
            keptCompletion = completion
        }
    }

    /// A server, a loop, a mapped 640×360 source window, and a way to run `body` at a time.
    struct Setup {
        let x: XServer, display: XDisplay, loop: DisplayLoop, window: WindowID
        let start = MonotonicInstant.now()
        init() throws {
            x = try makeServer()
            display = try XDisplay(name: x.display)
            loop = DisplayLoop(display: display)
            window = display.createWindow(rect: Rect(x: 80, y: 80, width: 640, height: 360), events: [.structureNotify])
            display.map(window)
        }
        func controller() throws -> PipController {
            try PipController(loop: loop, contentSource: PipContentSource(sourceWindow: window, preferredContentSize: (640, 360)))
        }
        func at(_ milliseconds: Int64, _ body: @escaping () -> Void) {
            _ = loop.schedule(at: start.advanced(byNanoseconds: milliseconds * 1_000_000), body)
        }
    }

    /// Released while PiP is up, without `tearDown`: its window goes, and later events on the
    /// application's window (and PiP's map check a second later) reach nothing freed.
    @Test func releasedWithoutTearDownLeavesNothing() throws {
        let s = try Setup()
        var pip: PipController? = try s.controller()
        let pipWindow = pip!.pipWindowID
        s.at(300) { pip?.start() }
        s.at(900) {
            #expect(pip?.isActive == true)
            pip = nil
        }
        s.at(1200) {
            s.display.moveResize(s.window, to: Rect(x: 120, y: 100, width: 600, height: 340))
            s.display.unmap(s.window)
            s.display.flush()
        }
        s.at(2600) { s.loop.stop(exitCode: 0) }
        #expect(s.loop.run() == 0)
        #expect(try s.x.info(of: XWindowID(UInt32(pipWindow))) == nil, "PiP's window is gone")
        s.display.close()
    }

    /// Torn down while the application still holds the restore completion, or from inside a
    /// delegate call: no delegate call follows, and PiP is not active.
    @Test func nothingHappensAfterTearDown() throws {
        let s = try Setup()
        let kept = try s.controller(), recorder = Recorder()
        kept.delegate = recorder
        s.at(300) { kept.start() }
        s.at(900) { kept.stop() }
        s.at(1500) {
            #expect(recorder.calls == ["willStart", "didStart", "willStop", "restore"])
            kept.tearDown()
            recorder.keptCompletion?()
        }
        let inside = try s.controller(), insideRecorder = Recorder()
        inside.delegate = insideRecorder
        insideRecorder.onWillStart = { inside.tearDown() }
        s.at(1600) { inside.start() }
        s.at(2400) { s.loop.stop(exitCode: 0) }
        #expect(s.loop.run() == 0)
        #expect(recorder.calls == ["willStart", "didStart", "willStop", "restore"], "\(recorder.calls)")
        #expect(insideRecorder.calls == ["willStart"], "\(insideRecorder.calls)")
        #expect(!inside.isActive && !inside.isShowingVideo)
        s.display.close()
    }

    /// A style with full opacity again removes the opacity property (a compositor reads it).
    @Test func opacityGoesBackToOpaque() throws {
        let s = try Setup()
        let pip = try s.controller()
        pip.style = PipWindowStyle(opacity: 0.5)
        s.display.sync()
        #expect(try s.x.property("_NET_WM_WINDOW_OPACITY", of: XWindowID(UInt32(pip.pipWindowID))) != nil)
        pip.style = PipWindowStyle()
        s.display.sync()
        #expect(try s.x.property("_NET_WM_WINDOW_OPACITY", of: XWindowID(UInt32(pip.pipWindowID))) == nil)
        pip.tearDown()
        s.display.close()
    }

    /// As in AVKit, PiP starts by itself when the source window is hidden only when asked to.
    @Test(arguments: [false, true])
    func automaticStartIsOptIn(enabled: Bool) throws {
        let s = try Setup()
        let pip = try s.controller()
        #expect(!pip.startsAutomaticallyWhenSourceHidden, "off by default")
        if enabled { pip.startsAutomaticallyWhenSourceHidden = true }
        s.at(300) {
            s.display.unmap(s.window)
            s.display.flush()
        }
        s.at(1200) { s.loop.stop(exitCode: 0) }
        #expect(s.loop.run() == 0)
        #expect(pip.isActive == enabled)
        pip.tearDown()
        s.display.close()
    }
}
