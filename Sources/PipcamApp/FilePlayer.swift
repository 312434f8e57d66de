import CameraSource
import PipControl
import PipWindow

/// The file pipcam shows, as PiP's player (`PipPlaybackDelegate`): PiP's play/pause and skip
/// controls and keys act on it through the capture side's playback request. Live sources have no
/// time range, so PiP shows no playback controls for them. What they ask goes through the program's
/// one table of requests, as a key's would.
final class FilePlayer: PipPlaybackDelegate {
    private let frames: FrameDesk
    private let mailbox: FrameMailbox
    private let carryOut: (PipRequest) -> Void

    init(frames: FrameDesk, mailbox: FrameMailbox, carryOut: @escaping (PipRequest) -> Void) {
        self.frames = frames
        self.mailbox = mailbox
        self.carryOut = carryOut
    }

    /// As asked: the source follows a moment later.
    var isPlaying: Bool { mailbox.playbackRequest.playing }

    func setPlaying(_ playing: Bool) { carryOut(.playback(playing ? .play : .pause)) }

    func skip(by seconds: Double) {
        guard frames.status.playback?.seekable == true else { return }
        carryOut(.playback(.seek(.relative(seconds))))
    }

    /// The file's length once known (0 before: controls without a position bar).
    var timeRange: ClosedRange<Double>? { frames.status.playback.map { 0...($0.length ?? 0) } }

    var position: Double {
        guard let playback = frames.status.playback else { return 0 }
        return Double(frames.held?.mediaFrame ?? 0) / playback.frameRate
    }
}
