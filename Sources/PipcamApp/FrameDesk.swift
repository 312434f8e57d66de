import CameraSource
import PipCore
import PipWindow
import PipConvert

/// The display side of the frames: takes the newest one from the capture side when a window can
/// show it and puts it to that window (`VideoOutput`), keeps it for redraws, gives frames back
/// when the source needs them, and acts on the source's status (a notice instead of a frozen
/// picture). Counts what it shows (`FrameStats`).
final class FrameDesk {
    private let mailbox: FrameMailbox
    private let output: VideoOutput
    private let notices: NoticeAssets
    private let layout: PixelLayout
    var stats: FrameStats
    /// The newest frame, kept (its buffer not yet given back) so any window can be redrawn at a new
    /// size at once — the animation proxy on every step, the PiP window on hand-over.
    private(set) var held: VideoFrame?
    /// The source's last status as the display acted on it.
    private(set) var status: SourceStatus
    /// Frames to show before pipcam ends (`--frames`).
    private let frameLimit: Int?

    /// A frame is about to be shown (a picture of a new shape reshapes the windows first).
    var willShow: (VideoFrame) -> Void = { _ in }
    /// The frame numbered so was put to the window showing video.
    var didPresent: (UInt64) -> Void = { _ in }
    /// The source's status changed (mirroring follows the source's own preference).
    var statusChanged: () -> Void = {}
    /// A short line drawn at the top of the picture until a time (a camera control's new value).
    var readout: (mask: AlphaMask, until: MonotonicInstant)?
    /// `frameLimit` frames were shown.
    var limitReached: () -> Void = {}

    init(mailbox: FrameMailbox, output: VideoOutput, notices: NoticeAssets, layout: PixelLayout, status: SourceStatus, frameLimit: Int?, stats: FrameStats) {
        self.mailbox = mailbox
        self.output = output
        self.notices = notices
        self.layout = layout
        self.status = status
        self.frameLimit = frameLimit
        self.stats = stats
        output.onFrameShown = { [unowned self] in noteShown(captured: $0) }
    }

    /// Tells the windows what frames the source sends, when it knows.
    func announceFrames() { expect(status.frames) }

    /// Takes the newest frame when a window can show it, and shows it there.
    func presentWaitingFrame() {
        // No window shows video now (the main window not mapped yet, PiP about to start or the
        // main window about to come back): a file's frame waits for one, so every frame is shown.
        if output.isShowingVideo ? !output.canPresent : !status.isLive { return }
        guard let frame = mailbox.take() else { return }
        stats.noteTaken(sequence: frame.sequence)
        willShow(frame)
        if let old = held { mailbox.giveBack(old.bufferIndex) }
        held = frame
        guard output.isShowingVideo else { return }
        do {
            if case .completed(let captured?) = try output.present(frame) { noteShown(captured: captured) }
        } catch {
            stats.noteCorrupt()
        }
        didPresent(frame.sequence)
    }

    /// Draws the held frame (or the camera's notice) again; when the window's images are all with
    /// the server, its presenter owes the redraw, done after the next completion.
    func redraw() {
        guard output.isShowingVideo else { return }
        if let notice = notices.notice(for: status.camera, holder: status.holder) {
            let painter = NoticePainter(compositor: Compositor(layout: layout))
            output.present(drawing: { pixels, stride, w, h in
                painter.paint(icon: notice.icon, lines: notice.lines, into: pixels, stride: stride, width: w, height: h)
            })
        } else if let frame = held {
            _ = try? output.present(frame, counted: false)
        }
    }

    /// Acts on what the capture side reported: frames it needs back, interruptions, mirroring.
    func followSourceStatus() {
        if mailbox.takeReleaseRequest() { releaseFrames() }
        let now = mailbox.status
        guard now != status else { return }
        let wasInterrupted = notices.notice(for: status.camera) != nil
        if now.frames != status.frames { expect(now.frames) }
        status = now
        statusChanged()
        if notices.notice(for: now.camera) != nil {
            // Say what happened instead of leaving the last frame frozen on screen.
            releaseFrames()
            redraw()
        } else if wasInterrupted {
            redraw()
        }
    }

    /// Gives back every frame the display holds (the newest one, kept for redraws, included).
    func releaseFrames() {
        if let frame = held { mailbox.giveBack(frame.bufferIndex) }
        held = nil
        if let frame = mailbox.take() { mailbox.giveBack(frame.bufferIndex) }
    }

    /// Carries out on the capture side what `ViewingPolicy` decided.
    func follow(_ action: ViewingPolicy.Action) {
        switch action {
        case .framesUnseen(let unseen):
            mailbox.noteUnseen(unseen)
            // The frames given back meanwhile were not for showing: they are not drops.
            if !unseen { stats.restartSequence() }
        case .releaseCamera:
            // The camera's buffers must all be back before it can close.
            releaseFrames()
            mailbox.noteIdle(true)
        case .resumeCamera:
            mailbox.noteIdle(false)
        }
    }

    /// How the source ended, once every window is done with its frames.
    var ending: FrameMailbox.Ending? { output.isIdle ? mailbox.ending : nil }

    /// While the test pattern stands in for a camera, a line over it says so (drawn into PiP's and
    /// the main window's pictures).
    var banner: (UnsafeMutableRawPointer, Int, Int, Int) -> Void {
        let compositor = Compositor(layout: layout)
        let banner = notices.noCamera, clearance = notices.controlsClearance
        return { [unowned self] pixels, stride, w, h in
            if let readout, MonotonicInstant.now() < readout.until {
                let m = readout.mask
                compositor.dim(x: 0, y: 4, w: w, h: m.height + 8, amount: 0.6, into: pixels, stride: stride, width: w, height: h)
                compositor.draw(m, at: (w - m.width) / 2, y: 8, into: pixels, stride: stride, width: w, height: h)
            }
            guard status.camera == .waiting else { return }
            let y = h - banner.height - clearance  // above the PiP controls' bottom row
            compositor.dim(x: 0, y: y - 6, w: w, h: banner.height + 12, amount: 0.6, into: pixels, stride: stride, width: w, height: h)
            compositor.draw(banner, at: (w - banner.width) / 2, y: y, into: pixels, stride: stride, width: w, height: h)
        }
    }

    /// Tells the windows what frames come (a window already showing frames gets ready for them).
    private func expect(_ frames: ExpectedFrames?) {
        guard let frames else { return }
        output.expectedFrames = frames
    }

    private func noteShown(captured: MonotonicInstant) {
        let now = MonotonicInstant.now()
        stats.noteShown(latencyNanoseconds: now > captured ? now.nanoseconds - captured.nanoseconds : 0, at: now)
        if let frameLimit, stats.shown >= frameLimit { limitReached() }
    }
}
