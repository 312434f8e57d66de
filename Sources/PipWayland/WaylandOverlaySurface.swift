import PipConvert
import PipCore
import PipWindow

/// PiP's surface where the compositor offers wlr-layer-shell (sway and other wlroots compositors,
/// KWin): a layer surface on the overlay layer, above fullscreen windows, taking the keyboard's
/// focus only when asked (`acceptKeys()`), at a rectangle in output coordinates (said to the compositor as a corner and margins,
/// `WaylandOverlayPlace`). Pictures are drawn into one of two shared-memory buffers and shown at
/// the compositor's next frame; `onPutCompleted` says when it asks for the next one. The buffers
/// are its logical size at its `scale` (the output's, or the one the compositor prefers for it),
/// so pictures are sharp on a scaled output; its place stays in output coordinates.
///
/// What draws in it has the shape of `VideoSurface`'s drawing: `present(drawing:)` hands out
/// pixels, stride, width and height in `pixelLayout`.
public final class WaylandOverlaySurface {
    /// The connection it was made on; its loop delivers this surface's events.
    public let connection: WaylandConnection
    private let shim: ShimOverlay
    /// Where it was asked to be, in output coordinates.
    public private(set) var rect: Rect
    /// How that was said to the compositor.
    public private(set) var place: WaylandOverlayPlace
    /// Its pixels: 0x00RRGGBB words (wl_shm's XRGB8888).
    public let pixelLayout = PixelLayout.xrgb
    /// Called when the compositor asks for the next picture after a put (nil: no frame's
    /// capture time is known here).
    public var onPutCompleted: ((MonotonicInstant?) -> Void)?
    /// Called when the scale its pictures are drawn at changed: the next one is drawn at it.
    public var onScaleChanged: (() -> Void)?
    /// Called once when the compositor took it away (its output went); it shows nothing after.
    public var onClosed: (() -> Void)?
    /// Called with what the pointer did over it, in the compositor's terms (surface-local).
    var onPointer: ((WaylandPointerEvent) -> Void)?
    /// Called with the keys pressed and released while it has the keyboard's focus.
    var onKey: ((WaylandKeyEvent) -> Void)?
    /// Whether the compositor took it away.
    public private(set) var isClosed = false
    /// A picture could not be put: its owner draws it again after the next completion.
    public private(set) var owesRedraw = false

    /// Makes it at `rect` (output coordinates) on `connection`'s first output and waits (`timeout`
    /// at most) for the compositor to configure it; it shows nothing before the first picture.
    /// `namespace` is what the compositor's rules know it by.
    public init(on connection: WaylandConnection, rect: Rect, namespace: String = "pipcam",
                timeout: Duration = .seconds(2)) throws(WaylandError) {
        self.connection = connection
        self.rect = rect
        place = WaylandOverlayPlace(rect: rect, output: connection.outputSize)
        do {
            shim = try ShimOverlay(on: connection.shim, place: place, namespace: namespace, milliseconds: LibWayland.milliseconds(timeout))
        } catch {
            throw WaylandError(error, display: connection.display)
        }
        connection.adopt(self)
        connection.deliver()
    }

    deinit { shim.destroy() }

    /// The size the compositor configured, in output coordinates.
    public var size: (width: Int, height: Int) { shim.size }

    /// The scale pictures are drawn at now.
    public var scale: WaylandScale { shim.scale }

    /// The size pictures are drawn at now: `size` at `scale`.
    public var pixelSize: (width: Int, height: Int) { shim.pixelSize }

    /// Whether a picture can be put now: the last one was shown and a buffer is free.
    public var canPresent: Bool { !isClosed && !shim.isDestroyed && !shim.framePending }

    /// Whether every put has been shown.
    public var isIdle: Bool { !shim.framePending }

    /// Draws a picture with `body` (pixels, stride, width, height) and puts it. `.busy` while the
    /// last one waits for the compositor's frame, or both buffers are with it; then `owesRedraw`.
    /// When `body` throws, nothing is put and the buffer stays free.
    public func present(drawing body: (UnsafeMutableRawPointer, Int, Int, Int) throws -> Void) rethrows -> PresentOutcome {
        guard canPresent, let buffer = try? shim.begin() else {
            owesRedraw = !isClosed && !shim.isDestroyed
            return .busy
        }
        try body(buffer.0, buffer.1, buffer.2, buffer.3)
        do {
            try shim.commit()
        } catch {
            owesRedraw = true
            return .busy
        }
        owesRedraw = false
        return .pending
    }

    /// Whether its pictures are drawn with alpha (ARGB8888, premultiplied) from the next one on;
    /// else XRGB8888, cheaper for the compositor.
    public var drawsAlpha = false {
        didSet { shim.setAlpha(drawsAlpha) }
    }

    /// Whether the pointer reaches it (the default), or passes through to what is below.
    public private(set) var acceptsPointer = true

    /// Lets the pointer reach it, or pass through (an empty input region); said at once.
    public func setAcceptsPointer(_ accepts: Bool) throws(WaylandError) {
        guard accepts != acceptsPointer else { return }
        do {
            try shim.setInput(accepts: accepts)
        } catch {
            throw WaylandError(error, display: connection.display)
        }
        acceptsPointer = accepts
    }

    /// Moves and resizes it to `rect` (output coordinates); waits (`timeout` at most) until the
    /// compositor has taken it. Pictures after it are drawn at the new size.
    public func setRect(_ rect: Rect, timeout: Duration = .seconds(2)) throws(WaylandError) {
        let place = WaylandOverlayPlace(rect: rect, output: connection.outputSize)
        do {
            try shim.setPlace(place, milliseconds: LibWayland.milliseconds(timeout))
        } catch {
            throw WaylandError(error, display: connection.display)
        }
        self.rect = rect
        self.place = place
        connection.deliver()
    }

    /// Destroys it; the compositor takes it off the screen at the next dispatch or round trip. No
    /// callback follows.
    public func destroy() {
        shim.destroy()
        onPutCompleted = nil
        onClosed = nil
        onPointer = nil
        onScaleChanged = nil
        onKey = nil
    }

    /// Lets the compositor give it the keyboard's focus (`accept`: layer-shell's `on_demand`) or
    /// not (`none`, as it is made): never `exclusive`, which would take every key from the user's
    /// windows. False where that cannot be: the compositor's layer-shell is older than version 4
    /// (KWin 5.27 offers 3), or libxkbcommon is missing.
    @discardableResult
    public func acceptKeys(_ accept: Bool = true) -> Bool { shim.acceptKeys(accept) }

    /// Whether it has the keyboard's focus.
    public var hasKeyboardFocus: Bool { connection.shim.hasKeyboardFocus(pointerKey) }

    /// What the connection's pointer events name it by.
    var pointerKey: UInt { shim.pointerKey }

    /// What the compositor said since the last dispatch, carried out.
    func takeEvents() {
        let events = shim.takeEvents()
        if events.contains(.closed) && !isClosed {
            isClosed = true
            onClosed?()
        }
        if events.contains(.scaled) && !isClosed { onScaleChanged?() }
        if events.contains(.frameDone) || (owesRedraw && events.contains(.released)) {
            onPutCompleted?(nil)
        }
    }
}
