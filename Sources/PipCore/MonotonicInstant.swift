#if canImport(Glibc)
import Glibc
#endif

/// A point on `CLOCK_MONOTONIC`, the clock V4L2 stamps frames with, in nanoseconds.
public struct MonotonicInstant: Sendable, Comparable, Hashable, CustomStringConvertible {
    public var nanoseconds: UInt64
    public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

    /// The current time.
    public static func now() -> MonotonicInstant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(nanoseconds: UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
    }

    /// A time a driver or a file gives: out of range (negative, or past what Int64 nanoseconds
    /// hold, some 292 years) is clamped, never a trap.
    public init(seconds: Int, microseconds: Int) {
        let (whole, wholeOver) = Int64(clamping: max(0, seconds)).multipliedReportingOverflow(by: 1_000_000_000)
        let (part, partOver) = Int64(clamping: max(0, microseconds)).multipliedReportingOverflow(by: 1_000)
        nanoseconds = wholeOver || partOver ? UInt64(Int64.max) : UInt64(whole.addingSaturated(part))
    }

    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }

    /// This instant moved by a (possibly negative) number of nanoseconds, clamped at zero.
    public func advanced(byNanoseconds delta: Int64) -> MonotonicInstant {
        let value = Int64(clamping: nanoseconds) &+ delta
        return MonotonicInstant(nanoseconds: UInt64(max(0, value)))
    }

    /// Seconds from `other` to `self` (negative when `self` is earlier).
    public func seconds(since other: MonotonicInstant) -> Double {
        (Double(nanoseconds) - Double(other.nanoseconds)) / 1e9
    }

    public var description: String { "\(Double(nanoseconds) / 1e9)s" }
}
