import CVirtualPointer
import Foundation
import Glibc
import PipCore
import PipWayland
import PipWindow
import TestSupport
import Testing

/// A real pointer on headless sway (wlr-virtual-pointer, as a mouse would move) drags the real
/// `PipController`'s PiP on `WaylandWindowSystem`: a press in the middle moves it, one at its
/// right edge resizes it with the picture's shape kept (the screenshot shows the picture there);
/// the wheel zooms it, and a double-click ends it. On headless KWin (its fake input) a drag moves it
/// as far, KWin counting a held pointer otherwise than sway.
@Suite(.timeLimit(.minutes(1)))
struct WaylandPointerTests {
    static let missing = WaylandOverlayTests.missing
    static let green = WaylandPipTests.green
    static let buttonLeft: UInt32 = 0x110

    /// PiP up and its picture seen on a 1280×720 compositor, and a pointer to drive.
    final class Stage {
        /// sway: what the output shows, by grim (KWin has no screencopy).
        let sway: HeadlessSway?
        private let kwin: HeadlessKWin?
        let connection: WaylandConnection
        let loop: WaylandLoop
        let system: WaylandWindowSystem
        let pip: PipController
        let picture = BGRAPicture(width: 640, height: 360) { _ in WaylandPointerTests.green }
        private var pointer: OpaquePointer?

        private let socket: String, width: Int, height: Int

        /// On sway, or (`onKWin`) on KWin with its restricted interfaces granted.
        init(onKWin: Bool = false) throws {
            if onKWin {
                let kwin = try HeadlessKWin(width: 1280, height: 720, grantingEverything: true)
                (sway, self.kwin, socket, width, height) = (nil, kwin, kwin.socket, kwin.width, kwin.height)
            } else {
                let sway = try HeadlessSway(width: 1280, height: 720)
                try sway.start(["swaybg", "--color", "#ff0000"])
                (self.sway, kwin, socket, width, height) = (sway, nil, sway.socket, sway.width, sway.height)
            }
            connection = try WaylandConnection(display: socket)
            loop = WaylandLoop(connection: connection)
            system = WaylandWindowSystem(loop: loop)
            pip = try PipController(
                windowSystem: system, contentSource: PipContentSource(sourceWindow: 1, preferredContentSize: (640, 360)),
                corner: .bottomRight)
            try #require(system.sourceWatch).frame = Rect(x: 40, y: 40, width: 640, height: 360)
            var shown = 0
            pip.output.onFrameShown = { _ in shown += 1 }
            loop.everyIteration { [pip, picture] in
                guard pip.output.canPresent else { return }
                _ = try? pip.output.present(picture.frame(at: .now()))
            }
            pip.start()
            let up = WaylandPipTests.run(loop, timeout: .seconds(5)) { [pip] in pip.isActive && shown >= 3 }
            try #require(up, "PiP is up (\(pip.phase), \(shown) shown)")
            // The seat has a pointer once this one is made; PiP's connection takes it as it hears so.
            var made: OpaquePointer?
            var error = [CChar](repeating: 0, count: 256)
            guard vpointer_open(socket, &made, &error, Int32(error.count)) == 0 else {
                throw HarnessError("no virtual pointer: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
            }
            pointer = made
            settle()
            try expectPicture(at: pip.pipFrame)
        }

        deinit {
            vpointer_close(pointer)
            pip.tearDown()
            connection.close()
            sway?.stop()
            kwin?.stop()
        }

        /// Runs PiP's loop a moment, for what the compositor sent to arrive.
        func settle(_ milliseconds: Int64 = 60) {
            let until = MonotonicInstant.now().advanced(byNanoseconds: milliseconds * 1_000_000)
            _ = WaylandPipTests.run(loop, timeout: .seconds(2)) { MonotonicInstant.now() >= until }
        }

        func move(to x: Int, _ y: Int) throws {
            guard vpointer_move(pointer, UInt32(x), UInt32(y), UInt32(width), UInt32(height)) == 0 else {
                throw HarnessError("the pointer did not move")
            }
            settle()
        }

        func button(pressed: Bool) throws {
            guard vpointer_button(pointer, WaylandPointerTests.buttonLeft, pressed ? 1 : 0) == 0 else {
                throw HarnessError("the button did not go")
            }
            settle()
        }

        func click() throws {
            try button(pressed: true)
            try button(pressed: false)
        }

        func scroll(_ steps: Int32) throws {
            guard vpointer_scroll(pointer, steps) == 0 else { throw HarnessError("the wheel did not turn") }
            settle()
        }

        /// Presses at (`x`, `y`), moves by (`dx`, `dy`) in a few steps, releases; PiP's frame after.
        func drag(from x: Int, _ y: Int, by dx: Int, _ dy: Int) throws -> Rect {
            try move(to: x, y)
            try button(pressed: true)
            #expect(system.pointerButtonsDown(), "the press is held on PiP")
            for step in 1...4 { try move(to: x + dx * step / 4, y + dy * step / 4) }
            try button(pressed: false)
            #expect(!system.pointerButtonsDown())
            settle(200)
            return pip.pipFrame
        }

        /// Waits until the screenshot shows the picture filling `frame` (on sway).
        func expectPicture(at frame: Rect) throws {
            guard let sway else { return }
            try waitUntil("green at PiP's frame \(frame) (sway: \(sway.log.suffix(300)))") {
                settle()  // pictures keep coming
                return try sway.screenshot().meanColor(in: XRect(x: frame.x + 4, y: frame.y + 4, width: frame.width - 8, height: frame.height - 8))
                    .distance(to: WaylandPointerTests.green) < 8
            }
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aPressInTheMiddleDragsPipByThePointersTravel() throws {
        let started = ContinuousClock.now
        let stage = try Stage()
        let before = stage.pip.pipFrame
        let after = try stage.drag(from: before.x + before.width / 2, before.y + before.height / 2, by: -200, -100)
        #expect(abs(after.x - (before.x - 200)) <= 3 && abs(after.y - (before.y - 100)) <= 3, "moved by (-200, -100): \(before) → \(after)")
        #expect(after.width == before.width && after.height == before.height, "a move keeps the size: \(after)")
        #expect(stage.pip.isActive)
        try stage.expectPicture(at: after)
        let shot = try #require(stage.sway).screenshot()
        let old = Rect(x: after.maxX + 4, y: after.maxY + 4, width: before.maxX - after.maxX - 8, height: before.maxY - after.maxY - 8)
        #expect(shot.meanColor(in: XRect(x: old.x, y: old.y, width: old.width, height: old.height)).distance(to: WaylandPointerTests.green) > 100,
                "where PiP was and is not now no longer shows the picture")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aPressAtTheRightEdgeResizesKeepingTheShape() throws {
        let started = ContinuousClock.now
        let stage = try Stage()
        let before = stage.pip.pipFrame
        // Two pixels in from the right edge, halfway down: the right edge's band. Dragged left: smaller.
        let after = try stage.drag(from: before.maxX - 2, before.y + before.height / 2, by: -80, 0)
        #expect(abs(after.width - (before.width - 80)) <= 3, "80 narrower: \(before) → \(after)")
        #expect(abs(after.width * before.height - after.height * before.width) <= before.width * 2, "the shape kept: \(after)")
        #expect(after.x == before.x, "the left edge stays: \(after)")
        #expect(abs((after.y + after.height / 2) - (before.y + before.height / 2)) <= 1, "the middle stays at its height: \(after)")
        try stage.expectPicture(at: after)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theWheelZoomsAroundThePointerAndADoubleClickEndsPip() throws {
        let stage = try Stage()
        let before = stage.pip.pipFrame
        try stage.move(to: before.x + before.width / 2, before.y + before.height / 2)
        // Up: buttons 4, each a zoom by PipTuning's 1.1.
        try stage.scroll(-2)
        let zoomed = stage.pip.pipFrame
        #expect(abs(zoomed.width - Int((Double(before.width) * 1.21).rounded())) <= 4, "two steps in: \(before) → \(zoomed)")
        #expect(abs(zoomed.width * before.height - zoomed.height * before.width) <= before.width * 2, "the shape kept: \(zoomed)")
        try stage.scroll(1)
        #expect(stage.pip.pipFrame.width < zoomed.width, "one step out: \(stage.pip.pipFrame)")
        #expect(stage.pip.isActive)

        // Far enough in time from the scroll, two clicks within 400 ms: back to the source window.
        try stage.click()
        try stage.click()
        let ended = WaylandPipTests.run(stage.loop, timeout: .seconds(3)) { !stage.pip.isActive }
        #expect(ended, "a double-click ends PiP (\(stage.pip.phase))")
    }

    @Test(.enabled(if: missing == nil && WaylandCompositorTests.kwinMissing == nil,
                   Comment(rawValue: missing ?? WaylandCompositorTests.kwinMissing ?? "")))
    func onKWinADragMovesPipByThePointersTravelToo() throws {
        let stage = try Stage(onKWin: true)
        let before = stage.pip.pipFrame
        let after = try stage.drag(from: before.x + before.width / 2, before.y + before.height / 2, by: -200, -100)
        #expect(abs(after.x - (before.x - 200)) <= 3 && abs(after.y - (before.y - 100)) <= 3, "moved by (-200, -100): \(before) → \(after)")
        #expect(after.width == before.width && after.height == before.height, "a move keeps the size: \(after)")
    }
}
