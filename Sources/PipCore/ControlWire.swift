/// What the control doors share, whatever carries the bytes (the X selection or the socket in the
/// runtime directory): the longest request read, what arrived, and how an exchange ended.
public enum ControlWire {
    /// The longest request (a `switch` source, `set`'s settings) read, in bytes.
    public static let requestLimit = 4096

    /// What a door received from a client.
    public enum Received: Sendable, Equatable {
        /// A whole request, not yet decoded.
        case request([UInt8])
        /// More than `requestLimit` bytes: refused before it is read to its end.
        case tooLong
    }

    /// How a client's exchange with the instance ended.
    public enum Exchange: Sendable, Equatable {
        /// The instance's reply (for `quit`, once it has also exited).
        case answered([UInt8])
        /// No instance is there to ask.
        case notRunning
        /// The instance turned the request away without a reply.
        case refused
        /// The instance went away before it answered.
        case exitedBeforeAnswering
        /// No answer (or, for `quit`, no exit) within the time given.
        case timedOut
    }
}

/// What a door needs of the loop it runs on: descriptors to read and timers, all on the loop's
/// thread. The display loop is one; a door knows nothing else of the window system.
public protocol ReaderLoop: AnyObject {
    /// Calls `handler` whenever `fd` is readable; the handler consumes what made it readable.
    func addReader(_ fd: Int32, _ handler: @escaping () -> Void)
    /// Stops calling `fd`'s handler (also from within a handler).
    func removeReader(_ fd: Int32)
    /// Calls `handler` once at `deadline`; returns an id for `cancelTimer`.
    @discardableResult func schedule(at deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> Int
    func cancelTimer(_ id: Int)
}
