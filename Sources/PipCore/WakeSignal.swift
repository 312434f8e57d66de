#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe one thread signals and another polls: how the capture thread wakes the X thread
/// (and back) without sharing anything else.
public final class WakeSignal: @unchecked Sendable {
    /// The descriptor to poll for readability.
    public let fd: Int32
    private let writeEnd: Int32
    /// The end `signal()` writes to (for async-signal-safe writers such as signal handlers).
    public var writeDescriptor: Int32 { writeEnd }

    public init() {
        var ends: (Int32, Int32) = (-1, -1)
        let rc = withUnsafeMutableBytes(of: &ends) { raw in
            pipe(raw.baseAddress!.assumingMemoryBound(to: Int32.self))
        }
        precondition(rc == 0, "pipe failed: \(Errno.current)")
        for end in [ends.0, ends.1] {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        fd = ends.0
        writeEnd = ends.1
    }

    deinit {
        close(fd)
        close(writeEnd)
    }

    /// Wakes whoever polls `fd`. Safe from any thread; a full pipe already means "awake".
    public func signal() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    /// Consumes pending wake-ups so `fd` stops being readable.
    public func drain() {
        var scratch: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        while withUnsafeMutableBytes(of: &scratch, { read(fd, $0.baseAddress, 32) }) == 32 {}
    }
}
