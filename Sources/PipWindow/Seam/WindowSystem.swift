import PipConvert
import PipCore

/// What Picture in Picture needs of a window system, and all it knows of one: `PipController`
/// decides (life cycle, placement, input, animation, controls, framing) and asks this for
/// surfaces, the screen and the source window. The X11 backend (`X11WindowSystem`) is one
/// implementation; another window system is another, and the controller does not change.
public protocol WindowSystem: AnyObject {
    /// The loop PiP's timers run on; every call to the system and its surfaces is made on its thread.
    var timers: ReaderLoop { get }
    /// The monitors and their work areas.
    var screen: PipScreen { get }
    /// The pixel layout PiP's pictures are drawn in; nil where PiP cannot show video.
    var pixelLayout: PixelLayout? { get }
    /// Whether the screen is dense enough for PiP's controls at twice their size.
    var prefersDoubleSize: Bool { get }
    /// Whether a pointer button is held now (a drag the window system runs ends at its release).
    func pointerButtonsDown() -> Bool
    /// Whether `window` exists and can be a source window.
    func exists(_ window: WindowID) -> Bool
    /// The PiP window, not shown, at `rect` with the picture's shape `aspect`.
    func makePipSurface(rect: Rect, aspect: (Int, Int), video: VideoSurfaceOptions) throws -> PipSurface
    /// The window the grow and shrink animations run in, not shown.
    func makeAnimationSurface(rect: Rect, video: VideoSurfaceOptions) throws -> AnimationSurface
    /// Starts watching `content`'s source window; nil when it does not exist. `report` gets
    /// `.sourceHidden`, `.sourceShown`, `.sourceFrameChanged` and `.sourceDestroyed`.
    func watchSource(_ content: PipContentSource, hiding: AutomaticPip, report: @escaping (PipEvent) -> Void) -> SourceWatch?
    /// Stops taking events from the window system; what was made stays its owner's to destroy.
    func stop()
    /// Its name in `pipcam status` (`x11`, `wayland`), and what PiP's window is to it there
    /// (`window`, `layer-shell`, `xx-pip`).
    var names: (system: String, pipRole: String) { get }
}

/// How a surface's pictures are made.
public struct VideoSurfaceOptions: Sendable, Equatable {
    /// Whether pictures may go through memory shared with the display server.
    public var allowSharedMemory: Bool
    /// The threads MJPEG frames are decoded with (`JPEGDecoder`).
    public var jpegDecodeThreads: Int
    public init(allowSharedMemory: Bool, jpegDecodeThreads: Int) {
        self.allowSharedMemory = allowSharedMemory
        self.jpegDecodeThreads = jpegDecodeThreads
    }
}

/// The monitors and their work areas, as the window system last told them.
public protocol PipScreen: AnyObject {
    var layout: ScreenLayout { get }
    /// Where a new window goes: the work area of the monitor showing most of `window`, else the pointer's.
    func homeArea(near window: WindowID?) -> Rect
    /// Whether something (a window manager, a compositor) places and stacks windows.
    var windowManagerRunning: Bool { get }
    /// How many times the layout was read from the window system; for tests.
    var layoutReads: Int { get }
    /// The monitors or a work area changed.
    var onScreenChanged: () -> Void { get set }
    /// What places windows changed (a window manager started, was replaced or quit); surfaces and
    /// watches have been told already.
    var onWindowManagerChanged: () -> Void { get set }
    func stop()
}

/// The window PiP grows out of and shrinks back into, watched.
public protocol SourceWatch: AnyObject {
    var window: WindowID { get }
    /// Its on-screen frame (with its decorations), once known.
    var frame: Rect? { get }
    var isHidden: Bool { get }
    /// Which hiding counts; `recheck()` after changing it.
    var hiding: AutomaticPip { get set }
    /// Reads again whether the window is hidden (another desktop shown, the hiding changed).
    func recheck()
    /// Shows and activates the window again where it was (PiP stopped), unless its application
    /// withdrew it meanwhile.
    func restore()
    /// Stops watching.
    func stop()
}
