import CameraSource
import PipCore
@testable import PipWindow
import Testing

/// What the mouse and keys mean on the PiP window, without X: events in, intents out.
@Suite struct PipWindowInputTests {
    static let size = (width: 320, height: 180)

    static func at(_ ms: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms * 1_000_000)) }

    static func press(_ button: Int = 1, x: Int, y: Int, time: UInt, state: UInt32 = 0) -> InputEvent {
        .press(PointerEvent(window: 7, button: button, x: x, y: y, rootX: 1000 + x, rootY: 500 + y, time: time, state: state))
    }

    static func release(x: Int, y: Int, time: UInt) -> InputEvent {
        .release(PointerEvent(window: 7, button: 1, x: x, y: y, rootX: 1000 + x, rootY: 500 + y, time: time, state: 0))
    }

    static func motion(x: Int, y: Int) -> InputEvent {
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

    static let pointerLeft = InputEvent.left

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
            #expect(input.handle(.key(keysym, state: 0), size: Self.size, now: Self.at(0)) == (intent.map { [$0] } ?? []))
        }
        // Keys PiP has no use for go to its owner (digits step camera controls in pipcam).
        #expect(input.handle(.key(.p, state: 0), size: Self.size, now: Self.at(0)) == [.key(.p)])
        // Ctrl + wheel zooms the picture, not the window.
        #expect(input.handle(Self.press(4, x: 10, y: 20, time: 0, state: 4), size: Self.size, now: Self.at(0))
            == [.frame(.zoom(by: 1.25, atX: 10, y: 20))])
        // With Control held a key is someone else's shortcut.
        #expect(input.handle(.key(.escape, state: 4), size: Self.size, now: Self.at(0)).isEmpty)
    }
}

/// Content that plays (`PipPlaybackDelegate`) gets skip back, play/pause and skip forward on PiP,
/// and Space, Left and Right; content that does not (a camera) gets none of them.
@Suite struct PipPlaybackControlsTests {
    static let size = (width: 320, height: 180)

    static func key(_ keysym: Keysym) -> InputEvent { .key(keysym, state: 0) }

    /// Clicks the middle of `control` with the controls showing; the intents of the release.
    static func click(_ control: PipControls.Control, _ input: inout PipWindowInput) -> [PipWindowInput.Intent] {
        let now = PipWindowInputTests.at(0)
        _ = input.handle(PipWindowInputTests.motion(x: 10, y: 10), size: size, now: now)
        let f = input.controls.frame(of: control, width: size.width, height: size.height)
        let (x, y) = (f.x + f.width / 2, f.y + f.height / 2)
        _ = input.handle(PipWindowInputTests.press(x: x, y: y, time: 1), size: size, now: now)
        return input.handle(PipWindowInputTests.release(x: x, y: y, time: 2), size: size, now: now)
    }

    @Test func aCameraShowsNoPlaybackControlsAndLeavesTheKeysToItsOwner() {
        var input = PipWindowInput(controls: PipControls(doubleSize: false))
        #expect(input.controls.shown(width: 320) == [.backToMain, .close, .mirror])
        #expect(input.handle(Self.key(.space), size: Self.size, now: PipWindowInputTests.at(0)) == [.key(.space)])
        #expect(input.handle(Self.key(.right), size: Self.size, now: PipWindowInputTests.at(0)) == [.key(.right)])
        #expect(Self.click(.mirror, &input) == [.toggleMirror])
    }

    @Test func aFileGetsPlayPauseAndSkipsByClickAndKey() {
        var input = PipWindowInput(controls: PipControls(doubleSize: false))
        input.setPlayback(PipControls.Playback(isPlaying: true, progress: 0.25))
        #expect(input.controls.shown(width: 320) == [.backToMain, .close, .mirror, .skipBack, .playPause, .skipForward])
        #expect(Self.click(.playPause, &input) == [.playPause])
        #expect(Self.click(.skipBack, &input) == [.skip(by: -10)])
        #expect(Self.click(.skipForward, &input) == [.skip(by: 10)])
        #expect(Self.click(.mirror, &input) == [.toggleMirror], "mirror moved to the bottom left, still there")
        #expect(input.handle(Self.key(.space), size: Self.size, now: PipWindowInputTests.at(0)) == [.playPause])
        #expect(input.handle(Self.key(.left), size: Self.size, now: PipWindowInputTests.at(0)) == [.skip(by: -10)])
        #expect(input.handle(Self.key(.m), size: Self.size, now: PipWindowInputTests.at(0)) == [.toggleMirror])
    }

    /// Too narrow for the row of three beside mirror: play/pause alone; the controls never overlap.
    @Test func aNarrowWindowKeepsOnlyPlayPause() {
        var controls = PipControls(doubleSize: false)
        controls.playback = PipControls.Playback(isPlaying: false, progress: nil)
        #expect(controls.shown(width: 160) == [.backToMain, .close, .mirror, .playPause])
        for width in [160, 212, 320, 640] {
            let frames = controls.shown(width: width).map { controls.frame(of: $0, width: width, height: 180) }
            for (i, a) in frames.enumerated() {
                for b in frames[(i + 1)...] { #expect(a.intersection(b) == nil, "\(a) and \(b) overlap at width \(width)") }
            }
        }
    }
}
