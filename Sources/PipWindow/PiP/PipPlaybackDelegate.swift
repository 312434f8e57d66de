/// What the PiP window asks of a player whose content it shows — after AVKit's
/// `AVPictureInPictureSampleBufferPlaybackDelegate`. With a delegate whose `timeRange` is not
/// nil, the PiP window's hover controls gain skip back, play/pause and skip forward, and a
/// position bar; Space, Left and Right do the same. Called on the loop's thread.
public protocol PipPlaybackDelegate: AnyObject {
    /// Whether the content plays now (the play/pause control shows pause while it does).
    var isPlaying: Bool { get }
    /// Play or pause, as the user asked in the PiP window.
    func setPlaying(_ playing: Bool)
    /// Skip by `seconds` (negative: back), as the skip controls and Left/Right ask.
    func skip(by seconds: Double)
    /// The playable time in seconds, when known (its end may be unknown: `nil` upper bound is
    /// not expressible, so a player gives what it knows so far); nil: live content, no controls.
    var timeRange: ClosedRange<Double>? { get }
    /// Seconds into `timeRange` of what shows.
    var position: Double { get }
}

extension PipPlaybackDelegate {
    /// How far through its time range the content is, 0…1; nil without a range of some length.
    var progress: Double? {
        guard let range = timeRange, range.upperBound > range.lowerBound else { return nil }
        return min(1, max(0, (position - range.lowerBound) / (range.upperBound - range.lowerBound)))
    }
}
