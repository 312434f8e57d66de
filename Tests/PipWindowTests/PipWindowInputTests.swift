import CameraSource
import PipCore
@testable import PipWindow
import Testing

/// What the mouse and keys mean on the PiP window, without X: events in, intents out.
@Suite struct PipWindowInputTests {
    static let size = (width: 320, height: 180)

    static func at(_ ms: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms * 1_000_000)) }

    static func press(_ button: Int = 1, x: Int, y: Int, time: UInt, state: UInt32 = 0) -> WindowEvent {
        .buttonPress(PointerEvent(window: 7, button: button, x: x, y: y, rootX: 1000 + x, rootY: 500 + y, time: time, state: state))
    }

    static func release(x: Int, y: Int, time: UInt) -> WindowEvent {
        .buttonRelease(PointerEvent(window: 7, button: 1, x: x, y: y, rootX: 1000 + x, rootY: 500 + y, time: time, state: 0))
    }

    static func motion(x: Int, y: Int) -> WindowEvent {
        .motion(PointerEvent(window: 7, button: 0, x: x, y: y, rootX: 1000 + x, rootY: 500 + y, time: 0, state: 0))
    }

    @Test func twoQuickNearbyPressesGoBackToTheSourceWindow() {
        var input = PipWindowInput(controls: PipControls(doubleSize: false))
        #expect(input.handle(Self.press(x: 150, y: 90, time: 1000), size: Self.size, now: Self.at(0)) == [.gesture])
        #expect(input.handle(Self.press(x: 154, y: 93, time: 1399), size: Self.size, now: Self.at(0)) == [.stop])
        // Too slow, or too far apart: each press starts a drag.
        #expect(input.handle(Self.press(x: 150, y: 90, time: 5000), size: Self.size, now: Self.at(0)) == [.gesture])
        #expect(input.handle(Self.press(x: 150, y: 90, time: 5400), size: Self.size, now: Self.at(0)) == [.gesture])
        #expect(input.handle(Self.press(x: 158, y: 90, time: 5500), size: Self.size, now: Self.at(0)) == [.gesture])
    }

    @Test func aPressThatBecameADragIsNoFirstClick() {
        var input = PipWindowInput(controls: PipControls(doubleSize: false))
        _ = input.handle(Self.press(x: 150, y: 90, time: 1000), size: Self.size, now: Self.at(0))
        input.dragStarted()
        #expect(input.handle(Self.press(x: 150, y: 90, time: 1100), size: Self.size, now: Self.at(0)) == [.gesture])
    }

    @Test func aControlActsWhenReleasedOverTheOnePressedOnly() {
        var input = PipWindowInput(controls: PipControls(doubleSize: false))
        // Hidden controls do not act: the press drags.
        let close = input.controls.frame(of: .close, width: 320, height: 180)
        #expect(input.handle(Self.press(x: close.x + 2, y: close.y + 2, time: 10), size: Self.size, now: Self.at(0)) == [.gesture])
        let shown = input.handle(Self.motion(x: 100, y: 100), size: Self.size, now: Self.at(1000))
        #expect(shown == [.controlsShown(redraw: true, until: Self.at(3000)), .gesture])
        #expect(input.handle(Self.motion(x: 101, y: 100), size: Self.size, now: Self.at(1500))
            == [.controlsShown(redraw: false, until: Self.at(3500)), .gesture])
        #expect(input.handle(Self.press(x: close.x + 2, y: close.y + 2, time: 2000), size: Self.size, now: Self.at(2000)).isEmpty)
        #expect(input.handle(Self.release(x: close.x + 3, y: close.y + 3, time: 2100), size: Self.size, now: Self.at(2100)) == [.close])
        let back = input.controls.frame(of: .backToMain, width: 320, height: 180)
        _ = input.handle(Self.press(x: back.x + 2, y: back.y + 2, time: 2200), size: Self.size, now: Self.at(2200))
        #expect(input.handle(Self.release(x: 160, y: 90, time: 2300), size: Self.size, now: Self.at(2300)).isEmpty)
        #expect(input.handle(Self.pointerLeft, size: Self.size, now: Self.at(2400)) == [.controlsHidden])
    }

    static let pointerLeft = WindowEvent.pointerLeft(7)

    @Test func theWheelZoomsAroundThePointerAndKeysAroundTheCentre() {
        var input = PipWindowInput(controls: PipControls(doubleSize: false))
        #expect(input.handle(Self.press(4, x: 10, y: 20, time: 0), size: Self.size, now: Self.at(0))
            == [.zoom(by: PipTuning.wheelZoomFactor, aroundX: 1010, y: 520)])
        #expect(input.handle(Self.press(5, x: 10, y: 20, time: 0), size: Self.size, now: Self.at(0))
            == [.zoom(by: 1 / PipTuning.wheelZoomFactor, aroundX: 1010, y: 520)])
        let keys: [(Keysym, PipWindowInput.Intent?)] = [
            (.escape, .stop), (.m, .toggleMirror), (.r, .rotate),
            (.plus, .zoom(by: PipTuning.keyZoomFactor, aroundX: nil, y: nil)),
            (.keypadSubtract, .zoom(by: 1 / PipTuning.keyZoomFactor, aroundX: nil, y: nil)),
        ]
        for (keysym, intent) in keys {
            #expect(input.handle(.keyPress(window: 7, keysym: keysym, state: 0), size: Self.size, now: Self.at(0)) == (intent.map { [$0] } ?? []))
        }
        // Keys PiP has no use for go to its owner (digits step camera controls in pipcam).
        #expect(input.handle(.keyPress(window: 7, keysym: .p, state: 0), size: Self.size, now: Self.at(0)) == [.key(.p)])
        // Ctrl + wheel zooms the picture, not the window.
        #expect(input.handle(Self.press(4, x: 10, y: 20, time: 0, state: 4), size: Self.size, now: Self.at(0))
            == [.frame(.zoom(by: 1.25, atX: 10, y: 20))])
        // With Control held a key is someone else's shortcut.
        #expect(input.handle(.keyPress(window: 7, keysym: .escape, state: 4), size: Self.size, now: Self.at(0)).isEmpty)
    }
}
