#if canImport(Glibc)
import Glibc
#endif
import CameraSource

// A signal handler may only do async-signal-safe things: it writes one byte to this pipe.
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1

/// Turns SIGINT and SIGTERM into a readable descriptor the event loop polls, so they end the
/// program through the normal shutdown path (camera released, shared memory freed).
public final class SignalPipe: Sendable {
    private let wake = WakeSignal()
    public var fd: Int32 { wake.fd }

    /// The process's pipe: a signal that comes between two users of it (pipcam's start-up and its
    /// app) waits in it instead of going to a pipe nobody reads.
    public static let shared = SignalPipe()

    /// Until a `SignalPipe` exists, SIGINT and SIGTERM end the process with 0 at once. Start-up
    /// (opening a pipe nobody writes to yet can wait for good) has made nothing the kernel and the
    /// X server do not undo themselves: no shared memory, no state to save.
    public static func exitAtOnceOnSignal() {
        signal(SIGINT) { _ in _exit(0) }
        signal(SIGTERM) { _ in _exit(0) }
    }

    public init() {
        signalWriteEnd = wake.writeDescriptor
        signal(SIGINT) { _ in var b: UInt8 = 1; _ = write(signalWriteEnd, &b, 1) }
        signal(SIGTERM) { _ in var b: UInt8 = 1; _ = write(signalWriteEnd, &b, 1) }
        signal(SIGPIPE, SIG_IGN)
    }
}
