import Glibc
import PipConvert
import PipCore
@testable import PipWindow

/// A window system with no display: it records what PiP asks of it, in order, and runs timers
/// when the test lets time pass.
final class FakeWindowSystem: WindowSystem {
    var names: (system: String, pipRole: String) { ("fake", "window") }
    var log: [String] = []
    let loop = FakeTimers()
    let fakeScreen = FakeScreen()
    var sourceFrame: Rect? = Rect(x: 100, y: 100, width: 640, height: 360)
    var sourceHidden = false
    var watches: [FakeWatch] = []
    var pip: FakePipSurface?

    var timers: ReaderLoop { loop }
    var screen: PipScreen { fakeScreen }
    var pixelLayout: PixelLayout? { FakeVideo.layout }
    var doubleSize = false
    var prefersDoubleSize: Bool { doubleSize }
    func pointerButtonsDown() -> Bool { false }
    func exists(_ window: WindowID) -> Bool { window != 0 }

    func makePipSurface(rect: Rect, aspect: (Int, Int), video: VideoSurfaceOptions) throws -> PipSurface {
        let surface = FakePipSurface(system: self, rect: rect, aspect: aspect)
        pip = surface
        return surface
    }

    func makeAnimationSurface(rect: Rect, video: VideoSurfaceOptions) throws -> AnimationSurface {
        FakeAnimationSurface(system: self)
    }

    func watchSource(_ content: PipContentSource, hiding: AutomaticPip, report: @escaping (PipEvent) -> Void) -> SourceWatch? {
        let watch = FakeWatch(system: self, window: content.sourceWindow, report: report)
        watches.append(watch)
        return watch
    }

    func stop() { log.append("stop") }
}

/// Timers run by `pass`, in deadline order, as a loop would run them.
final class FakeTimers: ReaderLoop {
    private var timers: [(id: Int, at: MonotonicInstant, handler: () -> Void)] = []
    private var nextID = 1
    func addReader(_ fd: Int32, _ handler: @escaping () -> Void) {}
    func removeReader(_ fd: Int32) {}
    @discardableResult func schedule(at deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> Int {
        nextID += 1
        timers.append((nextID, deadline, handler))
        return nextID
    }
    func cancelTimer(_ id: Int) { timers.removeAll { $0.id == id } }

    /// Runs the timers due within `milliseconds` of real time (the controller reads the clock).
    func pass(milliseconds: Int) {
        let end = MonotonicInstant.now().advanced(byNanoseconds: Int64(milliseconds) * 1_000_000)
        while let next = timers.min(by: { $0.at < $1.at }), next.at <= end {
            while MonotonicInstant.now() < next.at { usleep(2000) }
            timers.removeAll { $0.id == next.id }
            next.handler()
        }
        while MonotonicInstant.now() < end { usleep(2000) }
    }
}

final class FakeScreen: PipScreen {
    var layout = ScreenLayout(monitors: [Rect(x: 0, y: 0, width: 1920, height: 1080)], workArea: Rect(x: 0, y: 0, width: 1920, height: 1080))
    func homeArea(near window: WindowID?) -> Rect { layout.areas[0] }
    var windowManagerRunning = true
    var layoutReads = 0
    var onScreenChanged: () -> Void = {}
    var onWindowManagerChanged: () -> Void = {}
    func stop() {}
}

final class FakeWatch: SourceWatch {
    unowned let system: FakeWindowSystem
    let window: WindowID
    let report: (PipEvent) -> Void
    var hiding: AutomaticPip = .hidden
    init(system: FakeWindowSystem, window: WindowID, report: @escaping (PipEvent) -> Void) {
        self.system = system
        self.window = window
        self.report = report
    }
    var frame: Rect? { system.sourceFrame }
    var isHidden: Bool { system.sourceHidden }
    func recheck() {}
    func restore() { system.log.append("restore \(window)") }
    func stop() { system.log.append("unwatch \(window)") }
}

final class FakePipSurface: PipSurface {
    unowned let system: FakeWindowSystem
    let id: WindowID = 7
    var rect: Rect
    let aspect: Double
    var style = PipWindowStyle()
    let video: VideoSurface = FakeVideo()
    var isDragging: Bool { false }
    var onEvent: (PipSurfaceEvent) -> Void = { _ in }
    init(system: FakeWindowSystem, rect: Rect, aspect: (Int, Int)) {
        self.system = system
        self.rect = rect
        self.aspect = Double(aspect.0) / Double(aspect.1)
    }
    func show() { system.log.append("pip show \(rect)") }
    func hide() { system.log.append("pip hide") }
    func setRect(_ rect: Rect) {
        let old = self.rect
        self.rect = rect
        // A window system answers a move with the frame it gave.
        onEvent(.frameChanged(from: old, resized: old.width != rect.width, external: false))
    }
    func setAspect(_ ratio: (Int, Int)) {}
    func handlePointer(_ event: InputEvent) {}
    func destroy() { system.log.append("pip destroy") }
}

final class FakeAnimationSurface: AnimationSurface {
    unowned let system: FakeWindowSystem
    let video: VideoSurface = FakeVideo()
    init(system: FakeWindowSystem) { self.system = system }
    func show(at rect: Rect) { system.log.append("animation show \(rect)") }
    func move(to rect: Rect) { system.log.append("animation move") }
    func hide() { system.log.append("animation hide") }
    func destroy() { system.log.append("animation destroy") }
}

final class FakeVideo: VideoSurface {
    static let layout = PixelLayout(redMask: 0xff0000, greenMask: 0xff00, blueMask: 0xff, bitsPerPixel: 32)!
    var pixelLayout: PixelLayout { Self.layout }
    var drawn = Rect(x: 0, y: 0, width: 0, height: 0)
    var pixelScale: Double = 1
    var mirror = false
    var rotation = Rotation.deg0
    var framing = Framing.full
    var expectedFrames: ExpectedFrames?
    var overlay: ((UnsafeMutableRawPointer, Int, Int, Int) -> Void)?
    var canPresent: Bool { true }
    var isIdle: Bool { true }
    var owesRedraw: Bool { false }
    var onPutCompleted: ((MonotonicInstant?) -> Void)?
    func present(_ frame: VideoFrame, counted: Bool) throws -> PresentOutcome { .completed(nil) }
    func present(drawing body: (UnsafeMutableRawPointer, Int, Int, Int) -> Void) -> PresentOutcome { .completed(nil) }
    func resize(width: Int, height: Int) { drawn = Rect(x: 0, y: 0, width: width, height: height) }
    func windowMoved() -> Bool { false }
    func warmUp() {}
    func redraw() {}
    func close() {}
}
