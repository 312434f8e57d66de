import PipCore

/// The window PiP's animations run in on X: override-redirect, so no window manager frames,
/// places or animates it.
final class X11AnimationSurface: AnimationSurface {
    private unowned let system: X11WindowSystem
    private let window: WindowID
    private let presenter: Presenter
    var video: VideoSurface { presenter }
    private var token: Int?

    init(system: X11WindowSystem, rect: Rect, video options: VideoSurfaceOptions) throws {
        self.system = system
        let display = system.display
        window = display.createWindow(rect: rect, events: [.exposure], overrideRedirect: true)
        // Not PiP's title: a script or rule that finds PiP by its name must find it alone.
        display.setIdentity(window, role: "PictureInPictureAnimation", title: "pipcam animation")
        presenter = try system.makePresenter(window: window, video: options)
        token = system.loop.register(window) { [unowned self] event in
            if case .expose(_, 0) = event { presenter.redraw() }
        }
    }

    func show(at rect: Rect) {
        move(to: rect)
        system.display.map(window)
        system.display.raise(window)
    }

    func move(to rect: Rect) {
        system.display.moveResize(window, to: rect)
        presenter.resize(width: rect.width, height: rect.height)
    }

    func hide() { system.display.unmap(window) }

    func destroy() {
        if let token { system.loop.unregister(token) }
        token = nil
        presenter.close()
        system.display.destroy(window)
    }
}
