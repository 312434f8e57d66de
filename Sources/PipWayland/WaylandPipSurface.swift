import PipCore
import PipWindow

/// The PiP window on Wayland: a layer-shell overlay surface (`WaylandOverlaySurface`) at a
/// rectangle in output coordinates, made when it shows and destroyed when it hides (a layer
/// surface has no unmapped state to go back to). pipcam places it itself, so every move is
/// answered at once with `.frameChanged`.
///
/// The pointer over it is reported as `.input` in output coordinates (`WaylandPointerInput`), and
/// it is dragged and resized by pipcam itself (`WaylandDrag`): the compositor cannot move a layer
/// surface, so each step of a drag is a `setRect`.
///
/// Keys reach it once the user clicked it (layer-shell's `on_demand`, asked at a press on it and
/// given up when the focus goes, on compositors whose layer-shell is version 4 or later), as
/// `.input(.key)` presses with X's modifier mask
/// (`WaylandKeyInput`).
///
/// Its style: the shape and opacity in its pictures' alpha (`WaylandStyleMask`), click-through an
/// empty input region.
final class WaylandPipSurface: PipSurface {
    private unowned let system: WaylandWindowSystem
    let id: WindowID
    private(set) var rect: Rect
    private(set) var aspect: Double
    /// Its shape and opacity in its pictures' alpha, click-through as an empty input region.
    var style = PipWindowStyle() {
        didSet {
            guard style != oldValue else { return }
            applyStyle()
            if surface != nil { onEvent(.needsFrame) }
        }
    }
    private let pictures: WaylandVideoSurface
    var video: VideoSurface { pictures }
    var isDragging: Bool { drag?.isDragging ?? false }
    var onEvent: (PipSurfaceEvent) -> Void = { _ in }
    private var surface: WaylandOverlaySurface?
    private lazy var pointer = WaylandPointerInput(held: system.connection.heldPointer)
    /// Whether the surface was let take the keyboard's focus when clicked.
    private var acceptsKeys = false
    /// The press held now, when it was the first button's.
    private var drag: WaylandDrag?

    init(system: WaylandWindowSystem, id: WindowID, rect: Rect, aspect: (Int, Int), video options: VideoSurfaceOptions) {
        self.system = system
        self.id = id
        self.rect = rect
        self.aspect = Double(aspect.0) / Double(max(1, aspect.1))
        pictures = WaylandVideoSurface(options: options)
        pictures.resize(width: rect.width, height: rect.height)
    }

    func show() {
        guard surface == nil else { return }
        do {
            let made = try WaylandOverlaySurface(on: system.connection, rect: rect, namespace: "pipcam")
            made.onClosed = { [unowned self] in
                hide()
                onEvent(.destroyed)
            }
            made.onPointer = { [unowned self] in pointed($0) }
            made.onScaleChanged = { [unowned self] in
                pictures.scaleChanged()
                onEvent(.needsFrame)
            }
            made.onKey = { [unowned self] in keyed($0) }
            surface = made
            pictures.attach(made)
            applyStyle()
        } catch {
            // Nothing shows, and nothing will: to PiP that is a window someone else destroyed.
            system.note(error)
            onEvent(.destroyed)
        }
    }

    func hide() {
        pictures.attach(nil)
        surface?.destroy()
        surface = nil
        acceptsKeys = false
        // A press on the surface gone is never released there.
        pointer = WaylandPointerInput(held: system.connection.heldPointer)
        drag = nil
    }

    func setRect(_ rect: Rect) {
        let old = self.rect
        if rect != old, let surface {
            do {
                try surface.setRect(rect)
            } catch {
                system.note(error)
            }
        }
        self.rect = rect
        let resized = rect.width != old.width || rect.height != old.height
        if resized {
            pictures.resize(width: rect.width, height: rect.height)
            if surface != nil { onEvent(.needsFrame) }
        }
        onEvent(.frameChanged(from: old, resized: resized, external: false))
    }

    private func applyStyle() {
        pictures.style = style
        do {
            try surface?.setAcceptsPointer(!style.clickThrough)
        } catch {
            system.note(error)
        }
    }

    func setAspect(_ ratio: (Int, Int)) { aspect = Double(ratio.0) / Double(max(1, ratio.1)) }

    /// The first button's press, motion and release: a move, or a resize from an edge or corner,
    /// once the pointer has travelled past the threshold; the release ends it (`.ownDragEnded`).
    func handlePointer(_ event: InputEvent) {
        switch event {
        case .press(let p) where p.button == 1:
            drag = WaylandDrag(x: p.x, y: p.y, rootX: p.rootX, rootY: p.rootY, rect: rect)
        case .motion(let p) where p.state & WaylandPointerInput.mask(1) == 0:
            // The release went elsewhere (the pointer left while the button was held).
            endDrag()
        case .motion(let p):
            follow(p)
        case .release(let p) where p.button == 1:
            // The release says where the pointer ended, whatever motion was left behind.
            follow(p)
            endDrag()
        default:
            break
        }
    }

    private func endDrag() {
        guard let ended = drag else { return }
        drag = nil
        if ended.isDragging { onEvent(.ownDragEnded(ended.kind)) }
    }

    private func follow(_ p: PointerEvent) {
        guard var moving = drag else { return }
        let next = moving.rect(pointerAt: p.rootX, p.rootY, aspect: aspect, minWidth: FloatingWindow.minimumWidth)
        // Noted before the move: the move dispatches, and what it dispatches may come here again.
        drag = moving
        if let next, next != rect { setRect(next) }
    }

    /// What the compositor said the pointer did over the surface, as the seat's input.
    private func pointed(_ event: WaylandPointerEvent) {
        // Only at a press, and only until the focus goes: wlroots compositors (sway 1.7, dwl)
        // give any keyboard-interactive layer surface the focus whenever they arrange their
        // layers, on_demand or not, which would take the keys from the window the user types in.
        if case .button(_, pressed: true) = event.kind, !acceptsKeys, let surface { acceptsKeys = surface.acceptKeys() }
        for input in pointer.translate(event, window: id, origin: (rect.x, rect.y)) { onEvent(.input(input)) }
    }

    /// A key the compositor sent it: presses as the seat's input; when the focus left (the user
    /// clicked elsewhere), the keyboard is let go until the next press on it.
    private func keyed(_ event: WaylandKeyEvent) {
        if event.kind == .left, acceptsKeys, let surface {
            surface.acceptKeys(false)
            acceptsKeys = false
        }
        if let input = WaylandKeyInput.translate(event) { onEvent(.input(input)) }
    }

    func destroy() {
        hide()
        pictures.close()
        onEvent = { _ in }
    }
}

/// The window PiP's grow and shrink animations run in on Wayland: another overlay surface, made
/// when it shows and destroyed when it hides.
final class WaylandAnimationSurface: AnimationSurface {
    private unowned let system: WaylandWindowSystem
    private let pictures: WaylandVideoSurface
    var video: VideoSurface { pictures }
    private var surface: WaylandOverlaySurface?

    init(system: WaylandWindowSystem, rect: Rect, video options: VideoSurfaceOptions) {
        self.system = system
        pictures = WaylandVideoSurface(options: options)
        pictures.resize(width: rect.width, height: rect.height)
    }

    func show(at rect: Rect) {
        guard surface == nil else { return move(to: rect) }
        pictures.resize(width: rect.width, height: rect.height)
        do {
            // Not PiP's namespace: a compositor rule that finds PiP by it must find it alone.
            let made = try WaylandOverlaySurface(on: system.connection, rect: rect, namespace: "pipcam-animation")
            made.onClosed = { [unowned self] in hide() }
            surface = made
            pictures.attach(made)
        } catch {
            system.note(error)
        }
    }

    func move(to rect: Rect) {
        pictures.resize(width: rect.width, height: rect.height)
        guard let surface, rect != surface.rect else { return }
        do {
            try surface.setRect(rect)
        } catch {
            system.note(error)
        }
    }

    func hide() {
        pictures.attach(nil)
        surface?.destroy()
        surface = nil
    }

    func destroy() {
        hide()
        pictures.close()
    }
}
