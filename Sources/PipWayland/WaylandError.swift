#if canImport(Glibc)
import Glibc
#endif

/// Why Wayland could not be used — the compositor's globals read, a surface made or drawn — in
/// one line for the user, and in kinds a caller can act on (take X11 instead, say why).
public struct WaylandError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// libwayland-client.so.0 is not on this machine, or too old.
        case libraryMissing
        /// Nothing answers at the display's name (no socket, refused, no runtime directory).
        case noCompositor
        /// The compositor lacks an interface pipcam needs.
        case unsupported
        /// The compositor took the connection and did not answer in time.
        case noAnswer
        /// The connection broke, the compositor closed the surface, or memory ran out.
        case failed
    }

    public let kind: Kind
    /// One line: "no Wayland compositor at wayland-1 (No such file or directory)".
    public let description: String

    public init(kind: Kind, description: String) {
        self.kind = kind
        self.description = description
    }

    /// What the shim's `failure` means at `display` (nil: `$WAYLAND_DISPLAY`), after `waited`.
    init(_ failure: LibWayland.ShimFailure, display: String?, waited: Duration? = nil) {
        // The name libwayland used, as the user knows it.
        let name = display ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        let cause = failure.detail
        switch failure.code {
        case .libraryMissing: self.init(kind: .libraryMissing, description: "libwayland-client.so.0 is not installed")
        case .libraryTooOld: self.init(kind: .libraryMissing, description: "\(cause): libwayland-client.so.0 is too old")
        case .noCompositor: self.init(kind: .noCompositor, description: "no Wayland compositor at \(name) (\(cause))")
        case .unsupported:
            // The shim says "the compositor lacks X".
            self.init(kind: .unsupported, description: "the Wayland compositor at \(name) \(cause.hasPrefix("the compositor ") ? String(cause.dropFirst("the compositor ".count)) : cause)")
        case .noAnswer:
            let within = waited.map { " within \(Self.text($0))" } ?? " (\(cause))"
            self.init(kind: .noAnswer, description: "the Wayland compositor at \(name) did not answer\(within)")
        case .connectionBroken:
            self.init(kind: .failed, description: "the Wayland compositor at \(name) broke the connection (\(cause))")
        default: self.init(kind: .failed, description: "Wayland at \(name): \(cause)")
        }
    }

    private static func text(_ duration: Duration) -> String {
        let milliseconds = Int(LibWayland.milliseconds(duration))
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}
