import PipCore

/// What a source says when asked for its next frame.
public enum SourceStep: Sendable {
    /// A frame, in one of the source's buffers; give the buffer back with `recycle(bufferIndex:)`.
    case frame(VideoFrame)
    /// Nothing yet: ask again when `pollDescriptor` is readable, or at `deadline`, or after a buffer
    /// was recycled — whichever comes first. `deadline == nil` means no timer.
    case wait(deadline: MonotonicInstant?)
    /// The source has no more frames (a file's end).
    case end
}

/// Where frames come from: a V4L2 camera, the built-in test pattern, or a file.
///
/// A source is driven from one thread (see `FramePump`): `start()`, then `nextFrame(now:)` until
/// it returns `.end` or throws, then `stop()`. Frames point into the source's own buffers, so a
/// source never hands out more frames than it has buffers; each must come back through
/// `recycle(bufferIndex:)` before that buffer is reused.
public protocol FrameSource: AnyObject {
    /// What the user named it by (`/dev/video0`, `test`, the file path), for messages and status.
    var name: String { get }
    /// Which source it is, typed: what the program goes by (the camera shown, a file's title),
    /// never its name's text.
    var spec: SourceSpec { get }
    /// Live sources (camera, test pattern) drop stale frames; file sources show every frame.
    var isLive: Bool { get }
    /// Whether frames should be mirrored when the user did not say (on for cameras).
    var mirroredByDefault: Bool { get }
    /// Frame size and format the source will deliver (known after `start()`).
    var frameWidth: Int { get }
    var frameHeight: Int { get }
    /// The pixel format frames will come in, when known after `start()` (nil: not known yet), so
    /// the display side can get ready for the first frame before it arrives.
    var frameFormat: PixelFormat? { get }
    /// Nominal frames per second, when known.
    var frameRate: Double? { get }
    /// A descriptor to wait on for the next frame (a camera's fd), or nil for timer-driven sources.
    var pollDescriptor: Int32? { get }

    /// Opens the device or file and starts streaming. Throws `SourceError`.
    func start() throws
    /// The next frame, or when to ask again.
    func nextFrame(now: MonotonicInstant) throws -> SourceStep
    /// Gives a frame's buffer back for reuse.
    func recycle(bufferIndex: Int)
    /// Stops streaming and releases the device or file. Safe to call more than once.
    func stop()
    /// What the camera is doing (files and the test pattern are always `.streaming`).
    var cameraState: CameraState { get }
    /// True while the source cannot go on until every frame it handed out is back (it must close
    /// the device those frames are mapped from, or switch to another source); the display then
    /// gives back even the frame it keeps for redrawing.
    var needsBuffersBack: Bool { get }
    /// The controls in effect from now on, all of them (a source keeps what it needs of the last
    /// ones to tell what changed). Sources that have no use for one ignore it: files and the test
    /// pattern are never throttled or let go.
    func apply(_ controls: SourceControls)
    /// A file's playback now (playing, its rate and length, whether it seeks); nil for live sources.
    var playback: PlaybackStatus? { get }
}

extension FrameSource {
    public var cameraState: CameraState { .streaming }
    public var frameFormat: PixelFormat? { nil }
    public var needsBuffersBack: Bool { false }
    public func apply(_ controls: SourceControls) {}
    public var playback: PlaybackStatus? { nil }

    /// The frames the source sends now (`frameFormat` at `frameWidth`×`frameHeight`), when it knows.
    public var expectedFrames: ExpectedFrames? {
        frameFormat.map { ExpectedFrames(format: $0, width: frameWidth, height: frameHeight) }
    }
}

/// What the window wants from a source, so it can pick the cheapest mode that looks right.
public struct SourceRequest: Sendable, Equatable {
    /// The size the frames will be shown at (the PiP window), in pixels.
    public var displayWidth: Int
    public var displayHeight: Int
    /// Show frames at the stream's own rate (false: as fast as they come, `--untimed`).
    public var paced: Bool
    /// Width ÷ height of the picture shown so far, when a camera changes modes for a resized
    /// window: modes of that shape come first, so the picture keeps its shape.
    public var aspect: Double?
    /// A file starts again from its first frame at its end (`--loop`).
    public var loops: Bool
    public init(displayWidth: Int = 480, displayHeight: Int = 270, paced: Bool = true, aspect: Double? = nil, loops: Bool = false) {
        self.loops = loops
        self.displayWidth = displayWidth
        self.displayHeight = displayHeight
        self.paced = paced
        self.aspect = aspect
    }
}
