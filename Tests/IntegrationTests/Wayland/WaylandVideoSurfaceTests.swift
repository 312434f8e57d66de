import Foundation
import PipConvert
import PipCore
import PipWayland
import PipWindow
import TestSupport
import Testing

/// `WaylandVideoSurface` on an overlay surface of headless sway, seen in grim's screenshots: a frame
/// mirrored or turned, with the overlay drawn over it, shown with its capture time; the last
/// picture put again by `redraw`; a frame that fails to convert puts nothing.
@Suite(.timeLimit(.minutes(1)))
struct WaylandVideoSurfaceTests {
    static let missing = WaylandOverlayTests.missing
    static let blue = RGB(0, 0, 255), green = RGB(0, 255, 0), white = RGB(255, 255, 255), black = RGB(0, 0, 0)

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func framesAreMirroredTurnedOverlaidShownAndRedrawn() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        try sway.start(["swaybg", "--color", "#ff0000"])
        let connection = try WaylandConnection(display: sway.socket)
        defer { connection.close() }
        let rect = Rect(x: 304, y: 164, width: 320, height: 180)
        let surface = try WaylandOverlaySurface(on: connection, rect: rect)
        let video = WaylandVideoSurface(options: VideoSurfaceOptions(allowSharedMemory: true, jpegDecodeThreads: 1))
        defer {
            video.close()
            surface.destroy()
        }
        video.resize(width: rect.width, height: rect.height)
        #expect(!video.canPresent && video.isIdle, "nothing to draw into before a surface is attached")
        video.attach(surface)
        var completions: [MonotonicInstant?] = []
        video.onPutCompleted = { completions.append($0) }
        let whitePixel = video.pixelLayout.pixel(red: 255, green: 255, blue: 255)
        video.overlay = { pixels, stride, _, _ in
            for y in 0..<12 {
                let row = (pixels + y * stride).bindMemory(to: UInt32.self, capacity: 12)
                for x in 0..<12 { row[x] = whitePixel }
            }
        }
        // The left half blue, the right half green.
        let picture = BGRAPicture(width: 640, height: 360) { $0 < 320 ? Self.blue : Self.green }
        let captured = MonotonicInstant(nanoseconds: 123_456_789)

        video.mirror = true
        let first = try video.present(picture.frame(at: captured), counted: true)
        guard case .pending = first else { throw HarnessError("the frame was not put: \(first)") }
        #expect(!video.canPresent && !video.isIdle, "the put waits for the compositor's frame")
        try Self.pump(connection, "the frame shown") { completions.count == 1 }
        #expect(completions == [captured], "shown with its capture time")
        #expect(video.canPresent && video.isIdle)
        let mirrored = [(rect.x + 6, rect.y + 6, Self.white), (rect.x + 80, rect.y + 90, Self.green), (rect.x + 240, rect.y + 90, Self.blue)]
        try Self.expect(mirrored, on: sway)

        // Into the other buffer: without the copy it would be black.
        video.redraw()
        #expect(!video.isIdle, "the last picture put again")
        try Self.pump(connection, "the redraw shown") { completions.count == 2 }
        #expect(completions.count == 2 && completions[1] == nil, "a redraw counts no frame")
        try Self.expect(mirrored, on: sway)

        let empty = VideoFrame(
            format: .bgra, width: 0, height: 0, plane0: FramePlane(base: UnsafeRawPointer(bitPattern: 64)!, stride: 0),
            byteCount: 0, colorimetry: .standard(forHeight: 0), timestamp: captured, sequence: 0, bufferIndex: 0)
        #expect(throws: (any Error).self) { _ = try video.present(empty, counted: true) }
        #expect(video.canPresent && video.isIdle && !video.owesRedraw, "a frame that fails to convert puts nothing")

        // A quarter turn clockwise: the left half on top, bars beside the upright picture.
        video.mirror = false
        video.rotation = .deg90
        let turned = try video.present(picture.frame(at: captured), counted: false)
        guard case .pending = turned else { throw HarnessError("the turned frame was not put: \(turned)") }
        try Self.pump(connection, "the turned frame shown") { completions.count == 3 }
        #expect(completions.count == 3 && completions[2] == nil, "an uncounted frame reports no capture time")
        try Self.expect(
            [(rect.x + 160, rect.y + 40, Self.blue), (rect.x + 160, rect.y + 140, Self.green), (rect.x + 30, rect.y + 90, Self.black),
             (rect.x + 6, rect.y + 6, Self.white)], on: sway)

        video.attach(nil)
        #expect(!video.canPresent && video.isIdle)
        guard case .busy = video.present(drawing: { _, _, _, _ in }) else { throw HarnessError("put without a surface") }
        #expect(video.owesRedraw, "no surface: nothing is put, and it is owed")
    }

    /// Dispatches the connection until `done` (5 s at most).
    static func pump(_ connection: WaylandConnection, _ what: String, until done: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !done() && ContinuousClock.now < deadline { try connection.dispatch(timeout: .milliseconds(50)) }
        if !done() { throw HarnessError("timed out waiting for \(what)") }
    }

    /// Waits until each (x, y) shows its colour (a 4×4 patch around it), saying what was seen.
    static func expect(_ patches: [(Int, Int, RGB)], on sway: HeadlessSway) throws {
        var seen: [RGB] = []
        try waitUntil("\(patches.map { "\($0.0),\($0.1) \($0.2)" }) (seen \(seen))") {
            let shot = try sway.screenshot()
            seen = patches.map { shot.meanColor(in: XRect(x: $0.0 - 2, y: $0.1 - 2, width: 4, height: 4)) }
            return zip(seen, patches).allSatisfy { $0.distance(to: $1.2) < 8 }
        }
    }
}
