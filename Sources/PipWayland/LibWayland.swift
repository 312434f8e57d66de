import CWayland
import PipCore

/// The one Swift file that calls the `CWayland` shim: its calls with Swift's types, its return
/// codes as `ShimFailure`s. Everything else in this module goes through here.
enum LibWayland {
    /// What the shim's negative return codes name.
    enum Code: Sendable, Equatable {
        case libraryMissing, libraryTooOld, noCompositor, connectionBroken, outOfMemory, invalid, noAnswer, unsupported
        case other(Int)

        init(_ rc: Int32) {
            switch Int(rc) {
            case WLSHIM_ERR_NOLIB: self = .libraryMissing
            case WLSHIM_ERR_SYMBOL: self = .libraryTooOld
            case WLSHIM_ERR_CONNECT: self = .noCompositor
            case WLSHIM_ERR_CONNECTION: self = .connectionBroken
            case WLSHIM_ERR_NOMEM: self = .outOfMemory
            case WLSHIM_ERR_INVALID: self = .invalid
            case WLSHIM_ERR_TIMEOUT: self = .noAnswer
            case WLSHIM_ERR_UNSUPPORTED: self = .unsupported
            default: self = .other(Int(rc))
            }
        }
    }

    /// A failed call: its code, and the cause in a few words (without the display's name).
    struct ShimFailure: Error, Sendable, Equatable {
        let code: Code
        let detail: String
    }

    /// `duration` in whole milliseconds, clamped to what the shim takes.
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return seconds >= Int64(Int32.max) / 1000
            ? Int32.max : Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    /// Runs `call` with room for the shim's error text; throws unless it returned `WLSHIM_OK`.
    fileprivate static func check(_ call: (UnsafeMutablePointer<CChar>, Int32) -> Int32) throws(ShimFailure) {
        // On the stack: the poll loop reads through here at every wake, and allocates nothing per frame.
        let failure: ShimFailure? = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { message in
            message.initialize(repeating: 0)
            let rc = call(message.baseAddress!, Int32(message.count))
            guard Int(rc) != WLSHIM_OK else { return nil }
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return ShimFailure(code: Code(rc), detail: detail.isEmpty ? "error \(rc)" : detail)
        }
        if let failure { throw failure }
    }

    /// The pixels a `logical` length takes at `scale`: the shim's one rule (rounded half away from
    /// zero, as fractional-scale-v1 asks).
    static func scaledExtent(_ logical: Int, scale: WaylandScale) -> Int {
        Int(wlshim_scaled_extent(Int32(clamping: logical), scale.oneHundredTwentieths))
    }

    /// What a scale of 1 is in the shim's terms (120ths).
    static let scaleOne = UInt32(WLSHIM_SCALE_ONE)

    /// X's modifier mask of xkb's `effective` modifiers, `indices[i]` the keymap's index of X's
    /// modifier bit i (Shift, Lock, Control, Mod1…Mod5; 32 or more where the keymap has none).
    static func xModifierMask(effective: UInt32, indices: [UInt32]) -> UInt32 {
        precondition(indices.count == Int(WLSHIM_X_MODIFIERS))
        return wlshim_x_modifier_mask(effective, indices)
    }

    /// The xkb keycode of a `wl_keyboard` (evdev) key code.
    static func xkbKeycode(evdev: UInt32) -> UInt32 { wlshim_xkb_keycode(evdev) }

    /// Whether libxkbcommon could be loaded: without it no key reaches PiP.
    static var keysUsable: Bool { wlshim_keyboard_usable() != 0 }

    /// The globals announced at `display`, in one round trip on a connection of their own.
    static func readGlobals(display: String?, milliseconds: Int32) throws(ShimFailure) -> [(interface: String, version: UInt32)] {
        var capacity = 128
        while true {
            var entries = [wlshim_global](repeating: wlshim_global(), count: capacity)
            var total: Int32 = 0
            try check { wlshim_read_globals(display, milliseconds, &entries, Int32(capacity), &total, $0, $1) }
            // More than fit: once more with room for all (a compositor with many outputs or seats).
            guard Int(total) <= capacity else {
                capacity = Int(total) + 16
                continue
            }
            return entries.prefix(Int(total)).map { entry in
                var name = entry.interface
                let interface = withUnsafeBytes(of: &name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                return (interface, entry.version)
            }
        }
    }
}

/// A connection the shim keeps open (`wlshim_connection`); closed by `close()` or at deinit.
final class ShimConnection {
    private var handle: OpaquePointer?
    /// Destroyed before the connection closes: the shim frees a surface through its connection.
    fileprivate var overlays: [WeakOverlay] = []
    fileprivate struct WeakOverlay { weak var overlay: ShimOverlay? }

    init(display: String?, milliseconds: Int32) throws(LibWayland.ShimFailure) {
        var made: OpaquePointer?
        try LibWayland.check { wlshim_connection_open(display, milliseconds, &made, $0, $1) }
        handle = made
    }

    deinit { close() }

    fileprivate var live: OpaquePointer {
        guard let handle else { preconditionFailure("the Wayland connection was used after it was closed") }
        return handle
    }

    var fileDescriptor: Int32 { wlshim_connection_fd(live) }

    var outputSize: (width: Int, height: Int)? {
        var width: Int32 = 0, height: Int32 = 0
        wlshim_connection_output_size(live, &width, &height)
        return width > 0 && height > 0 ? (Int(width), Int(height)) : nil
    }

    /// The first output's integer scale (1 until it says).
    var outputScale: Int { handle.map { Int(wlshim_connection_output_scale($0)) } ?? 1 }

    /// Whether surfaces get the compositor's preferred, possibly fractional, scale.
    var hasFractionalScale: Bool { handle.map { wlshim_connection_has_fractional_scale($0) != 0 } ?? false }

    /// Surfaces made from now on drawn at scale 1 (`ignore`), or at the output's.
    func ignoreScale(_ ignore: Bool) { wlshim_connection_ignore_scale(live, ignore ? 1 : 0) }

    /// Whether to poll for writing too.
    func prepare() throws(LibWayland.ShimFailure) -> Bool {
        let rc = wlshim_connection_prepare(live)
        guard rc >= 0 else { throw LibWayland.ShimFailure(code: LibWayland.Code(rc), detail: "the connection broke") }
        return rc == 1
    }

    func read(readable: Bool) throws(LibWayland.ShimFailure) {
        let connection = live
        try LibWayland.check { wlshim_connection_read(connection, readable ? 1 : 0, $0, $1) }
    }

    func pump(milliseconds: Int32) throws(LibWayland.ShimFailure) {
        let connection = live
        try LibWayland.check { wlshim_connection_pump(connection, milliseconds, $0, $1) }
    }

    func roundtrip(milliseconds: Int32) throws(LibWayland.ShimFailure) {
        let connection = live
        try LibWayland.check { wlshim_connection_roundtrip(connection, milliseconds, $0, $1) }
    }

    /// The oldest pointer event not taken yet, with the key of the surface it is over.
    func nextPointerEvent() -> (surface: UInt, event: WaylandPointerEvent)? {
        var e = wlshim_pointer_event()
        guard let handle, wlshim_connection_next_pointer_event(handle, &e) == 1 else { return nil }
        let kind: WaylandPointerEvent.Kind
        switch Int(e.kind) {
        case WLSHIM_POINTER_ENTER: kind = .entered
        case WLSHIM_POINTER_LEAVE: kind = .left
        case WLSHIM_POINTER_MOTION: kind = .motion
        case WLSHIM_POINTER_BUTTON: kind = .button(code: e.button, pressed: e.pressed != 0)
        case WLSHIM_POINTER_AXIS: kind = .axis(vertical: e.axis == 0, value: e.value, discrete: e.discrete)
        default: return nil
        }
        return (UInt(e.surface), WaylandPointerEvent(kind: kind, time: e.time, x: e.x, y: e.y))
    }

    /// The oldest key event not taken yet, with the key of the surface that had the focus.
    func nextKeyEvent() -> (surface: UInt, event: WaylandKeyEvent)? {
        var e = wlshim_key_event()
        guard let handle, wlshim_connection_next_key_event(handle, &e) == 1 else { return nil }
        let kind: WaylandKeyEvent.Kind
        switch Int(e.kind) {
        case WLSHIM_KEY_PRESSED: kind = .pressed
        case WLSHIM_KEY_RELEASED: kind = .released
        case WLSHIM_KEY_LEFT: kind = .left
        default: return nil
        }
        return (UInt(e.surface), WaylandKeyEvent(kind: kind, keysym: e.keysym, modifiers: e.modifiers, time: e.time))
    }

    /// Whether the surface its events name by `key` has the keyboard's focus.
    func hasKeyboardFocus(_ key: UInt) -> Bool {
        handle.map { wlshim_connection_keyboard_focus($0, UInt(key)) != 0 } ?? false
    }

    /// Whether the compositor is KWin (it announced `org_kde_plasma_shell`).
    var isKWin: Bool { handle.map { wlshim_connection_is_kwin($0) != 0 } ?? false }

    /// Whether a pointer button is held on one of the connection's surfaces.
    var pointerButtonsDown: Bool { handle.map { wlshim_connection_buttons_down($0) > 0 } ?? false }

    /// The serial of the last button press on one of its surfaces.
    var pressSerial: UInt32 { handle.map { wlshim_connection_press_serial($0) } ?? 0 }

    func close() {
        for entry in overlays { entry.overlay?.destroy() }
        overlays = []
        if let handle { wlshim_connection_close(handle) }
        handle = nil
    }
}

/// What happened to an overlay surface since it was last asked.
struct ShimSurfaceEvents: OptionSet, Sendable {
    let rawValue: UInt32
    static let frameDone = ShimSurfaceEvents(rawValue: UInt32(WLSHIM_EVENT_FRAME_DONE))
    static let configured = ShimSurfaceEvents(rawValue: UInt32(WLSHIM_EVENT_CONFIGURED))
    static let closed = ShimSurfaceEvents(rawValue: UInt32(WLSHIM_EVENT_CLOSED))
    static let released = ShimSurfaceEvents(rawValue: UInt32(WLSHIM_EVENT_RELEASED))
    static let scaled = ShimSurfaceEvents(rawValue: UInt32(WLSHIM_EVENT_SCALED))
}

/// A layer-shell overlay surface the shim made (`wlshim_overlay`); destroyed by `destroy()`,
/// which must come before its connection's `close()`.
final class ShimOverlay {
    private var handle: OpaquePointer?
    private let connection: ShimConnection

    init(on connection: ShimConnection, place: WaylandOverlayPlace, namespace: String, milliseconds: Int32) throws(LibWayland.ShimFailure) {
        self.connection = connection
        var made: OpaquePointer?
        var shimPlace = Self.shimPlace(place)
        let live = connection.live
        try LibWayland.check { wlshim_overlay_make(live, &shimPlace, namespace, milliseconds, &made, $0, $1) }
        handle = made
        connection.overlays.removeAll { $0.overlay == nil }
        connection.overlays.append(.init(overlay: self))
    }

    deinit { destroy() }

    private static func shimPlace(_ place: WaylandOverlayPlace) -> wlshim_place {
        wlshim_place(
            anchor: place.anchor.rawValue, width: Int32(clamping: place.width), height: Int32(clamping: place.height),
            margin_top: Int32(clamping: place.margins.top), margin_right: Int32(clamping: place.margins.right),
            margin_bottom: Int32(clamping: place.margins.bottom), margin_left: Int32(clamping: place.margins.left))
    }

    var isDestroyed: Bool { handle == nil }

    /// What its pointer events name it by (0 once destroyed).
    var pointerKey: UInt { handle.map { UInt(wlshim_overlay_key($0)) } ?? 0 }

    var size: (width: Int, height: Int) {
        guard let handle else { return (0, 0) }
        var width: Int32 = 0, height: Int32 = 0
        wlshim_overlay_size(handle, &width, &height)
        return (Int(width), Int(height))
    }

    /// The scale its pictures are drawn at now.
    var scale: WaylandScale {
        handle.map { WaylandScale(oneHundredTwentieths: wlshim_overlay_scale($0)) } ?? .one
    }

    /// The size of the buffers its pictures are drawn in now.
    var pixelSize: (width: Int, height: Int) {
        guard let handle else { return (0, 0) }
        var width: Int32 = 0, height: Int32 = 0
        wlshim_overlay_pixel_size(handle, &width, &height)
        return (Int(width), Int(height))
    }

    /// Lets the compositor give it the keyboard's focus (on_demand) or not (none); false where its
    /// layer-shell is older than version 4 or libxkbcommon is missing.
    func acceptKeys(_ accept: Bool) -> Bool { handle.map { wlshim_overlay_accept_keys($0, accept ? 1 : 0) != 0 } ?? false }

    var framePending: Bool { handle.map { wlshim_overlay_frame_pending($0) != 0 } ?? false }

    /// A free buffer's pixels, stride, width and height; nil while both are with the compositor.
    func begin() throws(LibWayland.ShimFailure) -> (UnsafeMutableRawPointer, Int, Int, Int)? {
        guard let handle else { throw LibWayland.ShimFailure(code: .invalid, detail: "the surface is destroyed") }
        var pixels: UnsafeMutableRawPointer?
        var stride: Int32 = 0, width: Int32 = 0, height: Int32 = 0
        let rc = wlshim_overlay_begin(handle, &pixels, &stride, &width, &height)
        if rc == 1 { return nil }
        guard Int(rc) == WLSHIM_OK, let pixels else {
            throw LibWayland.ShimFailure(code: LibWayland.Code(rc), detail: "no buffer could be made")
        }
        return (pixels, Int(stride), Int(width), Int(height))
    }

    func commit() throws(LibWayland.ShimFailure) {
        guard let handle else { throw LibWayland.ShimFailure(code: .invalid, detail: "the surface is destroyed") }
        let rc = wlshim_overlay_commit(handle)
        guard Int(rc) == WLSHIM_OK else { throw LibWayland.ShimFailure(code: LibWayland.Code(rc), detail: "the picture could not be sent") }
    }

    /// Pictures from the next `begin` with alpha (ARGB8888, premultiplied), or without.
    func setAlpha(_ alpha: Bool) {
        if let handle { wlshim_overlay_set_alpha(handle, alpha ? 1 : 0) }
    }

    /// The pointer's events reach it (its whole area), or pass to what is below.
    func setInput(accepts: Bool) throws(LibWayland.ShimFailure) {
        guard let handle else { throw LibWayland.ShimFailure(code: .invalid, detail: "the surface is destroyed") }
        let rc = wlshim_overlay_set_input(handle, accepts ? 1 : 0)
        guard Int(rc) == WLSHIM_OK else { throw LibWayland.ShimFailure(code: LibWayland.Code(rc), detail: "the input region could not be set") }
    }

    func setPlace(_ place: WaylandOverlayPlace, milliseconds: Int32) throws(LibWayland.ShimFailure) {
        guard let handle else { throw LibWayland.ShimFailure(code: .invalid, detail: "the surface is destroyed") }
        var shimPlace = Self.shimPlace(place)
        try LibWayland.check { wlshim_overlay_set_place(handle, &shimPlace, milliseconds, $0, $1) }
    }

    func takeEvents() -> ShimSurfaceEvents {
        handle.map { ShimSurfaceEvents(rawValue: UInt32(wlshim_overlay_take_events($0))) } ?? []
    }

    func destroy() {
        if let handle { wlshim_overlay_destroy(handle) }
        handle = nil
    }
}
