import CameraSource
import PipConvert
import PipCore
import PipWindow

/// The picture's turn, mirror, shape and framing (`PictureSettings`), carried to every window and
/// the share; and the size the window showing video shows it at, told to the source, which may
/// open a camera mode that suits it (`SourceControls.displaySize`).
final class PictureDesk {
    private(set) var settings: PictureSettings
    private let output: VideoOutput
    private let pump: FramePump
    private let switches: SwitchDesk
    private let shareFullFrame: Bool
    private var settle: DeadlineWake?
    /// Whether the source would be shown mirrored by default (a camera's self view).
    var sourcePrefersMirror: () -> Bool = { false }
    /// Draws the frame shown again, with the new picture settings.
    var redraw: () -> Void = {}
    /// The user changed the framing (for the camera's memory).
    var framed: (Framing) -> Void = { _ in }
    /// The picture has a new shape, turned: PiP takes it.
    var reshaped: ((width: Int, height: Int)) -> Void = { _ in }
    /// Where the window showing video shows the picture (PiP's frame, or the part of the main
    /// window the picture fills); nil while neither shows it.
    var shownRect: () -> Rect? = { nil }

    init(settings: PictureSettings, output: VideoOutput, pump: FramePump, switches: SwitchDesk, shareFullFrame: Bool, loop: any EventLoop) {
        self.settings = settings
        self.output = output
        self.pump = pump
        self.switches = switches
        self.shareFullFrame = shareFullFrame
        settle = DeadlineWake(loop: loop) { [unowned self] in noteShownSize() }
    }

    var contentSize: (width: Int, height: Int) { settings.contentSize }
    var framing: Framing { settings.framing }

    /// Every window and the share show the picture as the settings say.
    func apply() {
        output.setPicture(mirror: settings.mirror(sourcePrefers: sourcePrefersMirror()), rotation: settings.rotation, framing: settings.framing)
        // The call sees the framed picture too, unless --share-full-frame.
        pump.share?.framing = CapturePolicy.sharedFraming(settings.framing, fullFrame: shareFullFrame)
    }

    /// The user zoomed or panned in a window that draws the picture in `content`: every window
    /// and the share show the new framing at once, the camera's memory keeps it, and once it has
    /// been still for a moment the camera is asked for the detail it needs.
    func frame(_ gesture: FramingGesture, in content: Rect) {
        let before = settings.framing
        settings.frame(gesture, in: content, sourcePrefersMirror: sourcePrefersMirror())
        guard settings.framing != before else { return }
        apply()
        redraw()
        framed(settings.framing)
        // Not at every wheel step: a camera may reopen in another mode for a new display size.
        settle?.set(.now().advanced(byNanoseconds: 400_000_000))
    }

    /// The framing remembered for the camera shown now.
    func setFraming(_ framing: Framing) {
        settings.framing = framing
        apply()
        noteShownSize()
    }

    func toggleMirror() {
        settings.toggleMirror(sourcePrefers: sourcePrefersMirror())
        apply()
        redraw()
    }

    /// A quarter turn; `held` is the size of the frame shown, whose turned shape PiP takes.
    func rotate(held: (width: Int, height: Int)?) {
        settings.rotate()
        apply()
        if let held { followContentSize(width: held.width, height: held.height) }
        redraw()
    }

    /// A source whose picture changes shape (another camera mode, a camera plugged in) reshapes PiP.
    func followContentSize(width: Int, height: Int) {
        if let turned = settings.reshape(width: width, height: height) { reshaped(turned) }
    }

    /// Tells the source the size `rect` shows the picture at (unturned), and a source switched to
    /// opens for it.
    func noteDisplaySize(_ rect: Rect) {
        let size = settings.sourceSize(of: rect)
        pump.mailbox.noteDisplaySize(width: size.width, height: size.height)
        switches.noteDisplaySize(width: size.width, height: size.height)
    }

    /// Tells the source the size the window showing video shows the picture at, if one does.
    func noteShownSize() {
        if let rect = shownRect() { noteDisplaySize(rect) }
    }
}
