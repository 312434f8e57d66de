import PipCore

/// Decides when a live source should hand out fewer frames because the display cannot keep up —
/// the frame-rate throttling of the seed's system-pressure handling, step by step both ways.
///
/// Pressure shows as frames replaced in the mailbox before the display took them. Over each
/// `window`, more than `threshold` of the posted frames being stale raises the level by one (half
/// the rate again); a `calm` stretch without stale frames lowers it by one.
public struct PressureGovernor: Sendable {
    public private(set) var level = 0
    public static let maximumLevel = 3
    public var windowNanoseconds: UInt64 = 2_000_000_000
    public var calmNanoseconds: UInt64 = 6_000_000_000
    public var threshold = 0.25
    public var minimumFrames = 10
    private var windowStart: MonotonicInstant?
    private var posted = 0
    private var stale = 0
    private var lastStale: MonotonicInstant?
    private var lastChange: MonotonicInstant?

    public init() {}

    /// Notes one posted frame (and whether it replaced a stale one); returns the new level when it changed.
    public mutating func record(replacedStale: Bool, now: MonotonicInstant) -> Int? {
        let start = windowStart ?? now
        windowStart = start
        posted += 1
        if replacedStale {
            stale += 1
            lastStale = now
        }
        var changed: Int?
        if now.nanoseconds - start.nanoseconds >= windowNanoseconds {
            if posted >= minimumFrames, Double(stale) / Double(posted) > threshold, level < Self.maximumLevel {
                level += 1
                lastChange = now
                changed = level
            }
            windowStart = now
            posted = 0
            stale = 0
        }
        let quietSince = max(lastStale ?? MonotonicInstant(nanoseconds: 0), lastChange ?? MonotonicInstant(nanoseconds: 0))
        if changed == nil, level > 0, now.nanoseconds >= quietSince.nanoseconds + calmNanoseconds {
            level -= 1
            lastChange = now
            changed = level
        }
        return changed
    }
}
