import Foundation
@testable import PipWindow
import Testing
import PipCore

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

    /// A server, a loop, a mapped 640×360 source window, and a way to run a `LoopScript`.
    struct Setup {
        let x: XServer, display: XDisplay, loop: DisplayLoop, window: WindowID
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
        /// Runs `script` on the loop; true when every step was reached.
        func run(_ script: LoopScript) -> Bool {
            script.start(on: loop)
            let code = loop.run()
            if let step = script.failedStep { Issue.record("timed out waiting for \(step)") }
            return code == 0
        }

        /// A script whose first step starts once the source window shows.
        func script() -> LoopScript {
            let script = LoopScript()
            script.wait("the source window to show", until: { [display, window] in display.isViewable(window) == true })
            return script
        }
    }

    /// Released while PiP is up, without `tearDown`: its window goes, and later events on the
    /// application's window (and PiP's map check a second later) reach nothing freed.
    @Test func releasedWithoutTearDownLeavesNothing() throws {
        let s = try Setup()
        var pip: PipController? = try s.controller()
        let pipWindow = pip!.pipWindowID
        let script = s.script()
        script.pause(0) { pip?.start() }
        script.wait("PiP to be up", until: { pip?.isActive == true }) { pip = nil }
        script.pause(300) {
            s.display.moveResize(s.window, to: Rect(x: 120, y: 100, width: 600, height: 340))
            s.display.unmap(s.window)
            s.display.flush()
        }
        script.pause(1400)
        #expect(s.run(script))
        #expect(try s.x.info(of: XWindowID(UInt32(pipWindow.rawValue))) == nil, "PiP's window is gone")
        s.display.close()
    }

    /// Torn down while the application still holds the restore completion, or from inside a
    /// delegate call: no delegate call follows, and PiP is not active.
    @Test func nothingHappensAfterTearDown() throws {
        let s = try Setup()
        let kept = try s.controller(), recorder = Recorder()
        kept.delegate = recorder
        let inside = try s.controller(), insideRecorder = Recorder()
        inside.delegate = insideRecorder
        insideRecorder.onWillStart = { inside.tearDown() }
        let script = s.script()
        script.pause(0) { kept.start() }
        script.wait("PiP to be up", until: { recorder.calls.contains("didStart") }) { kept.stop() }
        script.wait("the restore call", until: { recorder.calls.contains("restore") }) {
            #expect(recorder.calls == ["willStart", "didStart", "willStop", "restore"])
            kept.tearDown()
            recorder.keptCompletion?()
            inside.start()
        }
        script.pause(800)
        #expect(s.run(script))
        #expect(recorder.calls == ["willStart", "didStart", "willStop", "restore"], "\(recorder.calls)")
        #expect(insideRecorder.calls == ["willStart"], "\(insideRecorder.calls)")
        #expect(!inside.isActive && !inside.isShowingVideo)
        s.display.close()
    }

    /// A restore completion counts once, for its own stop: called twice, or kept from an earlier
    /// stop and called during a later one, it does not end that later restore (no `didStop`
    /// before the application calls that restore's own completion).
    @Test func aStaleOrRepeatedRestoreCompletionIsIgnored() throws {
        let s = try Setup()
        let pip = try s.controller(), recorder = Recorder()
        pip.delegate = recorder
        var first: (() -> Void)?
        var afterStale: [String] = []
        let script = s.script()
        script.pause(0) { pip.start() }
        script.wait("PiP to be up", until: { recorder.calls.contains("didStart") }) { pip.stop() }
        script.wait("the first restore", until: { recorder.calls.contains("restore") }) {
            first = recorder.keptCompletion
            first?()
            first?()
        }
        script.wait("the first stop", until: { recorder.calls.contains("didStop") }) {
            recorder.calls = []
            pip.start()
        }
        script.wait("PiP up again", until: { recorder.calls.contains("didStart") }) { pip.stop() }
        script.wait("the second restore", until: { recorder.calls.contains("restore") }) { first?() }
        script.pause(300) {
            afterStale = recorder.calls
            recorder.keptCompletion?()
        }
        script.wait("the second stop", until: { recorder.calls.contains("didStop") })
        #expect(s.run(script))
        #expect(afterStale == ["willStart", "didStart", "willStop", "restore"], "\(afterStale)")
        #expect(recorder.calls == ["willStart", "didStart", "willStop", "restore", "didStop"], "\(recorder.calls)")
        pip.tearDown()
        s.display.close()
    }

    /// Controllers made and torn down, or released, one after another leave no observers
    /// behind in the loop (each used to leave two, run on every shared-memory completion).
    @Test func controllersLeaveNoObserversBehind() throws {
        let s = try Setup()
        let before = s.loop.otherEventObservers
        for release in [false, true, false] {
            var pip: PipController? = try s.controller()
            #expect(s.loop.otherEventObservers > before)
            if !release { pip?.tearDown() }
            pip = nil
        }
        #expect(s.loop.otherEventObservers == before)
        s.display.close()
    }

    /// A style with full opacity again removes the opacity property (a compositor reads it).
    @Test func opacityGoesBackToOpaque() throws {
        let s = try Setup()
        let pip = try s.controller()
        pip.style = PipWindowStyle(opacity: 0.5)
        s.display.sync()
        #expect(try s.x.property("_NET_WM_WINDOW_OPACITY", of: XWindowID(UInt32(pip.pipWindowID.rawValue))) != nil)
        pip.style = PipWindowStyle()
        s.display.sync()
        #expect(try s.x.property("_NET_WM_WINDOW_OPACITY", of: XWindowID(UInt32(pip.pipWindowID.rawValue))) == nil)
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
        let script = s.script()
        script.pause(0) {
            s.display.unmap(s.window)
            s.display.flush()
        }
        if enabled {
            script.wait("PiP to start by itself", until: { pip.isActive })
        } else {
            script.pause(900)
        }
        #expect(s.run(script))
        #expect(pip.isActive == enabled)
        pip.tearDown()
        s.display.close()
    }

    /// The monitors and work areas are read from the server once and kept until an event says
    /// they changed: a wheel spin of eight notches reads them at most once, not once per notch,
    /// and a work area rewritten is read again (and used).
    @Test func theScreenLayoutIsReadOnceAndAgainAfterAChange() throws {
        let (x, display, loop, window, pip) = try PipControllerLifecycleTests.controllerOnItsOwnServer()
        var readsBeforeSpin = 0, readsAfterSpin = 0, zoomed: Rect?
        let script = LoopScript()
        script.wait("the window to show", until: { display.isViewable(window) == true }) { pip.start() }
        script.wait("PiP to be up", until: { pip.isActive }) {
            let r = pip.pipFrame
            _ = try? x.run(["xdotool", "mousemove", "\(r.x + r.width / 2)", "\(r.y + r.height / 2)"])
        }
        script.pause(400) {
            readsBeforeSpin = pip.layoutReads
            _ = try? x.run(["xdotool", "click", "--repeat", "8", "--delay", "1", "5"])
        }
        script.wait("the spin to shrink PiP", until: { pip.pipFrame.width < 600 }) {}
        script.pause(400) {
            readsAfterSpin = pip.layoutReads
            zoomed = pip.pipFrame
            display.setProperty(display.root, ._NET_WORKAREA, type: .CARDINAL_, values: [0, 0, 1280, 600])
            display.flush()
        }
        script.wait("the new work area to be read", until: { pip.layoutReads > readsAfterSpin })
        script.start(on: loop)
        #expect(loop.run() == 0, "timed out: \(script.failedStep ?? "")")
        #expect(zoomed.map { $0.width < 600 } == true, "the spin zoomed PiP: \(String(describing: zoomed))")
        #expect(readsAfterSpin - readsBeforeSpin <= 1, "layout reads: \(readsBeforeSpin) before the spin, \(readsAfterSpin) after")
        pip.tearDown()
        display.close()
    }
}
