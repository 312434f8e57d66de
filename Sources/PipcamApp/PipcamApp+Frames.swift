#if canImport(Glibc)
import Glibc
#endif
import CameraSource
import PipCore
import PipWindow

/// Frames from the pump to the window showing video, and what the source's status changes.
extension PipcamApp {
    // MARK: frames

    /// Takes the newest frame when a window can show it, and shows it there.
    func presentWaitingFrame() {
        // No window shows video now (the main window not mapped yet, PiP about to start or the
        // main window about to come back): a file's frame waits for one, so every frame is shown.
        if output.isShowingVideo ? !output.canPresent : !status.isLive { return }
        guard let frame = takeWaitingFrame() else { return }
        guard output.isShowingVideo else { return }
        do {
            if case .completed(let captured?) = try output.present(frame) { noteShown(captured: captured) }
        } catch {
            stats.noteCorrupt()
        }
        switches.notePresented(sequence: frame.sequence)
    }

    /// The newest frame, held for redraws; a picture of a new shape reshapes the windows first.
    private func takeWaitingFrame() -> VideoFrame? {
        guard let frame = pump.mailbox.take() else { return nil }
        stats.noteTaken(sequence: frame.sequence)
        followContentSize(of: frame)
        if let old = held { pump.mailbox.giveBack(old.bufferIndex) }
        held = frame
        return frame
    }

    /// Draws the held frame (or the camera's notice) again; when the window's images are all with
    /// the server, its presenter owes the redraw, done after the next completion.
    func redrawHeldFrame() {
        guard output.isShowingVideo else { return }
        if let notice = notices.notice(for: status.camera) {
            drawNotice(notice)
        } else if let frame = held {
            _ = try? output.present(frame, counted: false)
        }
    }

    // MARK: the source's state

    /// Acts on what the capture side reported: frames it needs back, interruptions, mirroring.
    func followSourceStatus() {
        if pump.mailbox.takeReleaseRequest() { releaseFrames() }
        let now = pump.mailbox.status
        guard now != status else { return }
        let wasInterrupted = notices.notice(for: status.camera) != nil
        if now.frames != status.frames { expect(now.frames) }
        status = now
        applyPicture()
        if notices.notice(for: now.camera) != nil {
            // Say what happened instead of leaving the last frame frozen on screen.
            releaseFrames()
            redrawHeldFrame()
        } else if wasInterrupted {
            redrawHeldFrame()
        }
    }

    /// Tells the windows what frames come (a window already showing frames gets ready for them).
    func expect(_ frames: ExpectedFrames?) {
        guard let frames else { return }
        output.expectedFrames = frames
    }

    /// Gives back every frame the display holds (the newest one, kept for redraws, included).
    func releaseFrames() {
        if let frame = held { pump.mailbox.giveBack(frame.bufferIndex) }
        held = nil
        if let frame = pump.mailbox.take() { pump.mailbox.giveBack(frame.bufferIndex) }
    }

    func applyPicture() {
        let mirror = mirrorOverride ?? options.mirror ?? status.prefersMirror
        output.setPicture(mirror: mirror, rotation: rotation)
    }

    /// The PiP frame remembered from the last run, fitted to this source's shape: on its monitor,
    /// else on the source window's.
    func rememberedFrame(aspect: Double) -> Rect? {
        guard options.remembersGeometry, let path = geometryFile(), let memory = GeometryMemory.load(from: path)
        else { return nil }
        let layout = ScreenLayout(display: loop.display)
        return memory.fitted(toAspect: aspect).rect(
            in: layout, otherwise: layout.homeArea(display: loop.display, near: sourceWindow))
    }

    /// A source whose picture changes shape (another camera mode, a camera plugged in) reshapes PiP.
    func followContentSize(of frame: VideoFrame) {
        guard frame.width > 0, frame.height > 0 else { return }
        let rotated = rotation.rotatedSize(width: frame.width, height: frame.height)
        guard rotated.width != contentSize.width || rotated.height != contentSize.height else { return }
        contentSize = (rotated.width, rotated.height)
        // The same windows (with --follow-window, maybe a view inside the application's): only the shape changes.
        pip.contentSource = PipContentSource(
            sourceWindow: sourceWindow, preferredContentSize: (rotated.width, rotated.height),
            animationWindow: pip.contentSource?.animationWindow ?? main?.id)
    }

    /// While pipcam waits for a camera, a line over the test pattern says so.
    func installBanner() {
        let compositor = Compositor(layout: pip.pixelLayout)
        let banner = notices.noCamera
        let draw: (UnsafeMutableRawPointer, Int, Int, Int) -> Void = { [unowned self] pixels, stride, w, h in
            guard status.camera == .waiting else { return }
            let y = h - banner.height - notices.controlsClearance  // above the PiP controls' bottom row
            compositor.dim(x: 0, y: y - 6, w: w, h: banner.height + 12, amount: 0.6, into: pixels, stride: stride, width: w, height: h)
            compositor.draw(banner, at: (w - banner.width) / 2, y: y, into: pixels, stride: stride, width: w, height: h)
        }
        pip.overlay = draw
        main?.bannerOverlay = draw
    }

    private func drawNotice(_ notice: (icon: AlphaMask, text: AlphaMask)) {
        let painter = NoticePainter(compositor: Compositor(layout: pip.pixelLayout))
        let draw: (UnsafeMutableRawPointer, Int, Int, Int) -> Void = { pixels, stride, w, h in
            painter.paint(icon: notice.icon, lines: [notice.text], into: pixels, stride: stride, width: w, height: h)
        }
        output.present(drawing: draw)
    }

    /// Tells the source the size PiP or the main window shows the picture at (`rect`'s, unturned),
    /// so a camera can switch to a mode that suits it (`SourceControls.displaySize`).
    func noteDisplaySize(_ rect: Rect) {
        let size = rotation.rotatedSize(width: rect.width, height: rect.height)
        pump.mailbox.noteDisplaySize(width: size.width, height: size.height)
        switches.noteDisplaySize(width: size.width, height: size.height)
    }

    /// While the main window shows the video, tells the source the size it shows the picture at.
    func noteMainDisplaySize() {
        guard let main, main.wasShown, main.content == .video, !pip.isShowingVideo,
            contentSize.width > 0, contentSize.height > 0
        else { return }
        let (w, h) = (Double(contentSize.width), Double(contentSize.height))
        let fit = min(Double(main.size.width) / w, Double(main.size.height) / h)
        noteDisplaySize(Rect(x: 0, y: 0, width: max(1, Int(w * fit)), height: max(1, Int(h * fit))))
    }

    func noteShown(captured: MonotonicInstant) {
        let now = MonotonicInstant.now()
        stats.noteShown(latencyNanoseconds: now > captured ? now.nanoseconds - captured.nanoseconds : 0, at: now)
        if let limit = options.frameLimit, stats.shown >= limit { loop.stop(exitCode: 0) }
    }

    func checkEnding() {
        guard loop.exitCode == nil, output.isIdle, let ending = pump.mailbox.ending else { return }
        switch ending {
        case .endOfStream:
            loop.stop(exitCode: 0)
        case .failed(let error):
            writeErrorLine("pipcam: \(error)")
            loop.stop(exitCode: error.exitCode)
        }
    }

}
