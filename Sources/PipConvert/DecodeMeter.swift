#if canImport(Glibc)
import Glibc
#endif

/// What one MJPEG picture's decode and conversion cost: this thread's CPU, the decoder's second
/// thread's (read from its own clock) and the wall time between `init` and `cost`.
struct DecodeMeter {
    private let cpu: Double, helper: Double, wall: Double

    /// Starts; `helper` is the second thread's CPU so far, in milliseconds.
    init(helper: Double) {
        cpu = Self.milliseconds(CLOCK_THREAD_CPUTIME_ID)
        wall = Self.milliseconds(CLOCK_MONOTONIC)
        self.helper = helper
    }

    /// CPU and wall milliseconds since `init`; `helper`: the second thread's CPU now.
    func cost(helper now: Double) -> (cpu: Double, wall: Double) {
        (Self.milliseconds(CLOCK_THREAD_CPUTIME_ID) - cpu + max(0, now - helper), Self.milliseconds(CLOCK_MONOTONIC) - wall)
    }

    private static func milliseconds(_ clock: clockid_t) -> Double {
        var t = timespec()
        clock_gettime(clock, &t)
        return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
    }
}
