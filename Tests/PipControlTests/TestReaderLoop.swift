import Foundation
import PipControl
import PipCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A `ReaderLoop` for tests: poll(2) over its readers, timers by deadline, on a thread of its own.
/// Whatever touches what runs on it (a `ControlSocketServer`) goes through `perform`, which runs
/// on that thread; a reader or timer added or removed from any other thread is counted, and
/// `stop()` returns the count.
final class TestReaderLoop: ReaderLoop, @unchecked Sendable {
    private var readers: [Int32: () -> Void] = [:]
    private var timers: [Int: (deadline: MonotonicInstant, handler: () -> Void)] = [:]
    private var lastTimer = 0
    /// What lives on the loop's thread (servers), let go there: by `release` or as the loop stops.
    private var kept: [Int: AnyObject] = [:]
    private let lock = NSLock()
    private var queued: [() -> Void] = []
    private var stopping = false
    private var offThreadCalls = 0
    private var loopThread: pthread_t?
    private var wake: [Int32] = [-1, -1]
    private var thread: pthread_t?

    init() {
        precondition(pipe(&wake) == 0, "pipe failed: \(errno)")
        for fd in wake { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        let started = DispatchSemaphore(value: 0)
        thread = ThreadSpawn.start { [self] in
            lock.withLock { loopThread = pthread_self() }
            started.signal()
            run()
        }
        started.wait()
    }

    /// Runs `body` on the loop's thread and returns what it returns (or throws what it throws).
    func perform<T>(_ body: @escaping () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        var result: Result<T, any Error>?
        enqueue {
            result = Result(catching: body)
            done.signal()
        }
        done.wait()
        return try result!.get()
    }

    /// Ends the thread (after what is queued) and returns how many calls came from another thread.
    func stop() -> Int {
        lock.withLock { stopping = true }
        poke()
        if let thread { pthread_join(thread, nil) }
        thread = nil
        for fd in wake { close(fd) }
        return lock.withLock { offThreadCalls }
    }

    /// Keeps `object` until `release(key)` or the end (on the loop's thread); returns its key.
    func keep(_ object: AnyObject) -> Int {
        checkThread()
        lastTimer += 1
        kept[lastTimer] = object
        return lastTimer
    }

    /// What `keep` returned `key` for, no longer kept (the caller's is the last reference).
    func release(_ key: Int) -> AnyObject? {
        checkThread()
        return kept.removeValue(forKey: key)
    }

    // MARK: - ReaderLoop

    func addReader(_ fd: Int32, _ handler: @escaping () -> Void) {
        checkThread()
        readers[fd] = handler
    }

    func removeReader(_ fd: Int32) {
        checkThread()
        readers[fd] = nil
    }

    @discardableResult
    func schedule(at deadline: MonotonicInstant, _ handler: @escaping () -> Void) -> Int {
        checkThread()
        lastTimer += 1
        timers[lastTimer] = (deadline, handler)
        return lastTimer
    }

    func cancelTimer(_ id: Int) {
        checkThread()
        timers[id] = nil
    }

    // MARK: - The thread

    private func checkThread() {
        lock.withLock {
            if let loopThread, pthread_equal(loopThread, pthread_self()) != 0 { return }
            offThreadCalls += 1
        }
    }

    private func enqueue(_ work: @escaping () -> Void) {
        lock.withLock { queued.append(work) }
        poke()
    }

    private func poke() {
        var byte: UInt8 = 1
        _ = write(wake[1], &byte, 1)
    }

    private func run() {
        while true {
            let (work, stop) = lock.withLock { () -> ([() -> Void], Bool) in
                defer { queued = [] }
                return (queued, stopping)
            }
            for item in work { item() }
            if stop { return kept = [:] }
            fireDueTimers()
            var entries = [pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            entries += readers.keys.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&entries, nfds_t(entries.count), timeoutMilliseconds())
            if entries[0].revents != 0 {
                var sink = [UInt8](repeating: 0, count: 64)
                while read(wake[0], &sink, sink.count) > 0 {}
            }
            // A handler may remove another's descriptor: each is looked up again as it comes.
            for entry in entries.dropFirst() where entry.revents != 0 { readers[entry.fd]?() }
        }
    }

    private func fireDueTimers() {
        let now = MonotonicInstant.now()
        let due = timers.filter { $0.value.deadline <= now }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
        // A handler may cancel a later one: each is taken out only if it is still there.
        for (id, _) in due { timers.removeValue(forKey: id)?.handler() }
    }

    /// Until the nearest timer (at most 1 s: the queue wakes it anyway).
    private func timeoutMilliseconds() -> Int32 {
        guard let nearest = timers.values.map(\.deadline).min() else { return 1000 }
        let now = MonotonicInstant.now()
        guard nearest > now else { return 0 }
        return Int32(min((nearest.nanoseconds - now.nanoseconds + 999_999) / 1_000_000, 1000))
    }
}

/// Runs `body` with a new loop, then stops the loop and expects that nothing touched it off its thread.
func withLoop(_ body: (TestReaderLoop) throws -> Void) throws {
    let loop = TestReaderLoop()
    defer {
        let offThread = loop.stop()
        #expect(offThread == 0, "the server used the loop from another thread")
    }
    try body(loop)
}

/// A `ControlSocketServer` opened, configured and installed on the loop's thread, which records
/// what reaches its handler. `close()` uninstalls and releases it there.
final class HostedServer: @unchecked Sendable {
    /// How the handler answers: bytes and `untilExit`, or nil for no answer.
    typealias Answer = @Sendable (ControlWire.Received) -> (bytes: [UInt8], untilExit: Bool)?

    let loop: TestReaderLoop
    private var key = 0
    private let recorder = Recorder()

    static let answerDone: Answer = { _ in (Array("done\nok".utf8), false) }

    init(_ place: ControlSocketPlace, on loop: TestReaderLoop, requestNanoseconds: Int64? = nil,
         checkNanoseconds: Int64? = nil, answer: @escaping Answer = HostedServer.answerDone) throws {
        self.loop = loop
        key = try loop.perform { [recorder] in
            let server = try ControlSocketServer.open(place)
            if let requestNanoseconds { server.requestNanoseconds = requestNanoseconds }
            if let checkNanoseconds { server.checkNanoseconds = checkNanoseconds }
            server.onRequest = { received, reply in
                recorder.add(received)
                if let (bytes, untilExit) = answer(received) { reply(bytes, untilExit) }
            }
            server.install(on: loop)
            return loop.keep(server)
        }
    }

    /// What reached the handler, in order.
    var received: [ControlWire.Received] { recorder.all }

    /// Uninstalls and releases the server (closing its lock and connections); the loop stops
    /// serving it otherwise.
    func close() throws {
        try loop.perform { [loop, key] in
            (loop.release(key) as? ControlSocketServer)?.uninstall()
        }
    }
}

/// What reached a handler, read from the test's thread.
private final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [ControlWire.Received] = []
    func add(_ item: ControlWire.Received) { lock.withLock { items.append(item) } }
    var all: [ControlWire.Received] { lock.withLock { items } }
}

/// A client written by hand, for what `ControlSocketClient` never does (send nothing, keep reading).
enum RawClient {
    static func connect(to place: ControlSocketPlace) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in place.socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// What arrives within `milliseconds` (or until `count` bytes have), and whether the other end closed by then.
    static func read(_ fd: Int32, within milliseconds: Int, upTo count: Int = .max) -> (bytes: [UInt8], closed: Bool) {
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(milliseconds) * 1_000_000)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let now = MonotonicInstant.now()
            guard now < deadline, bytes.count < count else { return (bytes, false) }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32((deadline.nanoseconds - now.nanoseconds) / 1_000_000 + 1)) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return (bytes, true) }
            bytes += chunk.prefix(n)
        }
    }
}
