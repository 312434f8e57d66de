import Foundation

/// What a test helper reports when something it waited for did not happen, or went wrong.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }

    public static func timedOut(_ what: String, after timeout: Duration, detail: String = "") -> HarnessError {
        HarnessError("timed out after \(timeout) waiting for \(what)" + (detail.isEmpty ? "" : ": \(detail)"))
    }
}

/// Polls `probe` until it returns a value or `timeout` passes; never blocks longer.
/// The interval starts at 5 ms and backs off to 50 ms, so fast conditions are seen fast.
public func poll<T>(
    timeout: Duration, what: @autoclosure () -> String, _ probe: () throws -> T?
) throws -> T {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var interval = Duration.milliseconds(5)
    while true {
        if let value = try probe() { return value }
        if clock.now >= deadline { throw HarnessError.timedOut(what(), after: timeout) }
        Thread.sleep(forTimeInterval: interval.seconds)
        interval = min(interval * 2, .milliseconds(50))
    }
}

/// Waits until `condition` holds, or throws a timeout error naming `what`.
///
/// Waits check state, not speed (speed is `make bench`'s), so a shorter `timeout` is raised to
/// `minimumWait`: on a loaded machine a 250 ms animation was seen to take over a second, and a
/// wait that holds returns as soon as it does.
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(5), _ condition: () throws -> Bool
) throws {
    _ = try poll(timeout: max(timeout, minimumWait), what: what()) { try condition() ? true : nil }
}

/// Whether `condition` comes to hold within `timeout` (polled as by `poll`), for `#expect`.
/// Like `waitUntil`, it gives the condition at least `minimumWait`: it returns as soon as the
/// condition holds, and a sanitizer run at a low priority beside CI's other tiers may get no CPU
/// for a second or more.
public func eventually(timeout: Duration = .seconds(2), _ condition: () -> Bool) -> Bool {
    (try? poll(timeout: max(timeout, minimumWait), what: "") { condition() ? true : nil }) != nil
}

/// The least time `waitUntil` gives a condition.
public let minimumWait = Duration.seconds(5)

extension Duration {
    /// The duration in seconds, as a Double (for sleeps and arithmetic).
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
