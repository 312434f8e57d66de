import PipCore

/// The PiP window: floating above other windows with the picture's shape, dragged from anywhere
/// and resized from its edges. It reports what happened to it as `PipSurfaceEvent`s.
public protocol PipSurface: AnyObject {
    /// Its id in its window system.
    var id: WindowID { get }
    /// Where it is, in screen coordinates.
    var rect: Rect { get }
    /// Width / height of the picture; resizes keep it.
    var aspect: Double { get }
    var style: PipWindowStyle { get set }
    /// What draws its pictures.
    var video: VideoSurface { get }
    /// Whether a press held now has moved or resized it.
    var isDragging: Bool { get }
    /// What happened to it; set once by its controller.
    var onEvent: (PipSurfaceEvent) -> Void { get set }
    /// Shows it (and keeps asking until it shows).
    func show()
    func hide()
    func setRect(_ rect: Rect)
    func setAspect(_ ratio: (Int, Int))
    /// Hands a press, motion or release to its own move and resize gesture.
    func handlePointer(_ event: InputEvent)
    /// Destroys it; no event follows.
    func destroy()
}

/// What happened to the PiP surface.
public enum PipSurfaceEvent: Sendable, Equatable {
    /// It moved or was resized (`resized`), already noted in `rect`; `from` is where it was.
    /// `external`: reported by someone other than the window system itself (a window manager's
    /// note of a move), which never resizes.
    case frameChanged(from: Rect, resized: Bool, external: Bool)
    /// It needs its picture drawn again (uncovered, or moved onto the screen).
    case needsFrame
    /// It was shown again after what places windows dropped the request.
    case shownAgain(Rect)
    /// The user asked to close it (the window manager's close button).
    case closeRequested
    /// Someone else destroyed it: it shows nothing any more.
    case destroyed
    /// A move or resize pipcam ran itself ended.
    case ownDragEnded(DragKind)
    /// A move or resize was handed to the window manager; it ends at the button's release.
    case windowManagerDragStarted(DragKind)
    /// The user's pointer or keys.
    case input(InputEvent)
}

/// The user's input on a surface, as any window system reports it.
public enum InputEvent: Sendable, Equatable {
    case press(PointerEvent)
    case release(PointerEvent)
    case motion(PointerEvent)
    /// A key press with its (unshifted) keysym and the modifiers held.
    case key(Keysym, state: UInt32)
    case entered
    case left
}

/// The window PiP's grow and shrink animations run in: above everything, undecorated.
public protocol AnimationSurface: AnyObject {
    var video: VideoSurface { get }
    /// Shows it at `rect` above other windows.
    func show(at rect: Rect)
    func move(to rect: Rect)
    func hide()
    func destroy()
}
