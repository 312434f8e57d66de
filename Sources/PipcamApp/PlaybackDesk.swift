import PipCore
import CameraSource
import PipControl
import PipWindow

/// The display side of a file's playback (docs/BEHAVIOUR.md, "Playing a file"): what a command,
/// a key, a window's control or a media player asks becomes a `PlaybackRequest` for the capture
/// side, or the one line saying why not; PiP's player (`FilePlayer`), the main window's bar and
/// the MPRIS player (`MediaDesk`) follow what the source does; `status` says it.
final class PlaybackDesk {
    /// Seconds Left and Right (and the skip controls) move.
    static let skipSeconds = 10

    private let frames: FrameDesk
    private let mailbox: FrameMailbox
    private let pip: PipController
    private let main: () -> MainWindow?
    private let sourceName: () -> String
    /// PiP's player (PiP holds it weakly: held here).
    let player: FilePlayer
    let media: MediaDesk
    private let loop: any EventLoop
    /// `pipcam seek`s waiting for their frame, and their replies by seek number.
    private var seekWaits = SeekWaits()
    private var seekReplies: [Int: (PipReply) -> Void] = [:]
    private var seekTimer: Int?

    init(
        loop: any EventLoop, frames: FrameDesk, mailbox: FrameMailbox, pip: PipController, main: @escaping () -> MainWindow?,
        sourceName: @escaping () -> String, carryOut: @escaping (PipRequest) -> Void
    ) {
        self.frames = frames
        self.mailbox = mailbox
        self.pip = pip
        self.main = main
        self.sourceName = sourceName
        self.loop = loop
        player = FilePlayer(frames: frames, mailbox: mailbox, carryOut: carryOut)
        media = MediaDesk(loop: loop)
        pip.playbackDelegate = player
        media.state = { [unowned self] in mediaState }
        media.perform = carryOut
    }

    /// A frame was shown: the position moved, and the seeks it answers are answered.
    func framePresented() {
        showState()
        if let frame = frames.held?.mediaFrame, let rate = frames.status.playback?.frameRate { media.shown(position: Double(frame) / rate) }
        if let answered = frames.held?.seeksAnswered { answerSeeks(seekWaits.shown(answering: answered)) }
    }

    /// The source's status changed (playing, paused, its length known, a file or not).
    func statusChanged() {
        showState()
        media.follow()
        if frames.status.playback == nil { answerSeeks(seekWaits.dropAll()) }
    }

    /// `pipcam play|pause|seek`, a key, a window's control or a media player: `reply` is called
    /// at once, or for a seek once its frame shows.
    func carryOut(_ command: PlaybackAction, reply: @escaping (PipReply) -> Void) {
        let outcome = Self.carryOut(command, on: frames.status.playback, named: sourceName(), mailbox: mailbox)
        showState()
        guard command.isSeek, case .done = outcome else { return reply(outcome) }
        let number = mailbox.seeksAsked
        seekReplies[number] = reply
        seekWaits.asked(number: number, at: .now())
        scheduleSeekTimer()
    }

    private func answerSeeks(_ numbers: [Int]) {
        for number in numbers { seekReplies.removeValue(forKey: number)?(.done("")) }
        scheduleSeekTimer()
    }

    private func scheduleSeekTimer() {
        if let seekTimer { loop.cancelTimer(seekTimer) }
        seekTimer = seekWaits.nextDeadline.map { deadline in
            loop.schedule(at: deadline) { [weak self] in
                guard let self else { return }
                seekTimer = nil
                answerSeeks(seekWaits.expired(at: .now()))
            }
        }
    }

    /// What `status` reports: the frame shown and its time.
    var state: PlaybackState? {
        guard let playback = frames.status.playback else { return nil }
        let frame = frames.held?.mediaFrame ?? 0
        return PlaybackState(
            playing: playback.playing, position: Double(frame) / playback.frameRate, length: playback.length, frame: frame,
            seekable: playback.seekable, loops: playback.loops)
    }

    private func showState() {
        pip.playbackChanged()
        main()?.playback = barState
    }

    /// What the main window's bar shows: nil while no file shows.
    private var barState: PlaybackBar.State? {
        guard let range = player.timeRange else { return nil }
        let length = range.upperBound - range.lowerBound
        return PlaybackBar.State(isPlaying: player.isPlaying, progress: length > 0 ? (player.position - range.lowerBound) / length : nil)
    }

    /// What the MPRIS player says.
    private var mediaState: MediaState? {
        guard let state else { return nil }
        let (title, url) = MediaDesk.describe(source: frames.status.spec, named: sourceName())
        return MediaState(
            playing: state.playing, canSeek: state.seekable, loops: state.loops, position: state.position, length: state.length, title: title,
            url: url)
    }

    /// The playback request a plain key stands for: Space plays or pauses, Left and Right skip.
    static func command(forKey keysym: Keysym) -> PlaybackAction? {
        switch keysym {
        case .space: return .toggle
        case .left: return .seek(.relative(-Double(skipSeconds)))
        case .right: return .seek(.relative(Double(skipSeconds)))
        default: return nil
        }
    }

    /// Carries out `command` for the source `name`, whose playback is `status` (nil: no file).
    static func carryOut(_ command: PlaybackAction, on status: PlaybackStatus?, named name: String, mailbox: FrameMailbox) -> PipReply {
        guard let status else { return .failed("pipcam: '\(name)' is not a file: only a file plays, pauses and seeks") }
        switch command {
        case .play: mailbox.notePlayback { $0.playing = true }
        case .pause: mailbox.notePlayback { $0.playing = false }
        case .toggle: mailbox.notePlayback { $0.playing.toggle() }
        case .seek(let target):
            guard status.seekable else { return .failed("pipcam: '\(name)' cannot seek (a pipe or standard input); it can pause") }
            mailbox.notePlayback { $0.seek(target) }
        }
        return .done("")
    }
}
