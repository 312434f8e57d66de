import Foundation

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
    public static func read(display: String?, timeout: Duration = .seconds(2)) throws(WaylandProbeError) -> WaylandGlobals {
        let milliseconds = LibWayland.milliseconds(timeout)
        do {
            return WaylandGlobals(try LibWayland.readGlobals(display: display, milliseconds: milliseconds).map {
                Global($0.interface, version: $0.version)
            })
        } catch {
            throw WaylandProbeError(error, display: display, milliseconds: Int(milliseconds))
        }
    }
}

/// Why a compositor's globals could not be read, in one line for the user.
public struct WaylandProbeError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// libwayland-client.so.0 is not on this machine, or too old.
        case libraryMissing
        /// Nothing answers at the display's name (no socket, refused, no runtime directory).
        case noCompositor
        /// The compositor took the connection and then broke it (closed it, a protocol error).
        case connectionFailed
        /// The compositor took the connection and did not answer in time.
        case noAnswer
    }

    public let kind: Kind
    /// One line: "no Wayland compositor at wayland-1 (No such file or directory)".
    public let description: String

    public init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }

    fileprivate init(_ failure: LibWayland.ShimFailure, display: String?, milliseconds: Int) {
        // The name libwayland used, as the user knows it.
        let name = display ?? ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "wayland-0"
        let cause = failure.detail
        switch failure.code {
        case .libraryMissing:
            self.init(kind: .libraryMissing, description: "libwayland-client.so.0 is not installed")
        case .libraryTooOld:
            self.init(kind: .libraryMissing, description: "\(cause): libwayland-client.so.0 is too old")
        case .noCompositor:
            self.init(kind: .noCompositor, description: "no Wayland compositor at \(name) (\(cause))")
        case .noAnswer:
            let wait = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
            self.init(kind: .noAnswer, description: "the Wayland compositor at \(name) did not answer within \(wait)")
        default:
            self.init(kind: .connectionFailed, description: "the Wayland compositor at \(name) broke the connection (\(cause))")
        }
    }
}
