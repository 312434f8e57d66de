#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// The event loop of the thread that owns an X connection: dispatches X events to the handler of
/// the window they concern, runs timers, and wakes for other descriptors (frames, signals).
///
/// Everything registered here runs on the loop's thread. `run()` returns when `stop(exitCode:)` is called.
public final class DisplayLoop: ReaderLoop {
    public typealias EventHandler = (WindowEvent) -> Void

    public let display: XDisplay
    private var windowHandlers: [WindowID: [(token: Int, handler: EventHandler)]] = [:]
    private var nextToken = 0
    private var otherHandlers: [(token: Int, handler: EventHandler)] = []
    private var readers: [(fd: Int32, handler: () -> Void)] = []
    private var timers: [(id: Int, deadline: MonotonicInstant, handler: () -> Void)] = []
    private var nextTimerID = 0
    private var pollSet: [pollfd] = []
    private var readyScratch: [Int32] = []
    private var beforeSleep: [() -> Void] = []
    public private(set) var exitCode: Int32?

    /// The most X events handled before the other descriptors and timers are looked at again.
    static let eventsPerLook = 64

    public init(display: XDisplay) { self.display = display }

    /// Sends events about `window` to `handler` (after earlier handlers of the same window);
    /// returns a token for `unregister`.
    @discardableResult
    public func register(_ window: WindowID, _ handler: @escaping EventHandler) -> Int {
        nextToken += 1
        windowHandlers[window, default: []].append((nextToken, handler))
        return nextToken
    }

    /// Removes the handler `register` or `observeOtherEvents` returned `token` for.
    public func unregister(_ token: Int) {
        for (window, list) in windowHandlers {
            let kept = list.filter { $0.token != token }
            windowHandlers[window] = kept.isEmpty ? nil : kept
        }
        otherHandlers.removeAll { $0.token == token }
    }

    /// Sends events that name no registered window (root properties, shared-memory completions) to `handler`.
    /// Returns a token for `unregister`.
    @discardableResult
    public func observeOtherEvents(_ handler: @escaping EventHandler) -> Int {
        nextToken += 1
        otherHandlers.append((nextToken, handler))
        return nextToken
    }

    /// How many observers `observeOtherEvents` has; for tests.
    var otherEventObservers: Int { otherHandlers.count }

    /// Calls `handler` whenever `fd` is readable (the handler must consume what made it readable).
    public func addReader(_ fd: Int32, _ handler: @escaping () -> Void) {
        readers.append((fd, handler))
        pollSet.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
    }

    /// Stops calling the handler `addReader` gave for `fd`, also from a reader's own handler.
    public func removeReader(_ fd: Int32) {
        guard let i = readers.firstIndex(where: { $0.fd == fd }) else { return }
        readers.remove(at: i)
        // While running, the display's descriptor is first in the poll set.
        if let j = pollSet.indices.last(where: { pollSet[$0].fd == fd }) { pollSet.remove(at: j) }
    }

    /// Runs `body` once per loop iteration, after events and before sleeping.
    public func everyIteration(_ body: @escaping () -> Void) { beforeSleep.append(body) }

    /// Calls `handler` once at `deadline`; returns an id for `cancelTimer`.
    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> Int {
        nextTimerID += 1
        timers.append((nextTimerID, deadline, handler))
        return nextTimerID
    }

    public func cancelTimer(_ id: Int) { timers.removeAll { $0.id == id } }

    /// Makes `run()` return `code` after the current iteration.
    public func stop(exitCode code: Int32) {
        if exitCode == nil { exitCode = code }
    }

    /// Runs until `stop(exitCode:)`; returns the exit code.
    public func run() -> Int32 {
        pollSet.insert(pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0), at: 0)
        defer { pollSet.removeFirst() }
        while exitCode == nil {
            // At most a batch of events between two looks at the other descriptors: a client
            // flooding pipcam with events must not keep a signal or a frame from being read.
            var batch = 0
            while batch < Self.eventsPerLook && exitCode == nil && display.pendingEvents > 0 {
                dispatch(display.nextEvent())
                batch += 1
            }
            runDueTimers()
            for body in beforeSleep { body() }
            if exitCode != nil { break }
            // XPending flushes our requests and reads what already arrived: an event Xlib has queued
            // would not wake poll() (the X fd is drained), so look before sleeping. With events
            // queued the other descriptors are still looked at, without waiting: X events that
            // never pause (a completion per frame) must not keep a signal from being read.
            sleepUntilActivity(wait: display.pendingEvents == 0)
        }
        return exitCode ?? 0
    }

    private func dispatch(_ event: WindowEvent) {
        if case .clientMessage(_, let type, let data) = event, type == display[.WM_PROTOCOLS],
            Atom(bitPattern: data.0) == display[._NET_WM_PING] {
            display.answerPing(data)
            return
        }
        if let w = event.window, let handlers = windowHandlers[w] {
            // A handler may unregister a later one (a controller released in the app's handler,
            // and its watcher's with it): that one must not run on what it no longer owns.
            for entry in handlers where windowHandlers[w]?.contains(where: { $0.token == entry.token }) == true {
                entry.handler(event)
            }
        } else {
            for entry in otherHandlers { entry.handler(event) }
        }
    }

    private func runDueTimers() {
        let now = MonotonicInstant.now()
        while let index = timers.firstIndex(where: { $0.deadline <= now }) {
            let timer = timers.remove(at: index)
            timer.handler()
        }
    }

    private func sleepUntilActivity(wait: Bool) {
        var timeout: Int32 = wait ? -1 : 0
        var nearest: MonotonicInstant?
        for timer in timers where nearest == nil || timer.deadline < nearest! { nearest = timer.deadline }
        if let nearest, wait {
            let now = MonotonicInstant.now()
            timeout = nearest > now ? Int32(min((nearest.nanoseconds - now.nanoseconds + 999_999) / 1_000_000, 60_000)) : 0
        }
        for i in pollSet.indices { pollSet[i].revents = 0 }
        let ready = pollSet.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        guard ready > 0 else { return }
        // A handler may add or remove readers (a door accepting or closing a connection): the ready
        // descriptors are noted first (in a buffer kept between wakes: a frame wakes the loop), and
        // each one's handler looked up as it comes.
        readyScratch.removeAll(keepingCapacity: true)
        for entry in pollSet.dropFirst() where entry.revents != 0 { readyScratch.append(entry.fd) }
        for fd in readyScratch { readers.first { $0.fd == fd }?.handler() }
    }
}
