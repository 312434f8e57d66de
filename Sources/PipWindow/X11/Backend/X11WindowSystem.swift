import PipConvert
import PipCore

/// PiP on an X server: EWMH/ICCCM windows, XShm pictures, the window manager and RandR screens,
/// all on one `DisplayLoop`.
public final class X11WindowSystem: WindowSystem {
    public var names: (system: String, pipRole: String) { ("x11", "window") }
    public let loop: DisplayLoop
    var display: XDisplay { loop.display }
    private let screenWatcher: ScreenWatcher
    private var presenters: [WeakPresenter] = []
    private var completionObserver: Int?
    /// The surfaces and watches made here, told when the window manager changes.
    private var windowManagerListeners: [WeakListener] = []

    public init(loop: DisplayLoop) {
        self.loop = loop
        screenWatcher = ScreenWatcher(loop: loop)
        // Weak: the loop may outlive the system (`stop` removes the observer).
        completionObserver = loop.observeOtherEvents { [weak self] event in
            if case .shmCompletion(let segment) = event { self?.completed(segment: segment) }
        }
        screenWatcher.onWindowManagerChangedInternally = { [unowned self] in
            windowManagerListeners.removeAll { $0.listener == nil }
            for entry in windowManagerListeners { entry.listener?.windowManagerChanged(to: screenWatcher.windowManager) }
        }
    }

    deinit { stop() }

    public var timers: ReaderLoop { loop }
    public var screen: PipScreen { screenWatcher }
    public var pixelLayout: PixelLayout? { PixelLayout(display.visualMasks) }
    public var prefersDoubleSize: Bool { display.prefersDoubleSize }
    public func pointerButtonsDown() -> Bool { display.pointerButtonsDown() }
    public func exists(_ window: WindowID) -> Bool { window != 0 && display.isMapped(window) != nil }

    public func makePipSurface(rect: Rect, aspect: (Int, Int), video: VideoSurfaceOptions) throws -> PipSurface {
        let surface = try X11PipSurface(system: self, rect: rect, aspect: aspect, video: video)
        windowManagerListeners.append(WeakListener(listener: surface))
        return surface
    }

    public func makeAnimationSurface(rect: Rect, video: VideoSurfaceOptions) throws -> AnimationSurface {
        try X11AnimationSurface(system: self, rect: rect, video: video)
    }

    public func watchSource(_ content: PipContentSource, hiding: AutomaticPip, report: @escaping (PipEvent) -> Void) -> SourceWatch? {
        guard let watch = X11SourceWatch(system: self, content: content, hiding: hiding, report: report) else { return nil }
        windowManagerListeners.append(WeakListener(listener: watch))
        return watch
    }

    /// The window manager as last read.
    var windowManager: WindowManagerInfo { screenWatcher.windowManager }

    /// A presenter on `window`, whose shared-memory completions this system hands back to it.
    public func makePresenter(window: WindowID, video: VideoSurfaceOptions) throws -> Presenter {
        let presenter = try Presenter(
            display: display, window: window, allowShm: video.allowSharedMemory, jpegDecodeThreads: video.jpegDecodeThreads)
        adopt(presenter)
        return presenter
    }

    /// Hands `presenter` its shared-memory completions from now on (one made elsewhere: the main window's).
    public func adopt(_ presenter: Presenter) {
        presenters.removeAll { $0.presenter == nil }
        presenters.append(WeakPresenter(presenter: presenter))
    }

    private func completed(segment: UInt) {
        for entry in presenters {
            guard let presenter = entry.presenter else { continue }
            let result = presenter.completed(segment: segment)
            guard result.mine else { continue }
            presenter.onPutCompleted?(result.capturedAt)
            return
        }
    }

    /// Stops taking events; what was made here stays its owner's to destroy.
    public func stop() {
        if let completionObserver { loop.unregister(completionObserver) }
        completionObserver = nil
        screenWatcher.stop()
    }
}

/// What hears that the window manager changed.
protocol WindowManagerListener: AnyObject {
    func windowManagerChanged(to info: WindowManagerInfo)
}

private struct WeakListener {
    weak var listener: WindowManagerListener?
}

private struct WeakPresenter {
    weak var presenter: Presenter?
}
