#if canImport(Glibc)
import Glibc
#endif
import CameraSource

// A signal handler may only do async-signal-safe things: it writes one byte to this pipe.
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1

/// Turns SIGINT and SIGTERM into a readable descriptor the event loop polls, so they end the
/// program through the normal shutdown path (camera released, shared memory freed).
public final class SignalPipe {
    private let wake = WakeSignal()
    public var fd: Int32 { wake.fd }

    public init() {
        signalWriteEnd = wake.writeDescriptor
        signal(SIGINT) { _ in var b: UInt8 = 1; _ = write(signalWriteEnd, &b, 1) }
        signal(SIGTERM) { _ in var b: UInt8 = 1; _ = write(signalWriteEnd, &b, 1) }
        signal(SIGPIPE, SIG_IGN)
    }
}
