/// pipcam's main window (role `main`): a normal, decorated, resizable window with the camera at full
/// size and a PiP button; while PiP is up and this window is visible, a placeholder that says so and
/// brings the camera back when clicked.
final class MainWindow {
    enum Content { case video, placeholder }
    /// What a click asked for.
    enum Intent { case startPip, returnFromPip, close }

    let id: WindowID
    let presenter: Presenter
    private let display: XDisplay
    private(set) var size: (width: Int, height: Int)
    private(set) var isMapped = false
    /// Whether `show()` was ever called (the window may not be mapped yet).
    private(set) var wasShown = false
    var content: Content = .video { didSet { if content != oldValue { redraw() } } }
    var buttonEnabled = false { didSet { if buttonEnabled != oldValue { redraw() } } }
    /// Drawn over the video before the PiP button (a status banner); set by the owner.
    var bannerOverlay: ((UnsafeMutableRawPointer, Int, Int, Int) -> Void)?
    /// Draws the current frame again (video content); set by the owner.
    var redrawVideo: () -> Void = {}
    private let icons: (start: AlphaMask, stop: AlphaMask, title: AlphaMask, action: AlphaMask)
    private let compositor: Compositor

    init(display: XDisplay, sourceSize: (Int, Int), workArea: Rect, allowSharedMemory: Bool) throws {
        self.display = display
        let fit = min(1, min(Double(workArea.width) * 0.7 / Double(sourceSize.0), Double(workArea.height) * 0.7 / Double(sourceSize.1)))
        size = (max(240, Int(Double(sourceSize.0) * fit)), max(135, Int(Double(sourceSize.1) * fit)))
        let rect = Rect(
            x: workArea.x + (workArea.width - size.width) / 2, y: workArea.y + (workArea.height - size.height) / 2,
            width: size.width, height: size.height)
        id = display.createWindow(
            rect: rect, events: [.exposure, .structureNotify, .buttonPress, .buttonRelease, .keyPress, .propertyChange])
        display.setIdentity(id, role: "main", title: "pipcam")
        display.setSizeHints(id, position: rect, minimum: (160, 90), aspect: nil)
        display.setWMHints(id, acceptsFocus: true)
        display.setProtocols(id, [.WM_DELETE_WINDOW])
        presenter = try Presenter(display: display, window: id, allowShm: allowSharedMemory)
        presenter.resize(width: size.width, height: size.height)
        compositor = Compositor(layout: presenter.pixelLayout)
        icons = (
            AlphaMask.asset("pip-start")!, AlphaMask.asset("pip-stop", doubleSize: true)!,
            AlphaMask.asset("placeholder-title")!, AlphaMask.asset("placeholder-action")!
        )
        presenter.overlay = { [unowned self] pixels, stride, w, h in
            bannerOverlay?(pixels, stride, w, h)
            drawButton(pixels, stride, w, h)
        }
    }

    func show() {
        wasShown = true
        display.map(id)
    }

    /// The PiP button's rectangle in window coordinates.
    var buttonRect: Rect { Rect(x: size.width - 12 - 36, y: size.height - 12 - 36, width: 36, height: 36) }

    /// Handles an event about the window; returns what the user asked for, if anything.
    func handle(_ event: WindowEvent) -> Intent? {
        switch event {
        case .configure(_, let r, _) where r.width != size.width || r.height != size.height:
            size = (r.width, r.height)
            presenter.resize(width: r.width, height: r.height)
            redraw()
        case .expose(_, 0):
            redraw()
        case .mapped:
            isMapped = true
        case .unmapped:
            isMapped = false
        case .buttonPress(let p) where p.button == 1:
            if content == .placeholder { return .returnFromPip }
            if buttonEnabled && buttonRect.contains(x: p.x, y: p.y) { return .startPip }
        case .clientMessage(_, let type, let data)
            where type == display[.WM_PROTOCOLS] && UInt(bitPattern: data.0) == display[.WM_DELETE_WINDOW]:
            return .close
        default:
            break
        }
        return nil
    }

    /// Shows the current content again.
    func redraw() {
        switch content {
        case .video: redrawVideo()
        case .placeholder: presenter.present { [self] pixels, stride, w, h in drawPlaceholder(pixels, stride, w, h) }
        }
    }

    private func drawButton(_ pixels: UnsafeMutableRawPointer, _ stride: Int, _ w: Int, _ h: Int) {
        guard content == .video else { return }
        let b = buttonRect
        compositor.dim(x: b.x, y: b.y, w: b.width, h: b.height, amount: 0.55, into: pixels, stride: stride, width: w, height: h)
        compositor.draw(
            icons.start, at: b.x + 6, y: b.y + 6, opacity: buttonEnabled ? 1 : 0.35, into: pixels, stride: stride,
            width: w, height: h)
    }

    private func drawPlaceholder(_ pixels: UnsafeMutableRawPointer, _ stride: Int, _ w: Int, _ h: Int) {
        NoticePainter(compositor: compositor).paint(
            icon: icons.stop, lines: [icons.title, icons.action], into: pixels, stride: stride, width: w, height: h)
    }
}
