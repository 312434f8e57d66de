import CameraSource
import PipWindow
import PipCore

/// The app's windows: the main window or the followed one, and what PiP's callbacks do.
extension PipcamApp {
    /// The main window shows video through the one frame router.
    func attachMainWindow(_ main: MainWindow) {
        output.attach(
            main.presenter, as: .main,
            // Covered by other windows, a camera's picture is not drawn (docs/BEHAVIOUR.md, "When
            // nothing shows the camera"); a file's frames still are, every one.
            isShowing: { [unowned self] in main.isMapped && main.content == .video && !(main.isFullyObscured && frames.status.isLive) },
            redraw: { main.redraw() })
    }

    func installMainWindow(_ window: MainWindow) {
        guard let x11 else { return }
        window.redrawVideo = { [unowned self] in frames.redraw() }
        window.install(on: x11.loop, act: { [unowned self] intent in
            switch intent {
            case .startPip: carryOut(.pip(.start))
            case .returnFromPip: carryOut(.pip(.stop))
            case .togglePip: carryOut(.pip(.toggle))  // as the hotkey: a second press turns a PiP on its way up back
            case .close: loop.stop(exitCode: 0)
            case .key(let keysym): press(keysym)
            case .request(let request): carryOut(request)
            case .frame(let gesture):
                guard let main else { return }
                picture.frame(gesture, in: Rect(
                    sourceWidth: picture.contentSize.width, sourceHeight: picture.contentSize.height, rotation: .deg0,
                    destinationWidth: main.size.width, destinationHeight: main.size.height))
            }
        }, resized: { [unowned self] in picture.noteShownSize() })
    }

    /// What the picture's desk needs of the program: the source's preference, redraws, the
    /// camera's memory, PiP's shape and where the picture shows.
    func wirePicture() {
        picture.sourcePrefersMirror = { [unowned self] in frames.status.prefersMirror }
        picture.redraw = { [unowned self] in frames.redraw() }
        picture.framed = { [unowned self] in cameras.remember(framing: $0) }
        picture.reshaped = { [unowned self] turned in
            // The same windows (with --follow-window, maybe a view inside the application's): only the shape changes.
            pip.contentSource = PipContentSource(
                sourceWindow: sourceWindow, preferredContentSize: (turned.width, turned.height),
                animationWindow: pip.contentSource?.animationWindow ?? main?.id)
        }
        picture.shownRect = { [unowned self] in pip.isShowingVideo ? pip.pipPixelFrame : windows.videoRect(contentSize: picture.contentSize) }
        picture.apply()
    }

    /// What the app does when PiP asks for a frame, the user mirrors, rotates or moves it.
    func wirePip() {
        pip.delegate = self
        pip.onPossibleChanged = { [unowned self] possible in main?.buttonEnabled = possible }
        pip.onNeedsFrame = { [unowned self] in frames.redraw() }
        pip.onMirrorToggle = { [unowned self] in picture.toggleMirror() }
        pip.onRotate = { [unowned self] in picture.rotate(held: frames.held.map { ($0.width, $0.height) }) }
        pip.onFraming = { [unowned self] gesture, content in picture.frame(gesture, in: content) }
        pip.onKey = { [unowned self] keysym in press(keysym) }
        pip.onFrameChanged = { [unowned self] rect in picture.noteDisplaySize(rect) }
        // As when the main window is destroyed: nothing is left to show PiP in.
        pip.onWindowDestroyed = { [unowned self] in loop.stop(exitCode: 0) }
        pip.onFrameSettled = { [unowned self] rect in PipPlaceMemory(options).save(rect, on: windowSystem.screen) }
    }
}

extension PipcamApp: PipControllerDelegate {
    public func pipControllerDidStart(_ controller: PipController) {
        windows.pipDidStart()
        picture.noteDisplaySize(controller.pipFrame)
    }

    public func pipController(_ controller: PipController, restoreUserInterfaceWithCompletion completion: @escaping () -> Void) {
        windows.restore()
        completion()
    }

    public func pipControllerDidStop(_ controller: PipController) {
        let ends = windows.pipDidStop()
        picture.noteShownSize()
        if ends { loop.stop(exitCode: 0) }
    }
}
