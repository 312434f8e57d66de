import Foundation
import PipCore
import PipWayland
import PipWindow
import TestSupport
import Testing

/// Pictures at the output's scale on headless sway, seen in grim's screenshots at the output's
/// pixels: at scale 2 a pattern of one-pixel stripes drawn in the buffer shows stripe for stripe
/// (detail finer than a logical pixel), where a surface at scale 1 (the old way) shows each of
/// its pixels twice over; the place stays in logical coordinates. At 1.5 sway 1.7 (no
/// fractional-scale) says 2, and shows the buffer drawn at 2 scaled down.
@Suite(.timeLimit(.minutes(1)))
struct WaylandScaleTests {
    static let missing = WaylandOverlayTests.missing
    static let black = RGB(0, 0, 0), white = RGB(255, 255, 255)

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func atScaleTwoTheBufferIsTwiceTheSizeAndSharp() throws {
        let (sway, connection) = try Self.sway(scale: "2")
        defer {
            connection.close()
            sway.stop()
        }
        #expect(connection.outputScale == 2)
        let output = try #require(connection.outputSize)
        #expect(output.width == 640 && output.height == 360, "the output's logical size")

        // Bottom right, 20 from the edges, in logical coordinates.
        let rect = Rect(x: 640 - 20 - 200, y: 360 - 20 - 100, width: 200, height: 100)
        let sharp = try WaylandOverlaySurface(on: connection, rect: rect)
        defer { sharp.destroy() }
        #expect(sharp.scale == WaylandScale(integer: 2))
        #expect(sharp.pixelSize == (400, 200))
        try Self.drawColumns(sharp, connection: connection, expecting: (400, 200), Self.stripes)
        // At the output's pixels: twice the logical place, black and white alternating pixel by pixel.
        let shot = try Self.settledShot(of: sway, around: rect, scale: 2)
        let row = Self.row(shot, from: 2 * rect.x + 20, count: 16, y: 2 * rect.y + 40)
        #expect(row == (0..<16).map { $0 % 2 == 0 ? Self.black : Self.white }, "one physical pixel per stripe: \(row)")
        // Nothing left of it: the red background, so the place is right to the pixel.
        #expect(shot.pixel(2 * rect.x - 1, 2 * rect.y + 40).distance(to: RGB(255, 0, 0)) < 8)
        #expect(shot.pixel(2 * rect.x, 2 * rect.y + 40).distance(to: Self.black) < 8)
        sharp.destroy()
        try connection.roundtrip()

        // The old way: a buffer at the logical size, which the compositor scales up.
        connection.ignoresScale = true
        let blurred = try WaylandOverlaySurface(on: connection, rect: rect)
        defer { blurred.destroy() }
        #expect(blurred.scale == .one)
        #expect(blurred.pixelSize == (200, 100))
        try Self.drawColumns(blurred, connection: connection, expecting: (200, 100), Self.stripes)
        let old = try Self.settledShot(of: sway, around: rect, scale: 2)
        let oldRow = Self.row(old, from: 2 * rect.x + 20, count: 16, y: 2 * rect.y + 40)
        #expect(oldRow != row, "at scale 1 the stripes are not one physical pixel wide: \(oldRow)")
        for pair in stride(from: 0, to: 16, by: 2) {
            #expect(oldRow[pair].distance(to: oldRow[pair + 1]) < 8, "each buffer pixel covers two physical ones: \(oldRow)")
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func atScaleOneAndAHalfSwayAsksForTwoAndScalesDown() throws {
        let (sway, connection) = try Self.sway(scale: "1.5")
        defer {
            connection.close()
            sway.stop()
        }
        // sway 1.7 offers no fractional-scale: it says 2 and scales the buffer down to 1.5.
        #expect(connection.outputScale == 2)
        #expect(!connection.offersFractionalScale)
        let output = try #require(connection.outputSize)
        #expect(output == (853, 480), "the logical size from xdg-output, not the mode over 2 (640×360)")
        // Bottom right, 53 and 80 from the edges: placed from them at the logical size.
        let rect = Rect(x: 600, y: 300, width: 200, height: 100)
        let surface = try WaylandOverlaySurface(on: connection, rect: rect)
        defer { surface.destroy() }
        #expect(surface.place.anchor == [.bottom, .right])
        #expect(surface.scale == WaylandScale(integer: 2))
        #expect(surface.pixelSize == (400, 200))
        // The left half black, the right half white.
        try Self.drawColumns(surface, connection: connection, expecting: (400, 200)) { x, width in x < width / 2 ? 0 : 0x00FF_FFFF }
        // At 1.5 times the logical place (900…1199 across), the halves' edge sharp at 1050.
        let y = 450 + 75
        var row: [RGB] = []
        try waitUntil("the halves shown at 1.5 times their place (seen \(row))") {
            let shot = try sway.screenshot()
            row = [899, 900, 1049, 1050, 1199, 1200].map { shot.pixel($0, y) }
            return shot.width == 1280 && row.first.map { $0.distance(to: RGB(255, 0, 0)) < 8 } == true
                && row[1].distance(to: Self.black) < 8
        }
        #expect(row[0].distance(to: RGB(255, 0, 0)) < 8 && row[5].distance(to: RGB(255, 0, 0)) < 8, "\(row)")
        #expect(row[1].distance(to: Self.black) < 8 && row[2].distance(to: Self.black) < 8, "\(row)")
        #expect(row[3].distance(to: Self.white) < 8 && row[4].distance(to: Self.white) < 8, "\(row)")
    }

    @Test(.enabled(if: HeadlessKWin.missing == nil, Comment(rawValue: HeadlessKWin.missing ?? "")))
    func onKWinAtOneAndAHalfTheBufferIsOneAndAHalfTimesTheSize() throws {
        let kwin = try HeadlessKWin(width: 1280, height: 720, scale: "1.5")
        defer { kwin.stop() }
        let connection = try WaylandConnection(display: kwin.socket)
        defer { connection.close() }
        // KWin 5.27 says 2 on wl_output (rounded up) and offers fractional-scale and viewporter.
        #expect(connection.outputScale == 2)
        #expect(connection.offersFractionalScale)
        let output = try #require(connection.outputSize)
        #expect(output == (1280, 720), "--width and --height are logical")
        let rect = Rect(x: 100, y: 100, width: 200, height: 100)
        let surface = try WaylandOverlaySurface(on: connection, rect: rect)
        defer { surface.destroy() }
        // Its preferred scale comes with the configure: 180/120.
        #expect(surface.scale == WaylandScale(oneHundredTwentieths: 180))
        #expect(surface.pixelSize == (300, 150))
        try Self.drawColumns(surface, connection: connection, expecting: (300, 150), Self.stripes)
        try Self.waitShown(surface, connection)
        // 301.5 and 151.5 rounded up.
        try surface.setRect(Rect(x: 100, y: 100, width: 201, height: 101))
        #expect(surface.pixelSize == (302, 152))
        try Self.drawColumns(surface, connection: connection, expecting: (302, 152), Self.stripes)
        try Self.waitShown(surface, connection)
        #expect(!surface.isClosed, "the compositor took the buffer and its viewport")
    }

    /// The real `PipController` at scale 2: placed in the logical output, 2× controls, and camera
    /// frames of the buffer's size shown pixel for pixel.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func pipAtScaleTwoIsPlacedInTheLogicalOutputAndShowsFramesPixelForPixel() throws {
        let (sway, connection) = try Self.sway(scale: "2")
        defer {
            connection.close()
            sway.stop()
        }
        let loop = WaylandLoop(connection: connection)
        let system = WaylandWindowSystem(loop: loop)
        #expect(system.screen.layout.monitors == [Rect(x: 0, y: 0, width: 640, height: 360)])
        #expect(system.prefersDoubleSize)
        let pip = try PipController(
            windowSystem: system, contentSource: PipContentSource(sourceWindow: 1, preferredContentSize: (640, 360)),
            corner: .bottomRight)
        defer { pip.tearDown() }
        try #require(system.sourceWatch).frame = Rect(x: 20, y: 20, width: 320, height: 180)
        let feed = WaylandPipTests.Feed(loop: loop, pip: pip, picture: BGRAPicture(width: 640, height: 360) { _ in WaylandPipTests.green })
        var shown: Int { feed.shown }
        pip.start()
        try #require(WaylandPipTests.run(loop, timeout: .seconds(5)) { pip.isActive && shown >= 3 }, "PiP is up (\(pip.phase))")
        let frame = pip.pipFrame
        #expect(frame.x > 320 && frame.y > 180 && frame.maxX <= 640 && frame.maxY <= 360, "bottom-right, logical: \(frame)")
        #expect(pip.pipPixelFrame.width == 2 * frame.width)

        // Frames of the buffer's size, in one-pixel stripes.
        feed.picture = BGRAPicture(width: 2 * frame.width, height: 2 * frame.height) { $0 % 2 == 0 ? Self.black : Self.white }
        var row: [RGB] = []
        let y = 2 * (frame.y + frame.height / 2)
        try waitUntil("stripes at PiP's physical pixels (seen \(row))") {
            let until = shown + 2
            _ = WaylandPipTests.run(loop, timeout: .seconds(1)) { shown >= until }
            let shot = try sway.screenshot()
            row = Self.row(shot, from: 2 * frame.x + 40, count: 8, y: y)
            return row == (0..<8).map { $0 % 2 == 0 ? Self.black : Self.white }
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aScaleChangedWhileShownIsFollowed() throws {
        let (sway, connection) = try Self.sway(scale: "2")
        defer {
            connection.close()
            sway.stop()
        }
        let surface = try WaylandOverlaySurface(on: connection, rect: Rect(x: 100, y: 100, width: 200, height: 100))
        defer { surface.destroy() }
        var rescaled = 0
        surface.onScaleChanged = { rescaled += 1 }
        try Self.drawColumns(surface, connection: connection, expecting: (400, 200), Self.stripes)
        try Self.waitShown(surface, connection)
        try sway.command(["output", "*", "scale", "1"])
        let deadline = ContinuousClock.now + .seconds(5)
        while rescaled == 0 && ContinuousClock.now < deadline { try connection.dispatch(timeout: .milliseconds(50)) }
        #expect(rescaled == 1, "told once")
        #expect(connection.outputScale == 1 && surface.scale == .one)
        #expect(surface.pixelSize == (200, 100))
        try Self.drawColumns(surface, connection: connection, expecting: (200, 100), Self.stripes)
        try Self.waitShown(surface, connection)
    }

    /// sway with a 1280×720 output at `scale` over a red background, and a connection to it.
    static func sway(scale: String) throws -> (HeadlessSway, WaylandConnection) {
        let sway = try HeadlessSway(width: 1280, height: 720, scale: scale)
        do {
            try sway.start(["swaybg", "--color", "#ff0000"])
            return (sway, try WaylandConnection(display: sway.socket))
        } catch {
            sway.stop()
            throw error
        }
    }

    /// Dispatches until the compositor showed the last put (5 s at most).
    static func waitShown(_ surface: WaylandOverlaySurface, _ connection: WaylandConnection) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !surface.isIdle && ContinuousClock.now < deadline { try connection.dispatch(timeout: .milliseconds(50)) }
        if !surface.isIdle { throw HarnessError("the picture was not shown") }
    }

    /// One-pixel stripes: even columns black, odd white.
    static func stripes(_ x: Int, _ width: Int) -> UInt32 { x % 2 == 0 ? 0x0000_0000 : 0x00FF_FFFF }

    /// Each column of the whole buffer in the colour `color` gives it, put and sent.
    static func drawColumns(_ surface: WaylandOverlaySurface, connection: WaylandConnection,
                            expecting size: (Int, Int), _ color: (Int, Int) -> UInt32) throws {
        var drawnAt: (Int, Int)?
        let outcome = surface.present { pixels, stride, width, height in
            drawnAt = (width, height)
            for y in 0..<height {
                let row = (pixels + y * stride).bindMemory(to: UInt32.self, capacity: width)
                for x in 0..<width { row[x] = color(x, width) }
            }
        }
        guard case .pending = outcome else { throw HarnessError("not put: \(outcome)") }
        #expect(drawnAt.map { $0 == size } == true, "drawn at \(String(describing: drawnAt))")
        try connection.roundtrip()
    }

    /// A screenshot once the place `rect` (logical) shows the picture (its left edge black).
    static func settledShot(of sway: HeadlessSway, around rect: Rect, scale: Int) throws -> Screenshot {
        var last: Screenshot?
        try waitUntil("the stripes shown") {
            let shot = try sway.screenshot()
            last = shot
            return shot.width == sway.width && shot.pixel(scale * rect.x, scale * rect.y + 40).distance(to: black) < 8
        }
        return try #require(last)
    }

    static func row(_ shot: Screenshot, from x: Int, count: Int, y: Int) -> [RGB] {
        (x..<x + count).map { shot.pixel($0, y) }
    }
}
