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
