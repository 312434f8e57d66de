/// Where a file's playback is: playing or paused, the frame handed out last, the frame to hand
/// out next, and what its end does — a pure value the file source asks before each frame.
///
/// The frames' timing stays the pacer's (the stream's rate); this value only says *which* frame
/// comes next and *whether* one comes: none while paused, except once after a seek (the frame
/// sought is shown as a still, as players do).
public struct PlayerClock: Sendable, Equatable {
    /// Frames per second of the stream.
    public let frameRate: Double
    /// At the end, start again from the first frame (`--loop`).
    public let loops: Bool
    public private(set) var isPlaying = true
    /// The frame of the file handed out next (counted from 0).
    public private(set) var nextFrame = 0
    /// The frame handed out last: what shows. nil before the first.
    public private(set) var shownFrame: Int?
    /// Frames in the file, once known (its end was reached, or it was measured).
    public var frameCount: Int?
    /// Times the file started again from its first frame.
    public private(set) var loopsDone = 0
    /// A frame to hand out although paused: the one a seek went to.
    private var stillWanted = false
    /// A seek's frame not handed out yet: the next relative seek counts from it (Right pressed
    /// twice skips twice as far, as in players).
    private var seekPending = false

    public init(frameRate: Double, loops: Bool = false, frameCount: Int? = nil) {
        self.frameRate = frameRate > 0 ? frameRate : 30
        self.loops = loops
        self.frameCount = frameCount
    }

    /// The frame to hand out now, or nil while paused.
    public var wantedFrame: Int? { isPlaying || stillWanted ? nextFrame : nil }

    /// Frame `frame` went out.
    public mutating func handedOut(frame: Int) {
        shownFrame = frame
        nextFrame = frame + 1
        stillWanted = false
        seekPending = false
    }

    /// What the end of the file means.
    public enum End: Sendable, Equatable {
        /// Go on from frame 0 (`--loop`).
        case restart
        /// Playback is over.
        case over
    }

    /// The file has no frame `nextFrame`: it holds `nextFrame` frames.
    public mutating func reachedEnd() -> End {
        frameCount = nextFrame
        guard loops, nextFrame > 0 else {
            stillWanted = false
            return .over
        }
        nextFrame = 0
        loopsDone += 1
        return .restart
    }

    public mutating func pause() { isPlaying = false }

    public mutating func play() { isPlaying = true }

    /// Goes to `target` (clamped to the file's frames, as far as they are known; relative to the
    /// frame shown, or to the frame of a seek not shown yet); returns the frame handed out next.
    /// Paused, that frame is still shown once.
    @discardableResult
    public mutating func seek(_ target: SeekTarget) -> Int {
        let from = seekPending ? nextFrame : shownFrame ?? nextFrame
        var frame: Int
        switch target {
        case .frame(let n): frame = n
        // Any seconds, however far (a media player's Int64 microseconds, `seek +1e300`): out of
        // range is the nearest end, not a trap or a wrapped frame.
        case .seconds(let s): frame = Int(saturating: (s * frameRate).rounded(.down))
        case .relative(let s): frame = from.addingSaturated(Int(saturating: (s * frameRate).rounded()))
        }
        frame = min(max(0, frame), frameCount.map { max(0, $0 - 1) } ?? Self.farthest)
        nextFrame = frame
        stillWanted = !isPlaying
        seekPending = true
        return frame
    }

    /// The frame a seek goes to at most while the file's length is unknown: further than any file
    /// holds (the source stops at its last frame), with room to count on from it.
    static let farthest = Int(Int32.max)

    /// Seconds from the start to the frame shown.
    public var position: Double { Double(shownFrame ?? 0) / frameRate }

    /// The file's length in seconds, once known.
    public var length: Double? { frameCount.map { Double($0) / frameRate } }
}
