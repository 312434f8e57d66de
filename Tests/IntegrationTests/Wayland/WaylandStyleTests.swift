import Foundation
import PipCore
import PipWayland
import PipWindow
import TestSupport
import Testing

/// PiP's style on headless sway, through the real `PipController` on `WaylandWindowSystem` (a
/// green picture over a red background): a circle shows the background at PiP's corners and the
/// picture in its middle; opacity 0.5 shows their mix; click-through lets a real pointer's press
/// pass to what is below, so a drag does not move PiP, until it is turned off again.
@Suite(.timeLimit(.minutes(1)))
struct WaylandStyleTests {
    static let missing = WaylandOverlayTests.missing
    static let red = RGB(255, 0, 0), green = WaylandPointerTests.green

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aCircleShowsWhatIsBehindAtTheCornersAndOpacityMixes() throws {
        let stage = try WaylandPointerTests.Stage()
        let sway = try #require(stage.sway)
        let frame = stage.pip.pipFrame
        let corners = [(frame.x + 3, frame.y + 3), (frame.maxX - 4, frame.y + 3), (frame.x + 3, frame.maxY - 4), (frame.maxX - 4, frame.maxY - 4)]
        let middle = (frame.x + frame.width / 2, frame.y + frame.height / 2)

        stage.pip.style = PipWindowStyle(shape: .circle)
        var seen: [RGB] = []
        try waitUntil("the circle: red corners, a green middle (seen \(seen))") {
            stage.settle()
            let shot = try sway.screenshot()
            seen = (corners + [middle]).map { shot.meanColor(in: XRect(x: $0.0 - 1, y: $0.1 - 1, width: 2, height: 2)) }
            return seen.prefix(4).allSatisfy { $0.distance(to: Self.red) < 8 } && seen[4].distance(to: Self.green) < 8
        }

        stage.pip.style = PipWindowStyle(shape: .rect, opacity: 0.5)
        let mix = RGB(127.5, 127.5, 0)
        try waitUntil("half green, half red at PiP, corners too (seen \(seen))") {
            stage.settle()
            let shot = try sway.screenshot()
            seen = (corners + [middle]).map { shot.meanColor(in: XRect(x: $0.0 - 1, y: $0.1 - 1, width: 2, height: 2)) }
            return seen.allSatisfy { $0.distance(to: mix) < 4 }
        }

        stage.pip.style = PipWindowStyle()
        try stage.expectPicture(at: frame)
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func clickThroughLetsThePointerPassToWhatIsBelow() throws {
        let stage = try WaylandPointerTests.Stage()
        let before = stage.pip.pipFrame
        let middle = (before.x + before.width / 2, before.y + before.height / 2)
        stage.pip.style = PipWindowStyle(clickThrough: true)
        stage.settle()
        try stage.move(to: middle.0, middle.1)
        try stage.button(pressed: true)
        #expect(!stage.system.pointerButtonsDown(), "the press is not PiP's")
        for step in 1...4 { try stage.move(to: middle.0 - 50 * step, middle.1 - 25 * step) }
        try stage.button(pressed: false)
        stage.settle(200)
        #expect(stage.pip.pipFrame == before, "PiP stays where it was: \(stage.pip.pipFrame)")
        #expect(stage.pip.isActive)

        // Off again: the same drag moves it.
        stage.pip.style = PipWindowStyle()
        stage.settle()
        let after = try stage.drag(from: middle.0, middle.1, by: -200, -100)
        #expect(abs(after.x - (before.x - 200)) <= 3 && abs(after.y - (before.y - 100)) <= 3, "moved: \(before) → \(after)")
    }
}
