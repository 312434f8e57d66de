#if canImport(Glibc)
import Glibc
#endif

/// An errno value, worded for a one-line message: `description` is the system's text in lower
/// case, e.g. "no such file or directory".
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's errno now (read it before anything else can change it).
    public static var current: Errno { Errno(errno) }

    public var description: String {
        guard let text = strerror(code) else { return "error \(code)" }
        let s = String(cString: text)
        guard let first = s.first else { return s }
        return first.lowercased() + s.dropFirst()
    }
}
