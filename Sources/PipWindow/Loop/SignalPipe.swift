#if canImport(Glibc)
import Glibc
#endif
import PipCore

// A signal handler may only do async-signal-safe things: it writes one byte to this pipe.
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1

/// Turns SIGINT, SIGTERM and SIGHUP into a readable descriptor the event loop polls, so they end the
/// program through the normal shutdown path (camera released, shared memory freed, stats line) with
/// 0; SIGUSR1, SIGUSR2, SIGALRM and SIGPIPE are ignored (docs/BEHAVIOUR.md, "Signals").
public final class SignalPipe: Sendable {
    /// The signals that end pipcam with 0.
    public static let ending: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// Signals whose default action would kill pipcam and that mean nothing to it (a write to a
    /// closed pipe then fails with EPIPE, which the writer reports).
    public static let ignored: [Int32] = [SIGPIPE, SIGUSR1, SIGUSR2, SIGALRM]

    private let wake = WakeSignal()
    public var fd: Int32 { wake.fd }

    /// The process's pipe: a signal that comes before any loop reads it (while pipcam parses its
    /// arguments, opens the display, starts the source) waits in it for the first one that does.
    public static let shared = SignalPipe()

    /// Sets up the handling of every signal above; the first thing pipcam does, so that from then
    /// on no signal ends it by its default action.
    public static func install() { _ = shared }

    /// Whether an ending signal has come (the pipe stays readable: each reader sees it).
    public var hasPending: Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1
    }

    /// For a process that has nothing to undo (a control command, the camera listing): an ending
    /// signal, also one that came before, ends it at once with 0.
    public static func exitAtOnceOnSignal() {
        for s in ending { signal(s) { _ in _exit(0) } }
        if shared.hasPending { _exit(0) }
    }

    private init() {
        signalWriteEnd = wake.writeDescriptor
        for s in Self.ending {
            signal(s) { _ in
                // The interrupted code may be about to read errno.
                let saved = errno
                var b: UInt8 = 1
                _ = write(signalWriteEnd, &b, 1)
                errno = saved
            }
        }
        for s in Self.ignored { signal(s, SIG_IGN) }
    }
}
