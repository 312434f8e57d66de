import Glibc
import PipCore
@testable import PipWindow
import TestSupport
import Testing

/// A window that grows while the server still has its last put: the presenter makes new images,
/// and the put of the old one still counts as a shown frame when its completion comes.
@Suite struct PresenterResizeTests {
    /// A presenter at 320×180 on a mapped 640×360 window of its own server (kept alive by the caller).
    static func presenter() throws -> (XServer, XDisplay, Presenter) {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let window = display.createWindow(rect: Rect(x: 0, y: 0, width: 640, height: 360), events: [.exposure])
        display.map(window)
        display.sync()
        let presenter = try Presenter(display: display, window: window, allowShm: true)
        presenter.resize(width: 320, height: 180)
        return (x, display, presenter)
    }

    /// Also when it grows twice before the completion comes (a fast drag, a maximize: both
    /// ConfigureNotify events in one batch); the second growth used to forget the first's put.
    @Test(arguments: [1, 2])
    func aPutInFlightWhenTheWindowGrowsStillCountsAsShown(growths: Int) throws {
        let (x, display, presenter) = try Self.presenter()
        defer { withExtendedLifetime(x) {} }  // the server lives to the end of the test
        let (source, frame) = try PresenterWarmUpTests.firstFrame()
        defer { source.stop() }
        guard case .pending = try presenter.present(frame) else { throw HarnessError("the put was not a shared-memory put") }
        presenter.resize(width: 640, height: 360)
        if growths == 2 { presenter.resize(width: 1280, height: 720) }
        #expect(presenter.imagesMade == 2 + 2 * growths)
        #expect(presenter.canPresent, "the grown window has new images")
        display.flush()

        var shown: [MonotonicInstant?] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while shown.isEmpty && ContinuousClock.now < deadline {
            if case .shmCompletion(let segment)? = display.nextEvent(withinMilliseconds: 100) {
                let result = presenter.completed(segment: segment)
                if result.mine { shown.append(result.capturedAt) }
            }
        }
        #expect(shown == [frame.timestamp], "the frame put before the resize was not counted as shown")
        #expect(presenter.isIdle)
    }

    /// A drag that grows the window step by step makes new images once, not at every step: the
    /// first growth gets a quarter more room each way. (Each step made a pair of shared-memory
    /// images before: 18 for this drag.)
    @Test func aGrowingDragMakesNewImagesOnce() throws {
        let (x, _, presenter) = try Self.presenter()
        defer { withExtendedLifetime(x) {} }
        #expect(presenter.imagesMade == 2)
        for step in 1...8 { presenter.resize(width: 320 + 10 * step, height: 180 + 6 * step) }
        #expect(presenter.imagesMade == 4, "images made: \(presenter.imagesMade)")
        #expect(presenter.canPresent)
        presenter.resize(width: 500, height: 281)
        #expect(presenter.imagesMade == 6, "past the room made, new images again")
    }

    /// A window that claims to be far larger than the screen gets images of the screen's size at
    /// most; shrunk again, its images shrink with it rather than keeping that memory.
    @Test func imagesAreAtMostTheScreenAndShrinkWithTheWindow() throws {
        let (x, display, presenter) = try Self.presenter()
        defer { withExtendedLifetime(x) {} }
        let screen = display.screenSize
        presenter.resize(width: 65535, height: 65535)
        #expect(presenter.imageSize.width <= screen.width && presenter.imageSize.height <= screen.height,
                "images \(presenter.imageSize) for a \(screen) screen")
        #expect(presenter.drawn == Rect(x: 0, y: 0, width: screen.width, height: screen.height))
        presenter.resize(width: 320, height: 180)
        #expect(presenter.imageSize == (320, 180), "images \(presenter.imageSize) kept for a 320×180 window")
        #expect(presenter.canPresent)
        presenter.resize(width: 8192, height: 100)
        #expect(presenter.imageSize.width <= screen.width, "images \(presenter.imageSize)")
    }

    /// A picture put while both images are with the server is owed: the presenter says so until a
    /// later put goes through, so its owner can draw a static picture again after a completion.
    @Test func aPictureThatFindsBothImagesBusyIsOwed() throws {
        let (x, display, presenter) = try Self.presenter()
        defer { withExtendedLifetime(x) {} }  // the server lives to the end of the test
        let grey: (UnsafeMutableRawPointer, Int, Int, Int) -> Void = { pixels, stride, _, h in memset(pixels, 0x40, stride * h) }
        for _ in 0..<2 {
            guard case .pending = presenter.present(drawing: grey) else { throw HarnessError("not a shared-memory put") }
        }
        #expect(!presenter.owesRedraw)
        guard case .busy = presenter.present(drawing: grey) else { throw HarnessError("a third put found a free image") }
        #expect(presenter.owesRedraw)
        display.flush()
        let deadline = ContinuousClock.now + .seconds(5)
        while !presenter.canPresent && ContinuousClock.now < deadline {
            if case .shmCompletion(let segment)? = display.nextEvent(withinMilliseconds: 100) { _ = presenter.completed(segment: segment) }
        }
        #expect(presenter.owesRedraw, "owed until drawn")
        _ = presenter.present(drawing: grey)
        #expect(!presenter.owesRedraw)
    }
}
