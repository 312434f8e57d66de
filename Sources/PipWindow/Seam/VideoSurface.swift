import PipConvert
import PipCore

/// What draws pictures in one window: converted frames, and pictures drawn on the spot
/// (notices). Its window system says when a put reached the screen (`onPutCompleted`).
public protocol VideoSurface: AnyObject {
    /// The pixel layout pictures are drawn in (for overlays).
    var pixelLayout: PixelLayout { get }
    /// The part of the window pictures are drawn in, in window coordinates.
    var drawn: Rect { get }
    /// Pixels of its pictures per window coordinate: 1 where a window's coordinates are pixels
    /// (X11), the output's scale on Wayland (2: pictures and the controls in them are drawn at
    /// twice the window's size).
    var pixelScale: Double { get }
    var mirror: Bool { get set }
    var rotation: Rotation { get set }
    /// The part of the picture shown (digital zoom and pan).
    var framing: Framing { get set }
    /// What the source will send, to get ready before the first frame.
    var expectedFrames: ExpectedFrames? { get set }
    /// Drawn over every picture, after conversion: pixels, stride, width, height.
    var overlay: ((UnsafeMutableRawPointer, Int, Int, Int) -> Void)? { get set }
    /// Whether a picture can be put now (not all its buffers are with the window system).
    var canPresent: Bool { get }
    /// Whether every put has completed.
    var isIdle: Bool { get }
    /// A picture could not be put: its owner draws it again after the next completion.
    var owesRedraw: Bool { get }
    /// Called when a put reached the screen, with the frame's capture time (nil for a redraw).
    var onPutCompleted: ((MonotonicInstant?) -> Void)? { get set }
    func present(_ frame: VideoFrame, counted: Bool) throws -> PresentOutcome
    func present(drawing body: (UnsafeMutableRawPointer, Int, Int, Int) -> Void) -> PresentOutcome
    /// Matches the buffers to the window's new size.
    func resize(width: Int, height: Int)
    /// The window moved: true when the part of it on the screen changed (draw again).
    func windowMoved() -> Bool
    /// Makes the buffers before the first picture, so the first one shows without delay.
    func warmUp()
    /// Puts the last picture again.
    func redraw()
    func close()
}

extension VideoSurface {
    /// A window's coordinates are its pictures' pixels.
    public var pixelScale: Double { 1 }
}

/// What happened to a picture handed to a surface.
public enum PresentOutcome: Sendable {
    /// All its buffers are still with the window system: try again after a completion.
    case busy
    /// Put; `onPutCompleted` reports when it reached the screen.
    case pending
    /// Put and already complete, with the frame's capture time (nil for puts that do not count
    /// as a shown frame).
    case completed(MonotonicInstant?)
}
