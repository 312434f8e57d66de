#if canImport(Glibc)
import Glibc
#endif

/// What an event loop waits on besides its own connection: descriptors with their handlers,
/// timers, and bodies run once per iteration before sleeping. The X and Wayland loops each own
/// one and differ only in how they read their connection.
///
/// Handlers run on the loop's thread and may add or remove readers and timers as they run.
public final class LoopTable {
    private var readers: [(fd: Int32, handler: () -> Void)] = []
    private var timers: [(id: Int, deadline: MonotonicInstant, handler: () -> Void)] = []
    private var nextTimerID = 0
    /// The connection's entry first, then one per reader.
    private var pollSet = [pollfd(fd: -1, events: 0, revents: 0)]
    private var readyScratch: [Int32] = []
    private var beforeSleep: [() -> Void] = []

    public init() {}

    /// Calls `handler` whenever `fd` is readable (the handler must consume what made it readable).
    public func addReader(_ fd: Int32, _ handler: @escaping () -> Void) {
        readers.append((fd, handler))
        pollSet.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
    }

    /// Stops calling the handler `addReader` gave for `fd`, also from a reader's own handler.
    public func removeReader(_ fd: Int32) {
        guard let i = readers.firstIndex(where: { $0.fd == fd }) else { return }
        readers.remove(at: i)
        pollSet.remove(at: i + 1)
    }

    /// Runs `body` once per iteration (`runIterationBodies`).
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

    /// Runs the timers whose deadline has come, in no promised order.
    public func runDueTimers() {
        let now = MonotonicInstant.now()
        while let index = timers.firstIndex(where: { $0.deadline <= now }) {
            let timer = timers.remove(at: index)
            timer.handler()
        }
    }

    /// Runs the `everyIteration` bodies.
    public func runIterationBodies() {
        for body in beforeSleep { body() }
    }

    /// Waits until `connection` has `events`, a reader is readable or the nearest timer is due;
    /// without `wait`, only looks. Returns the connection's `revents` (0 when nothing came);
    /// `runReadyReaders` then runs the readers found readable.
    public func poll(connection: Int32, events: Int16, wait: Bool) -> Int16 {
        var nearest: MonotonicInstant?
        for timer in timers where nearest == nil || timer.deadline < nearest! { nearest = timer.deadline }
        let timeout = wait ? Self.pollTimeout(nearest: nearest, now: .now()) : 0
        pollSet[0].fd = connection
        pollSet[0].events = events
        for i in pollSet.indices { pollSet[i].revents = 0 }
        let ready = pollSet.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeout) }
        // A handler may add or remove readers (a door accepting or closing a connection): the
        // ready descriptors are noted first, in a buffer kept between wakes (a frame wakes the loop).
        readyScratch.removeAll(keepingCapacity: true)
        guard ready > 0 else { return 0 }
        for entry in pollSet.dropFirst() where entry.revents != 0 { readyScratch.append(entry.fd) }
        return pollSet[0].revents
    }

    /// Runs the handlers of the readers the last `poll` found readable, each looked up as it comes.
    public func runReadyReaders() {
        for fd in readyScratch { readers.first { $0.fd == fd }?.handler() }
    }

    /// How long poll may sleep before the nearest of `deadlines` (-1: none), in whole
    /// milliseconds rounded up (a timer never runs early), at most a minute.
    public static func pollTimeout(nearest deadline: MonotonicInstant?, now: MonotonicInstant) -> Int32 {
        guard let deadline else { return -1 }
        guard deadline > now else { return 0 }
        return Int32(min((deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000, 60_000))
    }
}

/// A loop a program runs on: `ReaderLoop`'s readers and timers, bodies run once per iteration,
/// and a stop with an exit code. The X and Wayland loops are ones.
public protocol EventLoop: ReaderLoop {
    /// Runs `body` once per loop iteration, after events and timers and before sleeping.
    func everyIteration(_ body: @escaping () -> Void)
    /// Makes `run()` return `code` after the current iteration.
    func stop(exitCode code: Int32)
    /// The code `stop(exitCode:)` was given while running; nil while it runs on.
    var exitCode: Int32? { get }
    /// Runs until `stop(exitCode:)`; returns the exit code.
    func run() -> Int32
}
