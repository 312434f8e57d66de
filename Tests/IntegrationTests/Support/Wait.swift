import Foundation

/// Polls `probe` until it returns a value or `timeout` passes; never blocks longer.
/// The interval starts at 5 ms and backs off to 50 ms, so fast conditions are seen fast.
func poll<T>(
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
func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = .seconds(5), _ condition: () throws -> Bool
) throws {
    _ = try poll(timeout: max(timeout, minimumWait), what: what()) { try condition() ? true : nil }
}

/// The least time `waitUntil` gives a condition.
let minimumWait = Duration.seconds(5)

extension Duration {
    /// The duration in seconds, as a Double (for sleeps and arithmetic).
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
