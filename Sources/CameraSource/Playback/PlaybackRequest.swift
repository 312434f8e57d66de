/// What the display side asks of a file's playback: playing or paused, and the seeks asked for.
/// Part of `SourceControls`, so it reaches the source with the other controls.
public struct PlaybackRequest: Sendable, Equatable {
    public var playing = true
    /// At its end a file stays on its last frame (`PlaybackStatus.ended`) instead of ending the
    /// stream: the program goes back to the source shown before it.
    public var holdsAtEnd = false
    /// Seeks asked for so far: a source goes to `lastSeek` when this count is new to it.
    public private(set) var seeks = 0
    public private(set) var lastSeek: SeekTarget?

    public init() {}

    public mutating func seek(_ target: SeekTarget) {
        seeks += 1
        lastSeek = target
    }

    /// The same count without its target: for a source taking over, which the seeks asked of
    /// the one before do not concern.
    public mutating func forgetSeek() { lastSeek = nil }
}

/// What a file source says of its playback, for `pipcam status`, the window's controls and
/// media players (nil for live sources).
public struct PlaybackStatus: Sendable, Equatable {
    public var playing: Bool
    public var frameRate: Double
    /// Frames in the file, once known.
    public var frameCount: Int?
    /// Whether it can seek (a regular file); a pipe or standard input can only pause.
    public var seekable: Bool
    public var loops: Bool
    /// It reached its end and stays on its last frame (`PlaybackRequest.holdsAtEnd`).
    public var ended = false

    public init(playing: Bool, frameRate: Double, frameCount: Int?, seekable: Bool, loops: Bool) {
        self.playing = playing
        self.frameRate = frameRate
        self.frameCount = frameCount
        self.seekable = seekable
        self.loops = loops
    }

    /// The length in seconds, once known.
    public var length: Double? { frameCount.map { Double($0) / frameRate } }
}
