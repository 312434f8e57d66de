import Foundation
import Glibc
import PipCore
import PipWayland
import TestSupport
import Testing

/// PiP's layer-shell overlay on headless sway, seen in grim's screenshots: drawn above a fullscreen
/// window (foot, where installed) and the background (swaybg) at the rectangle asked for, moved and
/// resized there, and gone once destroyed. The surface runs in the test process, as pipcam's will.
@Suite(.timeLimit(.minutes(1)))
struct WaylandOverlayTests {
    static let missing: String? = HeadlessSway.missing
        ?? ["swaybg", "grim"].first { !HeadlessSway.onPath($0) }.map { "\($0) is not installed (scripts/bootstrap wayland)" }
    static let green = RGB(0, 255, 0)

    @Test func aConnectionToNoCompositorGivesOneClearLine() throws {
        let directory = try Scratch.makeDirectory("wayland")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let wrong = "\(directory)/wayland-99"
        #expect(throws: WaylandError(kind: .noCompositor, description: "no Wayland compositor at \(wrong) (No such file or directory)")) {
            _ = try WaylandConnection(display: wrong)
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func anOverlayIsDrawnAboveAFullscreenWindowResizedAndRemoved() throws {
        let started = ContinuousClock.now
        let sway = try HeadlessSway()
        defer { sway.stop() }
        try sway.start(["swaybg", "--color", "#ff0000"])
        let behind = try Self.showBehind(on: sway)

        let connection = try WaylandConnection(display: sway.socket)
        defer { connection.close() }
        let output = try #require(connection.outputSize)
        #expect(output.width == sway.width && output.height == sway.height)

        // 320×180, 16 from the bottom and right edges.
        let first = Rect(x: sway.width - 16 - 320, y: sway.height - 16 - 180, width: 320, height: 180)
        let pip = try WaylandOverlaySurface(on: connection, rect: first)
        #expect(pip.place == WaylandOverlayPlace(anchor: [.bottom, .right], width: 320, height: 180,
                                                 margins: .init(right: 16, bottom: 16)))
        #expect(pip.size.width == 320 && pip.size.height == 180)
        try Self.fill(pip, with: Self.green)
        try Self.expectShown(on: sway, at: first, behind: behind)

        // 200×120, 40 from the edges: drawn there at its new size, and the old place uncovered.
        let second = Rect(x: sway.width - 40 - 200, y: sway.height - 40 - 120, width: 200, height: 120)
        try pip.setRect(second)
        #expect(pip.size.width == 200 && pip.size.height == 120)
        try Self.fill(pip, with: Self.green, ownLoop: true)
        try Self.expectShown(on: sway, at: second, behind: behind)
        #expect(try sway.screenshot().meanColor(in: XRect(x: first.x + 2, y: first.y + 2, width: 60, height: 20))
            .distance(to: behind) < 8, "the first place's top-left is uncovered")

        pip.destroy()
        try connection.roundtrip()
        var last: Screenshot?
        try waitUntil("the overlay gone (sway: \(sway.log.suffix(400)))") {
            let shot = try sway.screenshot()
            last = shot
            return shot.meanColor(in: XRect(x: first.x, y: first.y, width: first.width, height: first.height)).distance(to: behind) < 8
        }
        #expect(last.map { Self.count(Self.green, in: $0) } == 0, "no green pixel is left")
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    /// A fullscreen foot in blue where foot is installed and starts, else swaybg's red; the colour
    /// shown behind the overlay.
    static func showBehind(on sway: HeadlessSway) throws -> RGB {
        let red = RGB(255, 0, 0), blue = RGB(0, 0, 255)
        func middle() throws -> RGB {
            let shot = try sway.screenshot()
            return shot.meanColor(in: XRect(x: shot.width / 2 - 20, y: shot.height / 2 - 20, width: 40, height: 40))
        }
        try waitUntil("swaybg's red (sway: \(sway.log.suffix(400)))") { try middle().distance(to: red) < 8 }
        guard HeadlessSway.onPath("foot") else { return red }
        let foot = try sway.start(["env", "LC_ALL=C.UTF-8", "foot", "--fullscreen", "-o", "colors.background=0000ff", "sleep", "60"])
        let shown = try? poll(timeout: .seconds(5), what: "foot fullscreen") { try middle().distance(to: blue) < 8 ? true : nil }
        guard shown != nil else {
            // Without a font or a locale foot does not start; swaybg alone still shows the layering.
            foot.terminate(grace: .seconds(1))
            print("foot did not show, the overlay is checked over swaybg alone: \(foot.stderrText.suffix(300))")
            return red
        }
        return blue
    }

    /// Fills the whole surface with `colour` and waits until the compositor asks for the next frame:
    /// through `dispatch`, or (`ownLoop`) as a caller's poll loop would.
    private static func fill(_ pip: WaylandOverlaySurface, with colour: RGB, ownLoop: Bool = false) throws {
        let pixel = pip.pixelLayout.pixel(red: UInt8(colour.red), green: UInt8(colour.green), blue: UInt8(colour.blue))
        let outcome = pip.present { pixels, stride, width, height in
            for y in 0..<height {
                let row = (pixels + y * stride).bindMemory(to: UInt32.self, capacity: width)
                for x in 0..<width { row[x] = pixel }
            }
        }
        guard case .pending = outcome else { throw HarnessError("the overlay took no picture: \(outcome)") }
        var shownCount = 0
        pip.onPutCompleted = { _ in shownCount += 1 }
        defer { pip.onPutCompleted = nil }
        let deadline = ContinuousClock.now + .seconds(5)
        let connection = pip.connection
        while shownCount == 0 && ContinuousClock.now < deadline {
            guard ownLoop else {
                try connection.dispatch(timeout: .milliseconds(100))
                continue
            }
            let writing = try connection.prepareToPoll()
            var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0), revents: 0)
            let ready = Glibc.poll(&entry, 1, 100)
            try connection.finishPoll(readable: ready > 0 && entry.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0)
        }
        #expect(shownCount == 1 && pip.isIdle, "the compositor asked for the next frame")
    }

    /// Green inside `rect` (corners and middle), `behind` just outside each of its edges.
    private static func expectShown(on sway: HeadlessSway, at rect: Rect, behind: RGB) throws {
        func patch(_ x: Int, _ y: Int) -> XRect { XRect(x: x - 2, y: y - 2, width: 4, height: 4) }
        let inside = [(rect.x + 4, rect.y + 4), (rect.maxX - 5, rect.y + 4), (rect.x + 4, rect.maxY - 5),
                      (rect.maxX - 5, rect.maxY - 5), (rect.x + rect.width / 2, rect.y + rect.height / 2)].map(patch)
        let outside = [(rect.x - 5, rect.y + rect.height / 2), (rect.maxX + 4, rect.y + rect.height / 2),
                       (rect.x + rect.width / 2, rect.y - 5), (rect.x + rect.width / 2, rect.maxY + 4)].map(patch)
        var last: Screenshot?
        try waitUntil("the green overlay at \(rect) (sway: \(sway.log.suffix(400)))") {
            let shot = try sway.screenshot()
            last = shot
            return inside.allSatisfy { shot.meanColor(in: $0).distance(to: green) < 8 }
        }
        let shot = try #require(last)
        for area in outside {
            #expect(shot.meanColor(in: area).distance(to: behind) < 8, "\(area) just outside \(rect) shows what is behind")
        }
        // Exactly the rectangle, to the pixel: every green pixel in it, and none elsewhere.
        #expect(count(green, in: shot) == rect.width * rect.height, "green covers exactly \(rect)")
        #expect(count(green, in: shot.cropped(to: XRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height)))
            == rect.width * rect.height)
    }

    static func count(_ colour: RGB, in shot: Screenshot) -> Int {
        stride(from: 0, to: shot.rgb.count, by: 3).count(where: { index in
            RGB(Double(shot.rgb[index]), Double(shot.rgb[index + 1]), Double(shot.rgb[index + 2])).distance(to: colour) < 8
        })
    }
}
