#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Waiting for the daemon at start-up, on the thread that owns the connection.
extension PipeWireConnection {
    /// Dispatches until `done` holds for an event (or, given nil, for the state after one), for
    /// at most 5 s. A stream that fails meanwhile throws, naming `thing`.
    func dispatch(for thing: String, until what: String, _ done: (PipeWireEvent?) -> Bool) throws(SourceError) {
        let end = MonotonicInstant.now().advanced(byNanoseconds: 5_000_000_000)
        while true {
            guard dispatch() else { throw SourceError.runtime(thing: thing, reason: "the PipeWire daemon went away") }
            while let event = nextEvent() {
                switch event {
                case .streamState(.error, let message):
                    throw SourceError.runtime(thing: thing, reason: message.isEmpty ? "the stream failed" : message)
                case .streamState(.unconnected, _):
                    throw SourceError.interrupted(thing: thing, .disconnected)
                case .linkFailed(let message):
                    throw SourceError.badInput(thing: thing, reason: "offers no format pipcam can show (\(message))")
                default:
                    if done(event) { return }
                }
            }
            if done(nil) { return }
            let now = MonotonicInstant.now()
            guard now < end else { throw SourceError.runtime(thing: thing, reason: "no answer from PipeWire waiting for \(what)") }
            var fd = pollfd(fd: pollDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(min((end.nanoseconds - now.nanoseconds) / 1_000_000 + 1, 100)))
        }
    }

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
