#if canImport(Glibc)
import Glibc
#endif

/// The one place a system call interrupted by a signal is tried again.
///
/// A call fails with EINTR when a signal whose handler was installed without `SA_RESTART` arrives
/// while it waits; that is no failure of the call, so every call that can wait goes through here
/// rather than through a retry loop of its own.
public enum SystemCall {
    /// Runs `call` — one system call returning -1 (or another negative value) on failure, with
    /// `errno` set — again for as long as it fails with EINTR.
    ///
    /// - Returns: what the last run returned and, when that is a failure, the `errno` it left
    ///   (read before anything else can change it); `errno` is 0 when the call succeeded.
    @inlinable
    public static func retryingInterrupts<Result: BinaryInteger>(
        _ call: () -> Result
    ) -> (result: Result, errno: Int32) {
        while true {
            let result = call()
            if result >= 0 { return (result, 0) }
            let code = Glibc.errno
            if code != EINTR { return (result, code) }
        }
    }
}
