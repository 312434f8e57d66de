import CameraSource
import PipWindow
import PipCore

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
                allowSharedMemory: options.allowSharedMemory, jpegDecodeThreads: options.jpegDecodeThreads)
            main = window
            windowSystem.adopt(window.presenter)
            sourceWindow = options.embedInto.map { display.topLevel(of: $0) } ?? window.id
            installMainWindow(window)
            return PipContentSource(
                sourceWindow: sourceWindow, preferredContentSize: (rotated.width, rotated.height), animationWindow: window.id)
        }
    }

    /// The main window shows video through the one frame router.
    func attachMainWindow(_ main: MainWindow) {
        output.attach(
            main.presenter, as: .main,
            // Covered by other windows, a camera's picture is not drawn (docs/BEHAVIOUR.md, "When
            // nothing shows the camera"); a file's frames still are, every one.
            isShowing: { [unowned self] in main.isMapped && main.content == .video && !(main.isFullyObscured && frames.status.isLive) },
            redraw: { main.redraw() })
    }

    private func installMainWindow(_ window: MainWindow) {
        window.redrawVideo = { [unowned self] in frames.redraw() }
        window.install(on: loop, act: { [unowned self] intent in
            switch intent {
            case .startPip: pip.start()
            case .returnFromPip: pip.stop()
            case .togglePip: carryOut(.pip(.toggle))  // as the hotkey: a second press turns a PiP on its way up back
            case .close: loop.stop(exitCode: 0)
            case .key(let keysym): press(keysym)
            case .request(let request): carryOut(request)
            case .frame(let gesture):
                guard let main else { return }
                frame(gesture, in: Rect(
                    sourceWidth: picture.contentSize.width, sourceHeight: picture.contentSize.height, rotation: .deg0,
                    destinationWidth: main.size.width, destinationHeight: main.size.height))
            }
        }, resized: { [unowned self] in noteMainDisplaySize() })
    }

    /// What the app does when PiP asks for a frame, the user mirrors, rotates or moves it.
    func wirePip() {
        pip.delegate = self
        pip.onPossibleChanged = { [unowned self] possible in main?.buttonEnabled = possible }
        pip.onNeedsFrame = { [unowned self] in frames.redraw() }
        pip.onMirrorToggle = { [unowned self] in
            picture.toggleMirror(sourcePrefers: frames.status.prefersMirror)
            applyPicture()
            frames.redraw()
        }
        pip.onRotate = { [unowned self] in
            picture.rotate()
            applyPicture()
            if let frame = frames.held { followContentSize(width: frame.width, height: frame.height) }
            frames.redraw()
        }
        pip.onFraming = { [unowned self] gesture, content in frame(gesture, in: content) }
        pip.onKey = { [unowned self] keysym in press(keysym) }
        pip.onFrameChanged = { [unowned self] rect in noteDisplaySize(rect) }
        // As when the main window is destroyed: nothing is left to show PiP in.
        pip.onWindowDestroyed = { [unowned self] in loop.stop(exitCode: 0) }
        pip.onFrameSettled = { [unowned self] rect in
            // A run given --size or --corner sets the memory aside: it neither reads nor replaces it.
            guard options.remembersGeometry, let path = options.geometryFile else { return }
            GeometryMemory(rect: rect, in: ScreenLayout(display: loop.display)).save(to: path)
        }
    }
}

extension PipcamApp: PipControllerDelegate {
    public func pipControllerDidStart(_ controller: PipController) {
        // Also when hidden (minimized, on another desktop): shown again while PiP is up, it says
        // where the video went. Not for a window never shown (`--pip`): it would only take memory.
        if let main, main.wasShown { main.content = .placeholder }
        noteDisplaySize(controller.pipFrame)
    }

    public func pipController(_ controller: PipController, restoreUserInterfaceWithCompletion completion: @escaping () -> Void) {
        if let main {
            main.content = .video
            if !main.isMapped { main.show() }
        }
        completion()
    }

    public func pipControllerDidStop(_ controller: PipController) {
        main?.content = .video
        noteMainDisplaySize()
        // Closing a PiP that was never anything but PiP (`--pip`) ends pipcam, like closing its only window.
        if let main, !main.wasShown { loop.stop(exitCode: 0) }
    }
}
