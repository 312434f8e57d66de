/// What a Wayland compositor offers: every global its registry announced, with the highest
/// version of each, in the compositor's order.
///
/// ```swift
/// let globals = try WaylandGlobals.read(display: nil)   // $WAYLAND_DISPLAY
/// globals.offers("zwlr_layer_shell_v1")
/// ```
public struct WaylandGlobals: Sendable, Equatable {
    /// One global: its interface name (`wl_shm`, `xdg_wm_base`, …) and the version offered.
    public struct Global: Sendable, Equatable, Hashable, CustomStringConvertible {
        public let interface: String
        public let version: UInt32

        public init(_ interface: String, version: UInt32) {
            self.interface = interface
            self.version = version
        }

        public var description: String { "\(interface) v\(version)" }
    }

    /// The globals as announced (an interface can be announced more than once: `wl_output`, `wl_seat`).
    public let globals: [Global]

    public init(_ globals: [Global]) { self.globals = globals }

    /// Whether the compositor offers `interface` at all.
    public func offers(_ interface: String) -> Bool { globals.contains { $0.interface == interface } }

    /// The highest version of `interface` offered, or nil when it is not.
    public func version(of interface: String) -> UInt32? {
        globals.lazy.filter { $0.interface == interface }.map(\.version).max()
    }

    /// Connects to the compositor at `display` (nil: `$WAYLAND_DISPLAY`, else `wayland-0`; a name
    /// is a socket in `$XDG_RUNTIME_DIR`, an absolute path a socket anywhere), reads its globals in
    /// one round trip and disconnects. libwayland-client is loaded on first use.
    ///
    /// Waits `timeout` at most for the compositor's answer: one that took the connection and
    /// hangs (stopped, deadlocked) is an error, not a hang of the caller.
    public static func read(display: String?, timeout: Duration = .seconds(2)) throws(WaylandError) -> WaylandGlobals {
        let milliseconds = LibWayland.milliseconds(timeout)
        do {
            return WaylandGlobals(try LibWayland.readGlobals(display: display, milliseconds: milliseconds).map {
                Global($0.interface, version: $0.version)
            })
        } catch {
            throw WaylandError(error, display: display, waited: timeout)
        }
    }
}
