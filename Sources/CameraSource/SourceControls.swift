/// What the capture side asks of a source beyond its frames, as one value: applied with one call
/// (`FrameSource.apply`), and given whole to a source that takes over from another.
public struct SourceControls: Sendable, Equatable {
    /// The size frames are shown at, in the picture's own orientation.
    public struct DisplaySize: Sendable, Equatable {
        public var width: Int, height: Int
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// Level 0 is every frame, level n one frame in 2ⁿ: a live source under pressure is throttled.
    public var throttle: Int
    /// Nothing has shown the frames for a while: a camera lets its device go once every frame is
    /// back (`CameraState` `interrupted:idle`) and opens it again when this is false again.
    public var idle: Bool
    /// No window shows the frames now: a live source may skip work only the picture needs (the
    /// test pattern stops painting).
    public var unseen: Bool
    /// Where the frames are shown settled at this size: a camera may switch to a mode that suits
    /// it better. nil until known.
    public var displaySize: DisplaySize?
    /// A file's playback: played or paused, and the seeks asked for. Live sources ignore it.
    public var playback = PlaybackRequest()

    public init(throttle: Int = 0, idle: Bool = false, unseen: Bool = false, displaySize: DisplaySize? = nil) {
        self.throttle = throttle
        self.idle = idle
        self.unseen = unseen
        self.displaySize = displaySize
    }
}
