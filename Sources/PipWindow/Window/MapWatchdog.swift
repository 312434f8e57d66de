import PipCore

/// A window manager that is still starting up (or restarting) can drop a MapRequest, leaving a
/// window unmanaged and unmapped for good. A window shown is mapped again every `interval` until
/// the server reports it mapped, at most `retries` times. Once it was mapped, an unmap is the
/// user's or the window manager's doing (minimized, another workspace) and is left alone. Pure:
/// its owner passes time and the window's state in, and maps the window when `tick` says so.
/// The PiP window and pipcam's main window each have one.
public struct MapWatchdog: Sendable, Equatable {
    public let intervalNanoseconds: Int64
    public let retries: Int
    private var retriesLeft = 0
    /// When `tick` is due; nil while nothing is watched.
    public private(set) var nextDeadline: MonotonicInstant?

    public init(intervalNanoseconds: Int64 = 1_000_000_000, retries: Int) {
        self.intervalNanoseconds = intervalNanoseconds
        self.retries = retries
    }

    /// The window was asked to map.
    public mutating func shown(now: MonotonicInstant) {
        retriesLeft = retries
        nextDeadline = now.advanced(byNanoseconds: intervalNanoseconds)
    }

    /// The server reported the window mapped, or its owner hid it: nothing to watch.
    public mutating func settled() { nextDeadline = nil }

    /// At `nextDeadline`: whether to map the window again. `isMapped` is the server's answer now
    /// (nil: unknown, the window gone).
    public mutating func tick(now: MonotonicInstant, isMapped: Bool?) -> Bool {
        guard let deadline = nextDeadline, now >= deadline else { return false }
        guard isMapped == false, retriesLeft > 0 else {
            nextDeadline = nil
            return false
        }
        retriesLeft -= 1
        nextDeadline = retriesLeft > 0 ? now.advanced(byNanoseconds: intervalNanoseconds) : nil
        return true
    }
}
