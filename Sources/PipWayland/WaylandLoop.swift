#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// The event loop of the thread that owns a Wayland connection, as `DisplayLoop` is for an X one:
/// reads what the compositor sends (and hands it to the surfaces made on the connection), runs
/// timers, wakes for other descriptors (frames, signals), and runs `everyIteration` bodies before
/// sleeping.
///
/// Everything registered here runs on the loop's thread. `run()` returns when `stop(exitCode:)` is
/// called, or when the connection breaks (`connectionError`); it can be run again after.
///
/// ```swift
/// let loop = WaylandLoop(connection: try WaylandConnection(display: nil))
/// loop.everyIteration { /* present the newest frame when the surface can take one */ }
/// let code = loop.run()
/// ```
public final class WaylandLoop: EventLoop {
    /// The connection whose descriptor the loop polls.
    public let connection: WaylandConnection
    private let table = LoopTable()
    private var stopCode: Int32?
    /// Why the last `run()` ended by itself: the connection broke.
    public private(set) var connectionError: WaylandError?

    /// A loop over `connection`, which it does not close.
    public init(connection: WaylandConnection) { self.connection = connection }

    /// Calls `handler` whenever `fd` is readable (the handler must consume what made it readable).
    public func addReader(_ fd: Int32, _ handler: @escaping () -> Void) { table.addReader(fd, handler) }

    /// Stops calling the handler `addReader` gave for `fd`, also from a reader's own handler.
    public func removeReader(_ fd: Int32) { table.removeReader(fd) }

    /// Runs `body` once per loop iteration, after events and timers and before sleeping.
    public func everyIteration(_ body: @escaping () -> Void) { table.everyIteration(body) }

    /// Calls `handler` once at `deadline`; returns an id for `cancelTimer`.
    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> Int {
        table.schedule(at: deadline, handler)
    }

    /// Cancels the timer `schedule` returned `id` for (nothing when it ran already).
    public func cancelTimer(_ id: Int) { table.cancelTimer(id) }

    /// The code `stop(exitCode:)` gave while this run goes on; nil otherwise.
    public var exitCode: Int32? { stopCode }

    /// Makes `run()` return `code` after the current iteration (at once when called before it runs).
    public func stop(exitCode code: Int32) {
        if stopCode == nil { stopCode = code }
    }

    /// Runs until `stop(exitCode:)` and returns its code; 1 when the connection broke first.
    public func run() -> Int32 {
        connectionError = nil
        defer { stopCode = nil }
        while stopCode == nil {
            table.runDueTimers()
            table.runIterationBodies()
            if stopCode != nil { break }
            do {
                try sleepUntilActivity()
            } catch {
                connectionError = error
                stopCode = stopCode ?? 1
            }
        }
        return stopCode ?? 0
    }

    /// Prepares the connection, polls it with the readers, reads it; then the ready readers run.
    /// Nothing may call the connection between its prepare and its read (libwayland's reader
    /// count would wait on itself), so readers run only after.
    private func sleepUntilActivity() throws(WaylandError) {
        let writing = try connection.prepareToPoll()
        let events = Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0)
        let revents = table.poll(connection: connection.fileDescriptor, events: events, wait: true)
        try connection.finishPoll(readable: revents & Int16(POLLIN | POLLHUP | POLLERR) != 0)
        table.runReadyReaders()
    }
}
