#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// The event loop of the thread that owns an X connection: dispatches X events to the handler of
/// the window they concern, runs timers, and wakes for other descriptors (frames, signals).
///
/// Everything registered here runs on the loop's thread. `run()` returns when `stop(exitCode:)` is called.
public final class DisplayLoop: EventLoop {
    public typealias EventHandler = (WindowEvent) -> Void

    public let display: XDisplay
    private var windowHandlers: [WindowID: [(token: Int, handler: EventHandler)]] = [:]
    private var nextToken = 0
    private var otherHandlers: [(token: Int, handler: EventHandler)] = []
    private let table = LoopTable()
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
    public func addReader(_ fd: Int32, _ handler: @escaping () -> Void) { table.addReader(fd, handler) }

    /// Stops calling the handler `addReader` gave for `fd`, also from a reader's own handler.
    public func removeReader(_ fd: Int32) { table.removeReader(fd) }

    /// Runs `body` once per loop iteration, after events and before sleeping.
    public func everyIteration(_ body: @escaping () -> Void) { table.everyIteration(body) }

    /// Calls `handler` once at `deadline`; returns an id for `cancelTimer`.
    @discardableResult
    public func schedule(at deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> Int {
        table.schedule(at: deadline, handler)
    }

    public func cancelTimer(_ id: Int) { table.cancelTimer(id) }

    /// Makes `run()` return `code` after the current iteration.
    public func stop(exitCode code: Int32) {
        if exitCode == nil { exitCode = code }
    }

    /// Runs until `stop(exitCode:)`; returns the exit code.
    public func run() -> Int32 {
        while exitCode == nil {
            // At most a batch of events between two looks at the other descriptors: a client
            // flooding pipcam with events must not keep a signal or a frame from being read.
            var batch = 0
            while batch < Self.eventsPerLook && exitCode == nil && display.pendingEvents > 0 {
                dispatch(display.nextEvent())
                batch += 1
            }
            table.runDueTimers()
            table.runIterationBodies()
            if exitCode != nil { break }
            // XPending flushes our requests and reads what already arrived: an event Xlib has queued
            // would not wake poll() (the X fd is drained), so look before sleeping. With events
            // queued the other descriptors are still looked at, without waiting: X events that
            // never pause (a completion per frame) must not keep a signal from being read.
            _ = table.poll(connection: display.fileDescriptor, events: Int16(POLLIN), wait: display.pendingEvents == 0)
            table.runReadyReaders()
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
}
