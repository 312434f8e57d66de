import PipCore
import PipWindow

/// The window PiP grows out of and restores: pipcam's main window (embedded in another window
/// with `--wid`), or another application's window (`--follow-window`); what PiP's life cycle does
/// to it, and what `status` reports of it.
///
/// On Wayland there is no main window yet: PiP is all pipcam shows, growing out of nothing (it
/// shows at once), and stopping it ends pipcam as closing `--pip`'s only window does.
final class SourceWindowDesk {
    private let system: X11WindowSystem?
    /// The main window; none with `--follow-window`, nor on Wayland.
    private(set) var main: MainWindow?
    /// The main window's top-level, or the followed window; on Wayland a stand-in no window has.
    private(set) var window: WindowID = 0
    private var isFollowed = false

    /// The windows on X11 (`system`), or PiP alone (nil).
    init(system: X11WindowSystem?) { self.system = system }

    /// Finds the followed window, else makes the main window; the content source for PiP.
    /// `gone` is called when a followed window is destroyed.
    func make(options: SessionOptions, size: (width: Int, height: Int), gone: @escaping () -> Void) throws -> PipContentSource {
        guard let system else {
            window = Self.standIn
            return PipContentSource(sourceWindow: window, preferredContentSize: size)
        }
        let display = system.loop.display
        if let followed = options.followWindow {
            // An id from `xwininfo -tree` or `xdotool search` may name a window inside the
            // application's, or the window manager's frame around it: minimizing shows on the
            // application window, so that is what is watched, and PiP grows out of the one named.
            window = display.applicationWindow(of: followed)
            isFollowed = true
            let inside = window != followed && display.topLevel(of: followed) == window
            system.loop.register(window) { event in
                if case .destroyed = event { gone() }
            }
            return PipContentSource(sourceWindow: window, preferredContentSize: size, animationWindow: inside ? followed : nil)
        }
        let made = try MainWindow(
            display: display, sourceSize: (size.width, size.height),
            workArea: ScreenLayout(display: display).homeArea(display: display, near: nil), parent: options.embedInto,
            allowSharedMemory: options.allowSharedMemory, jpegDecodeThreads: options.jpegDecodeThreads)
        main = made
        system.adopt(made.presenter)
        window = options.embedInto.map { display.topLevel(of: $0) } ?? made.id
        return PipContentSource(sourceWindow: window, preferredContentSize: size, animationWindow: made.id)
    }

    /// What a failed start says, and its exit status: a window to embed into that went while the
    /// source started ends as a followed window that goes (0); one that cannot hold a view
    /// (InputOnly, another screen) is bad input (2); anything else fails (1).
    func startFailure(_ error: Error, embedInto parent: WindowID?) -> (line: String, status: Int32) {
        guard case .cannotEmbed? = error as? DisplayError, let display = system?.loop.display else { return ("pipcam: \(error)", 1) }
        if let parent, display.isMapped(parent) == nil { return (Self.goneLine(parent), 0) }
        return ("pipcam: \(error)", 2)
    }

    static func goneLine(_ w: WindowID) -> String { "pipcam: window 0x\(String(w.rawValue, radix: 16)) is gone" }

    /// A followed window destroyed while the source started: no DestroyNotify will come.
    var followedIsGone: Bool { isFollowed && system?.loop.display.isMapped(window) == nil }

    /// PiP is up: a main window shown before says where the video went (also when hidden: shown
    /// again while PiP is up). Not one never shown (`--pip`): it would only take memory.
    func pipDidStart() {
        if let main, main.wasShown { main.content = .placeholder }
    }

    /// PiP is stopping: the main window shows video again, mapped if it was not.
    func restore() {
        guard let main else { return }
        main.content = .video
        if !main.isMapped { main.show() }
    }

    /// PiP stopped; true when PiP was all there was (`--pip`, the main window never shown):
    /// closing it ends pipcam, like closing its only window.
    func pipDidStop() -> Bool {
        main?.content = .video
        return main.map { !$0.wasShown } ?? (system == nil)
    }

    /// Where the main window shows the picture of `contentSize`, while it shows video.
    func videoRect(contentSize: (width: Int, height: Int)) -> Rect? {
        guard let main, main.wasShown, main.content == .video else { return nil }
        return main.pictureRect(contentSize: contentSize)
    }

    /// The window PiP restores, for `status`: the main window (embedded or not), or the followed
    /// window; its frame, and whether it is viewable (not just mapped: an embedded view stays
    /// mapped in a minimized embedder).
    var statusFrame: (rect: Rect, visible: Bool) {
        let shown = main?.id ?? window
        let fallback = main.map { Rect(x: 0, y: 0, width: $0.size.width, height: $0.size.height) } ?? Rect(x: 0, y: 0, width: 0, height: 0)
        guard let display = system?.loop.display else { return (fallback, false) }
        let rect = (shown != 0 ? display.rootGeometry(of: shown) : nil) ?? fallback
        return (rect, shown != 0 && display.isViewable(shown) == true)
    }

    /// Destroys the main window (the followed one is its application's).
    func destroy() {
        guard let main, let system else { return }
        main.presenter.close()
        system.loop.display.destroy(main.id)
    }

    /// The source window's id where there is none (Wayland): not 0, which means no window.
    static let standIn: WindowID = 1
}
