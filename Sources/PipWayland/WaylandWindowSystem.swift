import PipConvert
import PipCore
import PipWindow

/// PiP on a Wayland compositor that offers wlr-layer-shell: its surfaces are overlay layer
/// surfaces pipcam places itself, on one `WaylandLoop`.
///
/// ```swift
/// let loop = WaylandLoop(connection: try WaylandConnection(display: nil))
/// let system = WaylandWindowSystem(loop: loop)
/// let pip = try PipController(windowSystem: system, contentSource: PipContentSource(
///     sourceWindow: 1, preferredContentSize: (1280, 720)))
/// system.sourceWatch?.frame = mainWindowFrame   // where PiP grows out of
/// ```
///
/// Not yet: the source window is whatever its owner says (`sourceWatch`), since the Wayland main
/// window is a later part; the screen is the first output, read once; the pointer reaches PiP
/// (drags, resizes, the controls, the wheel) but no keys do.
public final class WaylandWindowSystem: WindowSystem {
    /// PiP is an overlay-layer surface.
    public var names: (system: String, pipRole: String) { ("wayland", "layer-shell") }
    /// The loop PiP's timers run on, and the connection's.
    public let loop: WaylandLoop
    /// The connection the surfaces are made on.
    public var connection: WaylandConnection { loop.connection }
    private let waylandScreen: WaylandScreen
    private var lastID: UInt = 0
    /// The last watch `watchSource` made, whose frame and hiding its owner sets.
    public private(set) weak var sourceWatch: WaylandSourceWatch?
    /// The last thing that went wrong with a surface (which then shows nothing), for a notice.
    public private(set) var lastError: WaylandError?

    /// PiP on `loop`'s connection. Waits (`timeout` at most) for the output's size when the
    /// compositor has not said it yet.
    public init(loop: WaylandLoop, timeout: Duration = .seconds(2)) {
        self.loop = loop
        if loop.connection.outputSize == nil { try? loop.connection.roundtrip(timeout: timeout) }
        waylandScreen = WaylandScreen(output: loop.connection.outputSize)
    }

    /// The loop, whose thread every call here is made on.
    public var timers: ReaderLoop { loop }
    /// The first output, as the one monitor.
    public var screen: PipScreen { waylandScreen }
    /// wl_shm's XRGB8888, which every compositor offers.
    public var pixelLayout: PixelLayout? { .xrgb }
    /// On an output of scale 2 or more (1.5 in sway, which says 2): pictures are drawn at the
    /// scale, so the 2× controls and notices show at their logical size.
    public var prefersDoubleSize: Bool { connection.outputScale >= 2 }
    /// Whether a button is held on one of its surfaces (a drag of PiP still going on).
    public func pointerButtonsDown() -> Bool { connection.pointerButtonsDown }
    /// Any window but 0: the source window is its owner's, which says where it is.
    public func exists(_ window: WindowID) -> Bool { window.rawValue != 0 }

    /// The PiP window, not shown: no layer surface is made before `show`.
    public func makePipSurface(rect: Rect, aspect: (Int, Int), video: VideoSurfaceOptions) throws -> PipSurface {
        WaylandPipSurface(system: self, id: nextID(), rect: rect, aspect: aspect, video: video)
    }

    /// The animation window, not shown.
    public func makeAnimationSurface(rect: Rect, video: VideoSurfaceOptions) throws -> AnimationSurface {
        WaylandAnimationSurface(system: self, rect: rect, video: video)
    }

    /// A watch its owner tells where the source window is (`sourceWatch`); nil for window 0.
    public func watchSource(_ content: PipContentSource, hiding: AutomaticPip, report: @escaping (PipEvent) -> Void) -> SourceWatch? {
        guard exists(content.sourceWindow) else { return nil }
        let watch = WaylandSourceWatch(window: content.sourceWindow, hiding: hiding, report: report)
        sourceWatch = watch
        return watch
    }

    /// Nothing is taken from the compositor but through the loop, which its owner stops.
    public func stop() { waylandScreen.stop() }

    func note(_ error: WaylandError) { lastError = error }

    private func nextID() -> WindowID {
        lastID += 1
        return WindowID(rawValue: lastID)
    }
}

/// The one monitor PiP knows on Wayland: the first output, whose whole size is the work area
/// (layer surfaces placed from the output's edges ignore panels' zones).
public final class WaylandScreen: PipScreen {
    /// The output as one monitor, its whole as the work area.
    public private(set) var layout: ScreenLayout
    /// pipcam places its layer surfaces itself: nothing answers a move by moving them elsewhere.
    public var windowManagerRunning: Bool { false }
    /// Read once, at the start.
    public private(set) var layoutReads = 1
    /// Never called yet: a change of the output is not followed.
    public var onScreenChanged: () -> Void = {}
    /// Never called: nothing on Wayland places PiP but pipcam.
    public var onWindowManagerChanged: () -> Void = {}

    /// The screen of an output of `output`'s size (nil: not known, taken as 1280×720).
    public init(output: (width: Int, height: Int)?) {
        layout = Self.layout(output: output)
    }

    /// The layout of one output of `output`'s size at the origin; a size not known yet is taken
    /// as 1280×720, so PiP gets a sensible place until the output says its own.
    public static func layout(output: (width: Int, height: Int)?) -> ScreenLayout {
        let size = output ?? (1280, 720)
        let whole = Rect(x: 0, y: 0, width: size.width, height: size.height)
        return ScreenLayout(monitors: [whole], workArea: whole)
    }

    /// The one output's area, wherever the window is.
    public func homeArea(near window: WindowID?) -> Rect { layout.areas[0] }

    /// Calls nothing more.
    public func stop() {
        onScreenChanged = {}
        onWindowManagerChanged = {}
    }
}

/// The source window on Wayland, as its owner says it is: setting `frame` or `isHidden` reports
/// the change to PiP (a Wayland client cannot see other windows; its own main window tells).
public final class WaylandSourceWatch: SourceWatch {
    /// The id PiP's content source names it by.
    public let window: WindowID
    /// Where the source window is, in output coordinates; setting it reports `.sourceFrameChanged`.
    public var frame: Rect? {
        didSet { if let frame, frame != oldValue { report(.sourceFrameChanged(frame)) } }
    }
    /// Whether the source window is hidden; setting it reports `.sourceHidden` or `.sourceShown`.
    public var isHidden = false {
        didSet { if isHidden != oldValue { report(isHidden ? .sourceHidden : .sourceShown) } }
    }
    /// Which hiding counts (kept for its owner, who says when it is hidden).
    public var hiding: AutomaticPip
    /// Called when PiP stops and asks for the source window back.
    public var onRestore: () -> Void = {}
    private var report: (PipEvent) -> Void

    init(window: WindowID, hiding: AutomaticPip, report: @escaping (PipEvent) -> Void) {
        self.window = window
        self.hiding = hiding
        self.report = report
    }

    /// Nothing to read again: the owner says.
    public func recheck() {}
    /// Asks the owner for the source window back (`onRestore`).
    public func restore() { onRestore() }

    /// Reports nothing more.
    public func stop() {
        report = { _ in }
        onRestore = {}
    }
}
