import PipCore
@testable import PipWayland
import PipWindow
import Testing

/// The pointer's events turned into the seat's (`InputEvent` as X reports them), and a drag on
/// PiP's Wayland surface: pure, exact values.
struct WaylandPointerInputTests {
    static let window = WindowID(7)

    static func fixed(_ value: Double) -> Int32 { Int32((value * 256).rounded()) }

    static func event(_ kind: WaylandPointerEvent.Kind, x: Double = 0, y: Double = 0, time: UInt32 = 1000) -> WaylandPointerEvent {
        WaylandPointerEvent(kind: kind, time: time, x: fixed(x), y: fixed(y))
    }

    static func pointer(button: Int = 0, x: Int, y: Int, rootX: Int, rootY: Int, time: UInt = 1000, state: UInt32 = 0) -> PointerEvent {
        PointerEvent(window: window, button: button, x: x, y: y, rootX: rootX, rootY: rootY, time: time, state: state)
    }

    @Test func wlFixedIsPixelsInTwoHundredFiftySixths() {
        #expect(WaylandPointerInput.pixels(256) == 1)
        #expect(WaylandPointerInput.pixels(2688) == 10.5)
        #expect(WaylandPointerInput.pixels(1) == 0.00390625)
        #expect(WaylandPointerInput.pixels(-384) == -1.5)
        // The whole pixel a position is in: rounded down, also left of and above the surface.
        #expect(WaylandPointerInput.pixel(2688) == 10)
        #expect(WaylandPointerInput.pixel(255) == 0)
        #expect(WaylandPointerInput.pixel(-1) == -1)
        #expect(WaylandPointerInput.pixel(-256) == -1)
        #expect(WaylandPointerInput.pixel(-257) == -2)
    }

    @Test func linuxButtonCodesAreXButtonNumbers() {
        #expect(WaylandPointerInput.xButton(0x110) == 1)  // left
        #expect(WaylandPointerInput.xButton(0x112) == 2)  // middle
        #expect(WaylandPointerInput.xButton(0x111) == 3)  // right
        #expect(WaylandPointerInput.xButton(0x113) == 8)  // side (back)
        #expect(WaylandPointerInput.xButton(0x114) == 9)  // extra (forward)
        #expect(WaylandPointerInput.xButton(0x115) == nil)
        #expect(WaylandPointerInput.xButton(0) == nil)
        #expect(WaylandPointerInput.mask(1) == 0x100 && WaylandPointerInput.mask(3) == 0x400 && WaylandPointerInput.mask(8) == 0)
    }

    @Test func positionsAreInTheSurfaceAndOnTheOutputThroughItsOrigin() {
        var input = WaylandPointerInput()
        #expect(input.translate(Self.event(.entered, x: 3, y: 4), window: Self.window, origin: (100, 50)) == [.entered])
        #expect(input.translate(Self.event(.motion, x: 10.5, y: 20.75), window: Self.window, origin: (100, 50))
            == [.motion(Self.pointer(x: 10, y: 20, rootX: 110, rootY: 70))])
        #expect(input.translate(Self.event(.left), window: Self.window, origin: (100, 50)) == [.left])
        // A button the seat has no number for is nothing.
        #expect(input.translate(Self.event(.button(code: 0x116, pressed: true)), window: Self.window, origin: (0, 0)) == [])
        #expect(input.state == 0)
    }

    @Test func whileAButtonIsHeldPositionsCountFromWhereTheSurfaceWasAtThePress() {
        var input = WaylandPointerInput()
        let press = input.translate(Self.event(.button(code: 0x110, pressed: true), x: 40, y: 30), window: Self.window, origin: (100, 50))
        #expect(press == [.press(Self.pointer(button: 1, x: 40, y: 30, rootX: 140, rootY: 80))], "the state before the press")
        // pipcam moved the surface by (-200, -100); sway says the pointer's travel from the press.
        // In the window as it is now, the pointer is where it was pressed.
        let moved = input.translate(Self.event(.motion, x: -160, y: -70, time: 1100), window: Self.window, origin: (-100, -50))
        #expect(moved == [.motion(Self.pointer(x: 40, y: 30, rootX: -60, rootY: -20, time: 1100, state: 0x100))])
        let release = input.translate(
            Self.event(.button(code: 0x110, pressed: false), x: -160, y: -70, time: 1200), window: Self.window, origin: (-100, -50))
        #expect(release == [.release(Self.pointer(button: 1, x: 40, y: 30, rootX: -60, rootY: -20, time: 1200, state: 0x100))])
        #expect(input.state == 0 && input.pressOrigin == nil)
        // Released (or left, the release going elsewhere): the surface's own origin again.
        _ = input.translate(Self.event(.button(code: 0x111, pressed: true)), window: Self.window, origin: (-100, -50))
        #expect(input.state == 0x400 && input.pressOrigin != nil)
        #expect(input.translate(Self.event(.left), window: Self.window, origin: (-100, -50)) == [.left])
        #expect(input.state == 0 && input.pressOrigin == nil)
        #expect(input.translate(Self.event(.motion, x: 40, y: 30), window: Self.window, origin: (-100, -50))
            == [.motion(Self.pointer(x: 40, y: 30, rootX: -60, rootY: -20))])
    }

    @Test func onKWinAHeldPointerCountsFromWhereTheSurfaceIsNow() {
        var input = WaylandPointerInput(held: .fromCurrentOrigin)
        _ = input.translate(Self.event(.button(code: 0x110, pressed: true), x: 40, y: 30), window: Self.window, origin: (100, 50))
        #expect(input.pressOrigin == nil && input.state == 0x100)
        // Moved by (-200, -100) with the pointer: it is where it was pressed in the surface.
        let moved = input.translate(Self.event(.motion, x: 40, y: 30, time: 1100), window: Self.window, origin: (-100, -50))
        #expect(moved == [.motion(Self.pointer(x: 40, y: 30, rootX: -60, rootY: -20, time: 1100, state: 0x100))])
    }

    @Test func aButtonIsWhereTheLastMotionLeftThePointerThoughTheSurfaceMovedUnderIt() {
        var input = WaylandPointerInput()
        _ = input.translate(Self.event(.motion, x: 160, y: 90), window: Self.window, origin: (900, 500))
        #expect(input.lastRoot.map { [$0.x, $0.y] } == [1060, 590])
        // A zoom moved the surface to (871, 484); the compositor's last position is still the old one's.
        let press = input.translate(Self.event(.button(code: 0x110, pressed: true), x: 160, y: 90), window: Self.window, origin: (871, 484))
        #expect(press == [.press(Self.pointer(button: 1, x: 189, y: 106, rootX: 1060, rootY: 590))])
        let wheel = input.translate(Self.event(.axis(vertical: true, value: Self.fixed(-15), discrete: -1), x: 160, y: 90),
                                    window: Self.window, origin: (871, 484))
        #expect(wheel.first == .press(Self.pointer(button: 4, x: 189, y: 106, rootX: 1060, rootY: 590, state: 0x100)))
        // Gone: nothing is known of where it is until it comes back.
        _ = input.translate(Self.event(.left), window: Self.window, origin: (871, 484))
        #expect(input.lastRoot == nil)
    }

    @Test func theWheelIsButtonsFourToSevenPressedAndReleasedPerStep() {
        var input = WaylandPointerInput()
        let at = (x: 5.0, y: 6.0)
        func steps(_ vertical: Bool, _ value: Double, discrete: Int32 = 0) -> [Int] {
            input.translate(Self.event(.axis(vertical: vertical, value: Self.fixed(value), discrete: discrete), x: at.x, y: at.y),
                            window: Self.window, origin: (10, 20)).map {
                switch $0 {
                case .press(let p): return p.button
                case .release(let p): return -p.button
                default: return 0
                }
            }
        }
        // The compositor's steps when it counts them (a wheel's notches).
        #expect(steps(true, 30, discrete: 2) == [5, -5, 5, -5])
        #expect(steps(true, -15, discrete: -1) == [4, -4])
        #expect(steps(false, 15, discrete: 1) == [7, -7])
        #expect(steps(false, -15, discrete: -1) == [6, -6])
        // Else ten units a step, the rest kept: 15 is one and a half, 5 more the second.
        #expect(steps(true, -15) == [4, -4])
        #expect(steps(true, -5) == [4, -4])
        #expect(steps(true, 4) == [])
        #expect(steps(true, 4) == [])
        #expect(steps(true, 2) == [5, -5])
        let p = input.translate(Self.event(.axis(vertical: true, value: Self.fixed(10), discrete: 0), x: at.x, y: at.y),
                                window: Self.window, origin: (10, 20))
        #expect(p.first == .press(Self.pointer(button: 5, x: 5, y: 6, rootX: 15, rootY: 26)))
    }

    @Test func aDragMovesOnlyPastTheThresholdAndAnEdgeResizesKeepingTheShape() {
        let rect = Rect(x: 100, y: 100, width: 320, height: 180)
        var move = WaylandDrag(x: 160, y: 90, rootX: 260, rootY: 190, rect: rect)
        #expect(move.kind == .move)
        #expect(move.rect(pointerAt: 263, 187, aspect: 16.0 / 9, minWidth: 96) == nil)
        #expect(!move.isDragging)
        #expect(move.rect(pointerAt: 60, 90, aspect: 16.0 / 9, minWidth: 96) == Rect(x: -100, y: 0, width: 320, height: 180))
        #expect(move.isDragging)
        // Back within the threshold, still dragging: it follows.
        #expect(move.rect(pointerAt: 261, 190, aspect: 16.0 / 9, minWidth: 96) == Rect(x: 101, y: 100, width: 320, height: 180))

        var resize = WaylandDrag(x: 315, y: 90, rootX: 415, rootY: 190, rect: rect)
        #expect(resize.kind == .resizeRight)
        #expect(resize.rect(pointerAt: 479, 190, aspect: 16.0 / 9, minWidth: 96) == Rect(x: 100, y: 82, width: 384, height: 216))
    }
}
