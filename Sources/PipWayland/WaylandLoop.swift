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
public final class WaylandLoop: ReaderLoop {
    /// The connection whose descriptor the loop polls.
    public let connection: WaylandConnection
    private var readers: [(fd: Int32, handler: () -> Void)] = []
    private var timers: [(id: Int, deadline: MonotonicInstant, handler: () -> Void)] = []
    private var nextTimerID = 0
    private var pollSet: [pollfd] = []
    private var readyScratch: [Int32] = []
    private var beforeSleep: [() -> Void] = []
    private var stopCode: Int32?
    /// Why the last `run()` ended by itself: the connection broke.
    public private(set) var connectionError: WaylandError?

    /// A loop over `connection`, which it does not close.
    public init(connection: WaylandConnection) { self.connection = connection }

    /// Calls `handler` whenever `fd` is readable (the handler must consume what made it readable).
    public func addReader(_ fd: Int32, _ handler: @escaping () -> Void) {
        readers.append((fd, handler))
        pollSet.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
    }

    /// Stops calling the handler `addReader` gave for `fd`, also from a reader's own handler.
    public func removeReader(_ fd: Int32) {
        guard let i = readers.firstIndex(where: { $0.fd == fd }) else { return }
        readers.remove(at: i)
        // While running, the connection's descriptor is first in the poll set.
        if let j = pollSet.indices.last(where: { pollSet[$0].fd == fd }) { pollSet.remove(at: j) }
    }

    /// Runs `body` once per loop iteration, after events and timers and before sleeping.
    public func everyIteration(_ body: @escaping () -> Void) { beforeSleep.append(body) }

    /// Calls `handler` once at `deadline`; returns an id for `cancelTimer`.
    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> Int {
        nextTimerID += 1
        timers.append((nextTimerID, deadline, handler))
        return nextTimerID
    }

    /// Cancels the timer `schedule` returned `id` for (nothing when it ran already).
    public func cancelTimer(_ id: Int) { timers.removeAll { $0.id == id } }

    /// Makes `run()` return `code` after the current iteration (at once when called before it runs).
    public func stop(exitCode code: Int32) {
        if stopCode == nil { stopCode = code }
    }

    /// Runs until `stop(exitCode:)` and returns its code; 1 when the connection broke first.
    public func run() -> Int32 {
        connectionError = nil
        pollSet.insert(pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0), at: 0)
        defer {
            pollSet.removeFirst()
            stopCode = nil
        }
        while stopCode == nil {
            runDueTimers()
            for body in beforeSleep { body() }
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

    /// How long poll may sleep before the nearest of `deadlines` (-1: none), in whole
    /// milliseconds rounded up (a timer never runs early), at most a minute.
    public static func pollTimeout(nearest deadline: MonotonicInstant?, now: MonotonicInstant) -> Int32 {
        guard let deadline else { return -1 }
        guard deadline > now else { return 0 }
        return Int32(min((deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000, 60_000))
    }

    private func runDueTimers() {
        let now = MonotonicInstant.now()
        while let index = timers.firstIndex(where: { $0.deadline <= now }) {
            let timer = timers.remove(at: index)
            timer.handler()
        }
    }

    /// Prepares the connection, polls it with the readers, reads it; then the ready readers run.
    /// Nothing may call the connection between its prepare and its read (libwayland's reader
    /// count would wait on itself), so readers run only after.
    private func sleepUntilActivity() throws(WaylandError) {
        let writing = try connection.prepareToPoll()
        pollSet[0].events = Int16(POLLIN) | (writing ? Int16(POLLOUT) : 0)
        var nearest: MonotonicInstant?
        for timer in timers where nearest == nil || timer.deadline < nearest! { nearest = timer.deadline }
        let timeout = Self.pollTimeout(nearest: nearest, now: .now())
        for i in pollSet.indices { pollSet[i].revents = 0 }
        let ready = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        let readable = ready > 0 && pollSet[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0
        try connection.finishPoll(readable: readable)
        guard ready > 0 else { return }
        // A handler may add or remove readers: the ready descriptors are noted first (in a buffer
        // kept between wakes), and each one's handler looked up as it comes.
        readyScratch.removeAll(keepingCapacity: true)
        for entry in pollSet.dropFirst() where entry.revents != 0 { readyScratch.append(entry.fd) }
        for fd in readyScratch { readers.first { $0.fd == fd }?.handler() }
    }
}
