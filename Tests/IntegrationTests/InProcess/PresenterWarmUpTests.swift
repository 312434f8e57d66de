import CameraSource
import Foundation
import PipCore
@testable import PipWindow
import TestSupport
import Testing

/// `Presenter.warmUp` against a real X server (no window manager): it raises no X error, leaves
/// both images written and read by the server, and the first MJPEG frame then looks exactly as it
/// does through a presenter that was not warmed up.
@Suite struct PresenterWarmUpTests {
    static let size = (width: 320, height: 180)

    /// The first frame of a 1280×720 MJPEG clip (ffmpeg's testsrc2), and the source that owns it.
    static func firstFrame() throws -> (MJPEGSource, VideoFrame) {
        let source = MJPEGSource(path: try TestMedia.mjpeg(width: 1280, height: 720, frames: 2), request: SourceRequest(paced: false))
        try source.start()
        guard case .frame(let frame) = try source.nextFrame(now: .now()) else { throw HarnessError("no first frame") }
        return (source, frame)
    }

    /// Puts `frame` through `presenter` and waits for the server to finish with it.
    static func show(_ frame: VideoFrame, with presenter: Presenter, on display: XDisplay) throws {
        guard case .pending = try presenter.present(frame) else { throw HarnessError("the put was not a shared-memory put") }
        display.flush()
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if case .shmCompletion(let segment)? = display.nextEvent(withinMilliseconds: 100),
                presenter.completed(segment: segment).mine
            {
                return
            }
        }
        throw HarnessError("no completion for the put")
    }

    @Test func aWarmedUpPresenterShowsTheFirstFrameAsAColdOneDoes() throws {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let (w, h) = Self.size
        let windows = [0, w + 10].map { left in
            display.createWindow(rect: Rect(x: left, y: 0, width: w, height: h), events: [.exposure])
        }
        for window in windows { display.map(window) }
        display.sync()
        let warm = try Presenter(display: display, window: windows[0], allowShm: true)
        let cold = try Presenter(display: display, window: windows[1], allowShm: true)
        for p in [warm, cold] { p.resize(width: w, height: h) }
        #expect(warm.usesSharedMemory, "Xvfb offers MIT-SHM")

        warm.expectedFrames = ExpectedFrames(format: .mjpeg, width: 1280, height: 720)
        #expect(!warm.isWarm)
        let (_, error) = display.withErrorTrap { warm.warmUp() }
        #expect(error == nil, "the warm-up caused an X error: \(String(describing: error))")
        #expect(warm.isWarm && !cold.isWarm)

        let (source, frame) = try Self.firstFrame()
        defer { source.stop() }
        try Self.show(frame, with: warm, on: display)
        try Self.show(frame, with: cold, on: display)
        let shots = try windows.map { try x.screenshot(of: XWindowID(UInt32($0.rawValue))) }
        #expect(shots[0].commonColorCount() >= 3, "testsrc2 has several large coloured areas")
        #expect(shots[0].fractionDiffering(from: shots[1], tolerance: 0) == 0, "the warmed-up window shows another picture")
    }

    /// New expected frames (a camera plugged in, a new mode) get a window that already shows
    /// frames ready at once; a window that never showed one stays without the memory.
    @Test func newExpectedFramesPrepareOnlyAWindowShowingFrames() throws {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let (w, h) = Self.size
        let window = display.createWindow(rect: Rect(x: 0, y: 0, width: w, height: h), events: [.exposure])
        display.map(window)
        let presenter = try Presenter(display: display, window: window, allowShm: true)
        presenter.resize(width: w, height: h)
        let small = ExpectedFrames(format: .mjpeg, width: 640, height: 360)
        let large = ExpectedFrames(format: .mjpeg, width: 1920, height: 1080)
        presenter.expectedFrames = small
        #expect(presenter.preparedFrames == nil, "a window not shown yet got ready")
        presenter.expectedFrames = large
        #expect(presenter.preparedFrames == nil)
        presenter.warmUp()
        #expect(presenter.preparedFrames == large)
        presenter.expectedFrames = small
        #expect(presenter.preparedFrames == small)
        presenter.expectedFrames = nil  // a camera closed for a moment: nothing to get ready for
        #expect(presenter.preparedFrames == small)

        // Showing a picture counts as showing frames, warm-up or not.
        let other = try Presenter(display: display, window: window, allowShm: true)
        other.resize(width: w, height: h)
        let (source, frame) = try Self.firstFrame()
        defer { source.stop() }
        try Self.show(frame, with: other, on: display)
        other.expectedFrames = large
        #expect(other.preparedFrames == large)
    }
}
