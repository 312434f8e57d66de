#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Waiting for the daemon at start-up, on the thread that owns the connection.
extension PipeWireConnection {
    /// Dispatches until `done` holds for an event (or, given nil, for the state after one), for
    /// at most 5 s. A stream that fails meanwhile throws, naming `thing`; one that ends unconnected
    /// throws what `unconnected` makes of it once the events that came with the end are read.
    func dispatch(
        for thing: String, until what: String, unconnected: (() -> SourceError)? = nil,
        _ done: (PipeWireEvent?) -> Bool
    ) throws(SourceError) {
        var end = MonotonicInstant.now().advanced(byNanoseconds: 5_000_000_000)
        var ended = false
        while true {
            guard dispatch() else { throw SourceError.runtime(thing: thing, reason: "the PipeWire daemon went away") }
            while let event = nextEvent() {
                switch event {
                case .streamState(.error, let message):
                    throw SourceError.runtime(thing: thing, reason: message.isEmpty ? "the stream failed" : message)
                case .streamState(.unconnected, _) where !ended:
                    // The link failing and the stream ending come in either order: the events of
                    // the next moment say which it was (a link error, the node removed).
                    ended = true
                    end = MonotonicInstant.now().advanced(byNanoseconds: Self.endSettleNanoseconds)
                case .linkFailed(let message):
                    throw SourceError.badInput(thing: thing, reason: "offers no format pipcam can show (\(message))")
                default:
                    if !ended && done(event) { return }
                }
            }
            if !ended && done(nil) { return }
            let now = MonotonicInstant.now()
            guard now < end else {
                if ended { throw unconnected?() ?? .interrupted(thing: thing, .disconnected) }
                throw SourceError.runtime(thing: thing, reason: "no answer from PipeWire waiting for \(what)")
            }
            var fd = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(min((end.nanoseconds - now.nanoseconds) / 1_000_000 + 1, 100)))
        }
    }

    /// How long events are read after a stream ended unconnected while waiting, for the reason.
    static var endSettleNanoseconds: Int64 { 250_000_000 }

    /// Lets the node descriptions that follow the node list arrive (device paths come with them):
    /// dispatches until nothing came for 50 ms, at most `milliseconds`.
    func settle(milliseconds: Int = 300) {
        let end = MonotonicInstant.now().advanced(byNanoseconds: Int64(milliseconds) * 1_000_000)
        while MonotonicInstant.now() < end {
            var fd = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&fd, 1, 50) > 0, dispatch() else { return }
            while nextEvent() != nil {}
        }
    }
}

extension PipeWireCameras {
    /// The camera nodes of the daemon `connect` reaches; nil when there is none to reach (no
    /// daemon, no libpipewire). For `--list-cameras` and the default route.
    public static func list(connect: @escaping PipeWireConnector = LibPipeWire.connect) -> [PipeWireNode]? {
        // One look of a watch, whose connection closes with it.
        PipeWireNodeWatch(connect: connect).cameras()
    }
}
