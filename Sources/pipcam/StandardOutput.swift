#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// pipcam's answers on standard output (`status`, `--list-cameras`, `--help`). An answer that
/// cannot be written (a full disk, a closed pipe: SIGPIPE is ignored) is a failure: one line on
/// standard error and exit 1 (docs/BEHAVIOUR.md, "Exit status").
enum StandardOutput {
    /// Writes `text` and a newline in full; false, after saying why, when it could not.
    static func writeLine(_ text: String) -> Bool {
        let bytes = Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
        var done = 0
        while done < bytes.count {
            let (n, code) = SystemCall.retryingInterrupts {
                bytes.withUnsafeBytes { write(1, $0.baseAddress! + done, $0.count - done) }
            }
            guard n > 0 else { return failed(errno: n < 0 ? code : EIO) }
            done += n
        }
        return true
    }

    private static func failed(errno code: Int32) -> Bool {
        writeErrorLine("pipcam: standard output: \(Errno(code))")
        return false
    }
}
