import PipCore

/// One connection to a Wayland compositor, kept open, with what PiP's surfaces need bound
/// (`wl_compositor`, `wl_shm`, `zwlr_layer_shell_v1`, the first `wl_output`, and the first
/// `wl_seat` with its pointer, whose events reach the surface it is over, and its keyboard, whose
/// keys reach the surface with its focus).
///
/// Its owner's loop drives it, on one thread: `prepareToPoll()`, poll `fileDescriptor` (for
/// writing too when it said so), `finishPoll(readable:)`; or `dispatch(timeout:)`, which does the
/// three. What the compositor said reaches the surfaces made on it as they are dispatched.
///
/// ```swift
/// let wayland = try WaylandConnection(display: nil)      // $WAYLAND_DISPLAY
/// let pip = try WaylandOverlaySurface(on: wayland, rect: Rect(x: 304, y: 164, width: 320, height: 180))
/// ```
public final class WaylandConnection {
    let shim: ShimConnection
    /// The display's name as given (nil: `$WAYLAND_DISPLAY`).
    public let display: String?
    private var surfaces: [WeakSurface] = []
    private struct WeakSurface { weak var surface: WaylandOverlaySurface? }
    /// Whether pointer events are being handed out: one a surface's handler caused (a drag's
    /// move waits for the compositor) waits for the ones before it, so they arrive in order.
    private var deliveringPointer = false

    /// Connects to the compositor at `display` (as `WaylandGlobals.read` names it) and binds what
    /// surfaces need, waiting `timeout` at most for its answers. Throws `.unsupported` when the
    /// compositor lacks layer-shell (GNOME's): PiP takes another role or X11 there.
    public init(display: String?, timeout: Duration = .seconds(2)) throws(WaylandError) {
        self.display = display
        do {
            shim = try ShimConnection(display: display, milliseconds: LibWayland.milliseconds(timeout))
        } catch {
            throw WaylandError(error, display: display)
        }
    }

    deinit { close() }

    /// The descriptor its owner's loop polls.
    public var fileDescriptor: Int32 { shim.fileDescriptor }

    /// The first output's size in output (logical) coordinates, where surfaces are placed: its
    /// current mode over its integer scale, once the compositor said it.
    public var outputSize: (width: Int, height: Int)? { shim.outputSize }

    /// The first output's integer scale (`wl_output.scale`; 1 until it says).
    public var outputScale: Int { shim.outputScale }

    /// Whether the compositor offers `wp_viewporter` and `wp_fractional_scale_manager_v1`: then
    /// surfaces are drawn at the scale it prefers for each, 1.5 too; else at `outputScale`.
    public var offersFractionalScale: Bool { shim.hasFractionalScale }

    /// Surfaces made from now on are drawn at scale 1 whatever the output's, and the compositor
    /// scales them up (what pipcam did before it followed the scale; a test's comparison).
    public var ignoresScale = false {
        didSet { shim.ignoreScale(ignoresScale) }
    }

    /// What this compositor counts a held pointer's positions from: KWin (known by
    /// `org_kde_plasma_shell`) from the surface's current place, others as wlroots does.
    var heldPointer: WaylandPointerInput.HeldPointer { shim.isKWin ? .fromCurrentOrigin : .fromPressOrigin }

    /// Whether a pointer button is held on one of its surfaces.
    public var pointerButtonsDown: Bool { shim.pointerButtonsDown }

    /// Dispatches what is queued and sends what was asked; true when the socket was full and the
    /// poll should wait for writing too. `finishPoll(readable:)` follows, whatever the poll gave.
    public func prepareToPoll() throws(WaylandError) -> Bool {
        do { return try shim.prepare() } catch { throw fail(error) }
    }

    /// After the poll: reads what came when `readable`, and hands it to the surfaces.
    public func finishPoll(readable: Bool) throws(WaylandError) {
        do { try shim.read(readable: readable) } catch { throw fail(error) }
        deliver()
    }

    /// Waits `timeout` at most for the compositor, and hands what came to the surfaces.
    public func dispatch(timeout: Duration) throws(WaylandError) {
        do { try shim.pump(milliseconds: LibWayland.milliseconds(timeout)) } catch { throw fail(error) }
        deliver()
    }

    /// Waits until the compositor has handled everything asked so far (`timeout` at most).
    public func roundtrip(timeout: Duration = .seconds(2)) throws(WaylandError) {
        do { try shim.roundtrip(milliseconds: LibWayland.milliseconds(timeout)) } catch { throw fail(error) }
        deliver()
    }

    /// Destroys the surfaces still made on it, then disconnects.
    public func close() {
        for entry in surfaces { entry.surface?.destroy() }
        surfaces = []
        shim.close()
    }

    func adopt(_ surface: WaylandOverlaySurface) {
        surfaces.removeAll { $0.surface == nil }
        surfaces.append(WeakSurface(surface: surface))
    }

    /// Hands what was dispatched to the surfaces. Also after a surface's own round trip: what it
    /// dispatched for the others (a frame callback) would otherwise wait for the next read, and
    /// the loop could sleep on it.
    func deliver() {
        for entry in surfaces { entry.surface?.takeEvents() }
        guard !deliveringPointer else { return }
        deliveringPointer = true
        defer { deliveringPointer = false }
        // One at a time: a handler may dispatch (a move's round trip), which queues more.
        while let (key, event) = shim.nextPointerEvent() {
            guard key != 0, let surface = surfaces.lazy.compactMap(\.surface).first(where: { $0.pointerKey == key }) else { continue }
            surface.onPointer?(event)
        }
        while let (key, event) = shim.nextKeyEvent() {
            guard key != 0, let surface = surfaces.lazy.compactMap(\.surface).first(where: { $0.pointerKey == key }) else { continue }
            surface.onKey?(event)
        }
    }

    private func fail(_ failure: LibWayland.ShimFailure) -> WaylandError {
        WaylandError(failure, display: display)
    }
}
