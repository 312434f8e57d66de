import PipControl
import CameraSource
import Foundation
import PipCore
@testable import PipWindow
@testable import PipcamApp
import Synchronization
import Testing

/// The test pattern, telling which display sizes it was told of (from the capture thread).
final class DisplaySizeLog: FrameSource, @unchecked Sendable {
    private let pattern: TestPatternSource
    let sizes = Mutex<[[Int]]>([])
    /// Says 0×0 until it was asked for a frame, as a camera another application holds at start does.
    let sizeUnknownAtStart: Bool
    private let asked = Atomic<Bool>(false)

    init(width: Int, height: Int, sizeUnknownAtStart: Bool = false) {
        pattern = TestPatternSource(width: width, height: height)
        self.sizeUnknownAtStart = sizeUnknownAtStart
    }

    var name: String { "test" }
    var spec: SourceSpec { .test }
    var isLive: Bool { true }
    var mirroredByDefault: Bool { false }
    var frameWidth: Int { sizeUnknownAtStart && !asked.load(ordering: .relaxed) ? 0 : pattern.frameWidth }
    var frameHeight: Int { sizeUnknownAtStart && !asked.load(ordering: .relaxed) ? 0 : pattern.frameHeight }
    var frameFormat: PixelFormat? { pattern.frameFormat }
    var frameRate: Double? { pattern.frameRate }
    var pollDescriptor: Int32? { nil }
    func start() throws { pattern.start() }
    func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        asked.store(true, ordering: .relaxed)
        return pattern.nextFrame(now: now)
    }
    func recycle(bufferIndex: Int) { pattern.recycle(bufferIndex: bufferIndex) }
    func stop() { pattern.stop() }
    /// Records the display size as it changes.
    func apply(_ controls: SourceControls) {
        guard let size = controls.displaySize, size != appliedSize else { return }
        appliedSize = size
        sizes.withLock { $0.append([size.width, size.height]) }
    }
    private var appliedSize: SourceControls.DisplaySize?
}

/// A session that opens with the main window tells its source the size the main window shows the
/// picture at, so a camera opens (and stays) in a mode for it rather than for the PiP's size; the
/// first request asks for that size already (`SessionOptions.firstDisplaySize`).
@Suite struct MainWindowDisplaySizeTests {
    /// pipcam in this process on its own Xvfb (1280×720, no window manager: the work area is the
    /// screen) with a 1280×720 test pattern that logs the display sizes; the PiP's place is
    /// remembered in a file of its own.
    final class Session {
        let x: XServer
        let display: XDisplay
        let source: DisplaySizeLog
        let app: PipcamApp
        let options: SessionOptions
        private let geometry = FileManager.default.temporaryDirectory.appendingPathComponent("pipcam-geometry-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        private let start = MonotonicInstant.now()

        init(sizeUnknownAtStart: Bool = false, _ configure: (inout SessionOptions) -> Void = { _ in }) throws {
            source = DisplaySizeLog(width: 1280, height: 720, sizeUnknownAtStart: sizeUnknownAtStart)
            x = try makeServer()
            display = try XDisplay(name: x.display)
            try source.start()
            var options = SessionOptions()
            options.remembersGeometry = false
            options.geometryFile = geometry
            configure(&options)
            self.options = options
            app = PipcamApp(display: display, source: source, options: options)
        }

        deinit { try? FileManager.default.removeItem(atPath: geometry) }

        /// Runs `body` on the display loop `milliseconds` after the session was made.
        func at(_ milliseconds: Int64, _ body: @escaping () -> Void) {
            _ = app.loop.schedule(at: start.advanced(byNanoseconds: milliseconds * 1_000_000), body)
        }

        var sizes: [[Int]] { source.sizes.withLock { $0 } }
    }

    /// A camera whose size is not known at start (held by another application) still gets a main
    /// window of 70 % of the work area, sized for 16:9, not the 240×135 minimum of a 1×1 picture.
    @Test func aSourceOfUnknownSizeGetsAFullMainWindow() throws {
        let session = try Session(sizeUnknownAtStart: true) { $0.frameLimit = 5 }
        #expect(session.app.run() == 0)
        let main = try #require(session.app.main)
        #expect((890...896).contains(main.size.width) && (500...504).contains(main.size.height), "main window \(main.size)")
    }

    @Test func theMainWindowsPictureSizeReachesTheSource() throws {
        let session = try Session { $0.frameLimit = 5 }
        #expect(session.app.run() == 0)
        // The main window takes at most 70 % of the work area; it shows the picture fitted inside.
        let main = try #require(session.app.main)
        #expect((890...896).contains(main.size.width) && (500...504).contains(main.size.height), "main window \(main.size)")
        let fit = min(Double(main.size.width) / 1280, Double(main.size.height) / 720)
        let shown = [Int(1280 * fit), Int(720 * fit)]
        #expect(session.sizes == [shown], "display sizes told: \(session.sizes), the main window shows \(shown)")
        let first = session.options.firstDisplaySize(
            workArea: Rect(x: 0, y: 0, width: 1280, height: 720), parentSize: nil, rememberedPip: nil)
        #expect(first.width >= main.size.width && first.height >= main.size.height,
                "the first request (\(first)) covers the main window (\(main.size))")
    }

    @Test func aResizedMainWindowTellsItsNewSizeAndAMovedOneNothing() throws {
        let session = try Session()
        let (app, display) = (session.app, session.display)
        let script = LoopScript()
        script.wait("the main window to show a frame", until: {
            app.main.map { display.isViewable($0.id) == true } == true && !session.sizes.isEmpty
        }) {
            guard let main = app.main else { return }
            display.moveResize(main.id, to: Rect(x: 40, y: 30, width: main.size.width, height: main.size.height))
        }
        script.pause(400) { if let main = app.main { display.moveResize(main.id, to: Rect(x: 0, y: 0, width: 1000, height: 700)) } }
        script.wait("the new size to be told", until: { session.sizes.count >= 2 })
        script.pause(300)
        script.start(on: app.loop)
        #expect(app.run() == 0, "timed out waiting for \(script.failedStep ?? "")")
        // 1000×700 shows the 16:9 picture at 1000×562.
        #expect(session.sizes == [[894, 503], [1000, 562]], "display sizes told: \(session.sizes)")
    }

    @Test func pipTellsItsSizeAndTheMainWindowItsOwnAgainWhenPipStops() throws {
        let session = try Session { $0.size = (320, 180) }
        let app = session.app
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: 10_000_000_000)
        // PiP on; once it has been up for 0.5 s, off; once it is back in the main window, the end
        // (3: not within 10 s). The mailbox keeps only the newest size: stopping at once could
        // replace PiP's before the capture thread took it.
        var stopAsked = false
        var activeSince: MonotonicInstant?
        func step() {
            if !stopAsked && app.pip.phase == .active {
                let since = activeSince ?? MonotonicInstant.now()
                activeSince = since
                if MonotonicInstant.now() > since.advanced(byNanoseconds: 500_000_000) {
                    app.pip.stop()
                    stopAsked = true
                }
            } else if stopAsked && app.pip.phase == .idle {
                // Time for the capture thread to pass the last size on.
                _ = app.loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: 300_000_000)) {
                    app.loop.stop(exitCode: 0)
                }
                return
            }
            if MonotonicInstant.now() > deadline { return app.loop.stop(exitCode: 3) }
            _ = app.loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: 50_000_000), step)
        }
        session.at(300) {
            app.pip.start()
            step()
        }
        #expect(app.run() == 0)
        let sizes = session.sizes
        #expect(sizes.first == [894, 503] && sizes.last == [894, 503], "display sizes told: \(sizes)")
        #expect(sizes.contains([320, 180]), "display sizes told: \(sizes)")
    }

    /// `--follow-window` given a view inside another application's window: when the picture's
    /// shape becomes known (or changes: `r`, another camera), PiP still grows out of and shrinks
    /// into that view, not the whole window (it was dropped, and the window's watch rebuilt).
    @Test func aFollowedViewStaysTheAnimationWindowWhenThePictureChangesShape() throws {
        let source = DisplaySizeLog(width: 1280, height: 720, sizeUnknownAtStart: true)
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let top = display.createWindow(rect: Rect(x: 100, y: 100, width: 800, height: 600), events: [])
        let view = display.createWindow(parent: top, rect: Rect(x: 20, y: 40, width: 320, height: 180), events: [])
        display.map(view)
        display.map(top)
        display.sync()
        try source.start()
        var options = SessionOptions()
        options.remembersGeometry = false
        options.followWindow = view
        let app = PipcamApp(display: display, source: source, options: options)
        var seen: [(WindowID?, Int?)] = []
        for milliseconds in [0, 1500] as [Int64] {
            _ = app.loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: (milliseconds + 50) * 1_000_000)) {
                seen.append((app.pip.contentSource?.animationWindow, app.pip.contentSource?.preferredContentWidth))
                if seen.count == 2 { app.loop.stop(exitCode: 0) }
            }
        }
        #expect(app.run() == 0)
        try #require(seen.count == 2)
        // At start the size was guessed (1920×1080: the camera's is not known); the frames' is 1280.
        #expect(seen[0].0 == view, "at start: the view (\(seen[0]))")
        #expect(seen[1].0 == view && seen[1].1 == 1280, "once the frames' size is known: still the view (\(seen[1]))")
    }

    /// Toggled three times while PiP shrinks back (a hotkey pressed fast): stop, start again
    /// (queued behind the stop), and stop: PiP ends up stopped, as the last press asked. The
    /// third toggle started it again too (the start stayed queued).
    @Test func aThirdToggleWhilePipStopsLeavesItStopped() throws {
        let session = try Session()
        var phases: [PipPhase] = []
        let app = session.app
        // Steps wait for what they need, not for fixed times: under load a 250 ms animation has
        // taken over a second.
        let script = LoopScript()
        script.wait("the main window to show", until: { app.main?.isMapped == true }) { app.carryOut(.pip(.toggle)) }
        script.wait("PiP to be up", until: { app.pip.phase == .active }) {
            phases.append(app.pip.phase)
            for _ in 0..<3 { app.carryOut(.pip(.toggle)) }
            phases.append(app.pip.phase)
        }
        script.wait("PiP to be stopped", until: { app.pip.phase == .idle })
        // A start left queued would take PiP up again right after the stop.
        script.pause(1000) { phases.append(app.pip.phase) }
        script.start(on: app.loop)
        #expect(session.app.run() == 0, "timed out: \(script.failedStep ?? "")")
        #expect(phases == [.active, .stopping, .idle], "\(phases)")
    }

}
