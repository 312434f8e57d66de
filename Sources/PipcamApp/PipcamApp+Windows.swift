import CameraSource
import PipWindow

/// The app's windows: the main window or the followed one, and what PiP's callbacks do.
extension PipcamApp {
    /// The window PiP grows out of: the followed window, else a new main window (embedded with
    /// `--wid`); the content source for it.
    func makeSourceWindow(size rotated: (width: Int, height: Int)) throws -> PipContentSource {
        let display = loop.display
        if let followed = options.followWindow {
            // An id from `xwininfo -tree` or `xdotool search` may name a window inside the
            // application's, or the window manager's frame around it: minimizing shows on the
            // application window, so that is what is watched, and PiP grows out of the one named.
            sourceWindow = display.applicationWindow(of: followed)
            let inside = sourceWindow != followed && display.topLevel(of: followed) == sourceWindow
            loop.register(sourceWindow) { [unowned self] event in
                if case .destroyed = event { followedWindowIsGone() }
            }
            return PipContentSource(
                sourceWindow: sourceWindow, preferredContentSize: (rotated.width, rotated.height),
                animationWindow: inside ? followed : nil)
        } else {
            let window = try MainWindow(
                display: display, sourceSize: (rotated.width, rotated.height),
                workArea: ScreenLayout(display: display).homeArea(display: display, near: nil), parent: options.embedInto,
                allowSharedMemory: allowShm, jpegDecodeThreads: options.jpegDecodeThreads)
            main = window
            sourceWindow = options.embedInto.map { display.topLevel(of: $0) } ?? window.id
            installMainWindow(window)
            return PipContentSource(
                sourceWindow: sourceWindow, preferredContentSize: (rotated.width, rotated.height), animationWindow: window.id)
        }
    }

    private func installMainWindow(_ window: MainWindow) {
        window.redrawVideo = { [unowned self] in redrawHeldFrame() }
        loop.register(window.id) { [unowned self] event in
            if case .destroyed = event {
                loop.stop(exitCode: 0)  // the embedder destroyed its window, and ours with it
                return
            }
            // An embedder ends XEmbed by handing its client to the root window (the spec's
            // "Embedding life cycle"): the session ends as when it destroys its window.
            if options.embedInto != nil, case .reparented(_, let parent) = event, parent == loop.display.root {
                loop.stop(exitCode: 0)
                return
            }
            let before = window.size
            let intent = window.handle(event)
            // Resized, not just moved: every move would wake the capture thread for nothing.
            if window.size != before { noteMainDisplaySize() }
            switch intent {
            case .startPip: pip.start()
            case .returnFromPip: pip.stop()
            case .togglePip: perform(.toggle)  // as the hotkey: a second press turns a PiP on its way up back
            case .close: loop.stop(exitCode: 0)
            case nil: break
            }
        }
        if let parent = options.embedInto {
            // Follow the embedder's size; never select button events on a window we do not own.
            _ = loop.display.watch(parent, [.structureNotify])
            loop.register(parent) { event in
                // Only the server's own ConfigureNotify: any client can send a synthetic one.
                if case .configure(_, let r, false) = event { window.fitParent(width: r.width, height: r.height) }
            }
        }
    }


    /// What the app does when PiP asks for a frame, the user mirrors, rotates or moves it.
    func wirePip() {
        pip.delegate = self
        pip.onPossibleChanged = { [unowned self] possible in
            main?.buttonEnabled = possible
            if possible && pipWanted {
                pipWanted = false
                pip.start()
            }
        }
        pip.onNeedsFrame = { [unowned self] in redrawHeldFrame() }
        output.onFrameShown = { [unowned self] in noteShown(captured: $0) }
        pip.onMirrorToggle = { [unowned self] in
            mirrorOverride = !(mirrorOverride ?? options.mirror ?? status.prefersMirror)
            applyPicture()
            redrawHeldFrame()
        }
        pip.onRotate = { [unowned self] in
            rotation = Rotation(degrees: (rotation.degrees + 90) % 360) ?? .deg0
            applyPicture()
            if let frame = held { followContentSize(of: frame) }
            redrawHeldFrame()
        }
        pip.onFrameChanged = { [unowned self] rect in noteDisplaySize(rect) }
        // As when the main window is destroyed: nothing is left to show PiP in.
        pip.onWindowDestroyed = { [unowned self] in loop.stop(exitCode: 0) }
        pip.onFrameSettled = { [unowned self] rect in
            // A run given --size or --corner sets the memory aside: it neither reads nor replaces it.
            guard options.remembersGeometry, let path = geometryFile() else { return }
            GeometryMemory(rect: rect, in: ScreenLayout(display: loop.display)).save(to: path)
        }
    }
}
