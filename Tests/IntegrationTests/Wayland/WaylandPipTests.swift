import Foundation
import Glibc
import PipConvert
import PipCore
import PipWayland
import PipWindow
import TestSupport
import Testing

/// The real `PipController` on `WaylandWindowSystem`, on headless sway: PiP grows out of the
/// source window, shows frames above a fullscreen window (foot, where installed) at its own frame,
/// and is gone once stopped; all of it in this process on one `WaylandLoop`, as pipcam's will.
@Suite(.timeLimit(.minutes(1)))
struct WaylandPipTests {
    static let missing = WaylandOverlayTests.missing
    static let green = RGB(0, 255, 0)

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func pipGrowsShowsFramesAtItsFrameAboveAFullscreenWindowAndGoesAtStop() throws {
        let started = ContinuousClock.now
        let sway = try HeadlessSway(width: 1280, height: 720)
        defer { sway.stop() }
        try sway.start(["swaybg", "--color", "#ff0000"])
        let behind = try WaylandOverlayTests.showBehind(on: sway)

        let connection = try WaylandConnection(display: sway.socket)
        defer { connection.close() }
        let loop = WaylandLoop(connection: connection)
        let system = WaylandWindowSystem(loop: loop)
        #expect(system.screen.layout.monitors == [Rect(x: 0, y: 0, width: 1280, height: 720)])
        let pip = try PipController(
            windowSystem: system, contentSource: PipContentSource(sourceWindow: 1, preferredContentSize: (640, 360)),
            corner: .bottomRight)
        defer { pip.tearDown() }
        let watch = try #require(system.sourceWatch)
        watch.frame = Rect(x: 40, y: 40, width: 640, height: 360)
        #expect(pip.isPossible)

        let feed = Feed(loop: loop, pip: pip, picture: BGRAPicture(width: 640, height: 360) { _ in Self.green })
        var shown: Int { feed.shown }

        /// Starts PiP and runs the loop until PiP's own window has shown a few frames.
        func startAndShow() -> Bool {
            pip.start()
            var shownWhenActive: Int?
            return Self.run(loop, timeout: .seconds(5)) {
                if pip.isActive && shownWhenActive == nil { shownWhenActive = shown }
                return shownWhenActive.map { shown >= $0 + 3 } ?? false
            }
        }
        #expect(startAndShow(), "PiP is up and showing frames (\(pip.phase), \(shown) shown; \(system.lastError.map { "\($0)" } ?? "no error"))")
        #expect(loop.connectionError == nil)

        let frame = pip.pipFrame
        #expect(frame.x > 640 && frame.y > 360 && frame.maxX <= 1280 && frame.maxY <= 720, "bottom-right: \(frame)")
        #expect(abs(frame.width * 9 - frame.height * 16) <= 16, "the picture's shape: \(frame)")
        var last: Screenshot?
        try waitUntil("green at PiP's frame \(frame) (sway: \(sway.log.suffix(400)))") {
            let shot = try sway.screenshot()
            last = shot
            return shot.meanColor(in: XRect(x: frame.x + 4, y: frame.y + 4, width: frame.width - 8, height: frame.height - 8))
                .distance(to: Self.green) < 8
        }
        let shot = try #require(last)
        let inFrame = WaylandOverlayTests.count(
            Self.green, in: shot.cropped(to: XRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height)))
        #expect(inFrame >= frame.width * frame.height * 95 / 100, "green fills PiP's frame: \(inFrame) pixels")
        #expect(WaylandOverlayTests.count(Self.green, in: shot) == inFrame, "no green outside PiP's frame")
        for (x, y) in [(frame.x - 6, frame.y + frame.height / 2), (frame.x + frame.width / 2, frame.y - 6)] {
            #expect(shot.meanColor(in: XRect(x: x - 2, y: y - 2, width: 4, height: 4)).distance(to: behind) < 8,
                    "what is behind shows just outside PiP at \(x),\(y)")
        }

        pip.stop()
        let down = Self.run(loop, timeout: .seconds(5)) { pip.phase == .idle }
        #expect(down, "PiP stopped (\(pip.phase))")
        try connection.roundtrip()
        try waitUntil("PiP gone (sway: \(sway.log.suffix(400)))") {
            let shot = try sway.screenshot()
            last = shot
            return WaylandOverlayTests.count(Self.green, in: shot) == 0
        }
        let after = try #require(last)
        #expect(after.meanColor(in: XRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height)).distance(to: behind) < 8,
                "PiP's frame shows what is behind")

        // Started again: its surfaces are made anew, and frames reach them.
        #expect(startAndShow(), "PiP is up again (\(pip.phase); \(system.lastError.map { "\($0)" } ?? "no error"))")
        let again = pip.pipFrame
        try waitUntil("green at PiP's frame \(again) again") {
            try sway.screenshot().meanColor(in: XRect(x: again.x + 4, y: again.y + 4, width: again.width - 8, height: again.height - 8))
                .distance(to: Self.green) < 8
        }
        #expect(ContinuousClock.now - started < .seconds(20))
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func theLoopRunsTimersAndReadersUntilStoppedAndRunsAgain() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let connection = try WaylandConnection(display: sway.socket)
        defer { connection.close() }
        let loop = WaylandLoop(connection: connection)
        let wake = WakeSignal()
        var order: [String] = []
        loop.addReader(wake.fd) {
            wake.drain()
            order.append("read")
            loop.stop(exitCode: 7)
        }
        let cancelled = loop.schedule(at: .now().advanced(byNanoseconds: 10_000_000)) { order.append("cancelled") }
        loop.schedule(at: .now().advanced(byNanoseconds: 30_000_000)) {
            order.append("timer")
            wake.signal()
        }
        loop.cancelTimer(cancelled)
        #expect(loop.run() == 7)
        #expect(order == ["timer", "read"])

        // Stopped before it runs: it returns at once, without an iteration.
        var iterations = 0
        loop.everyIteration { iterations += 1 }
        loop.removeReader(wake.fd)
        loop.stop(exitCode: 3)
        #expect(loop.run() == 3)
        #expect(iterations == 0 && loop.connectionError == nil)
    }

    /// Frames of `picture` to PiP at every turn of the loop it can take one, counted as shown.
    final class Feed {
        var picture: BGRAPicture
        private(set) var shown = 0

        init(loop: WaylandLoop, pip: PipController, picture: BGRAPicture) {
            self.picture = picture
            pip.output.onFrameShown = { [weak self] _ in self?.shown += 1 }
            loop.everyIteration { [weak self] in
                guard let self, pip.output.canPresent else { return }
                _ = try? pip.output.present(self.picture.frame(at: .now()))
            }
        }
    }

    /// Runs `loop` until `condition` holds (looked at every 10 ms) or `timeout` passes; whether it held.
    static func run(_ loop: WaylandLoop, timeout: Duration, until condition: @escaping () -> Bool) -> Bool {
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(timeout.seconds * 1e9))
        var held = false
        func look() {
            if condition() {
                held = true
                loop.stop(exitCode: 0)
            } else if MonotonicInstant.now() >= deadline {
                loop.stop(exitCode: 1)
            } else {
                loop.schedule(at: .now().advanced(byNanoseconds: 10_000_000)) { look() }
            }
        }
        loop.schedule(at: .now()) { look() }
        _ = loop.run()
        return held
    }
}

/// A BGRA frame in memory of its own, each column one colour.
final class BGRAPicture {
    let width: Int, height: Int
    private let pixels: UnsafeMutableRawBufferPointer

    init(width: Int, height: Int, column colour: (Int) -> RGB) {
        self.width = width
        self.height = height
        pixels = .allocate(byteCount: width * height * 4, alignment: 64)
        for x in 0..<width {
            let c = colour(x)
            for y in 0..<height {
                let i = 4 * (y * width + x)
                (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (UInt8(c.blue), UInt8(c.green), UInt8(c.red), 255)
            }
        }
    }

    deinit { pixels.deallocate() }

    func frame(at time: MonotonicInstant) -> VideoFrame {
        VideoFrame(
            packed: .bgra, width: width, height: height, base: UnsafeRawPointer(pixels.baseAddress!),
            byteCount: pixels.count, colorimetry: .standard(forHeight: height), timestamp: time, sequence: 0, bufferIndex: 0)
    }
}
