import CameraSource
import PipCore
import PipWindow

/// The picture's turn, mirror and shape, and the size it is shown at, carried to the windows and
/// the source.
extension PipcamApp {
    func applyPicture() {
        output.setPicture(
            mirror: picture.mirror(sourcePrefers: frames.status.prefersMirror), rotation: picture.rotation,
            framing: picture.framing)
        // The call sees the framed picture too, unless --share-full-frame.
        pump.share?.framing = CapturePolicy.sharedFraming(picture.framing, fullFrame: options.shareFullFrame)
    }

    /// The user zoomed or panned in a window that draws the picture in `content`: every window
    /// and the share show the new framing at once, the camera's memory keeps it, and once it has
    /// been still for a moment the camera is asked for the detail it needs.
    func frame(_ gesture: FramingGesture, in content: Rect) {
        let before = picture.framing
        picture.frame(gesture, in: content, sourcePrefersMirror: frames.status.prefersMirror)
        guard picture.framing != before else { return }
        applyPicture()
        frames.redraw()
        rememberFraming()
        // Not at every wheel step: a camera may reopen in another mode for a new display size.
        framingSettle.set(.now().advanced(byNanoseconds: 400_000_000))
    }

    /// Tells the source the display size the window showing video needs at this zoom.
    func noteFramedDisplaySize() {
        if pip.isShowingVideo { noteDisplaySize(pip.pipFrame) } else { noteMainDisplaySize() }
    }

    /// The PiP frame remembered from the last run, fitted to this source's shape: on its monitor,
    /// else on the source window's.
    func rememberedFrame(aspect: Double) -> Rect? {
        guard options.remembersGeometry, let path = options.geometryFile, let memory = GeometryMemory.load(from: path)
        else { return nil }
        let layout = ScreenLayout(display: loop.display)
        return memory.fitted(toAspect: aspect).rect(
            in: layout, otherwise: layout.homeArea(display: loop.display, near: sourceWindow))
    }

    /// A source whose picture changes shape (another camera mode, a camera plugged in) reshapes PiP.
    func followContentSize(width: Int, height: Int) {
        guard let turned = picture.reshape(width: width, height: height) else { return }
        // The same windows (with --follow-window, maybe a view inside the application's): only the shape changes.
        pip.contentSource = PipContentSource(
            sourceWindow: sourceWindow, preferredContentSize: (turned.width, turned.height),
            animationWindow: pip.contentSource?.animationWindow ?? main?.id)
    }

    /// Tells the source the size PiP or the main window shows the picture at (`rect`'s, unturned),
    /// so a camera can switch to a mode that suits it (`SourceControls.displaySize`), and a source
    /// switched to opens for it.
    func noteDisplaySize(_ rect: Rect) {
        let size = picture.sourceSize(of: rect)
        pump.mailbox.noteDisplaySize(width: size.width, height: size.height)
        switches.noteDisplaySize(width: size.width, height: size.height)
    }

    /// While the main window shows the video, tells the source the size it shows the picture at.
    func noteMainDisplaySize() {
        guard let main, main.wasShown, main.content == .video, !pip.isShowingVideo else { return }
        if let shown = main.pictureRect(contentSize: picture.contentSize) { noteDisplaySize(shown) }
    }
}
