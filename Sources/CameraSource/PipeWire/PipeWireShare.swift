#if canImport(Glibc)
import Glibc
#endif
import PipCore
import Synchronization

/// `--share pipewire[:NAME]`: a camera node of pipcam's own in the user's PipeWire daemon
/// (media.class `Video/Source`, media.role `Camera`), which every program reading cameras through
/// PipeWire can open — several at once, with no kernel module.
///
/// The node is driven by the frames sent: each one is a cycle of the graph, so readers get the
/// camera's rate (and the placeholders' while it is away). A thread of its own answers the daemon
/// between frames; the capture thread sends frames straight into the daemon's shared buffers (one
/// copy), taking the connection from that thread under a lock. When the daemon restarts, the
/// node is published again. Closing tells the readers the stream ended, then removes the node.
public final class PipeWireShare: ShareOutput, @unchecked Sendable {
    private let node: PipeWireNodeRequest
    private let connect: PipeWirePublisherConnector
    /// The connection; nil while the daemon is away. Whoever holds the lock owns its thread.
    private let connection: Locked<PipeWirePublisher?>
    private let stop = WakeSignal()
    private let stopping = Atomic<Bool>(false)
    private var thread: pthread_t?
    /// Times the node was published again after the daemon came back.
    public var republished: Int { republishCount.load(ordering: .relaxed) }
    private let republishCount = Atomic<Int>(0)

    /// Connects and publishes `node` on the calling thread, waiting up to 5 s for the daemon to
    /// give it an id; then serves it on a thread of its own.
    public init(node: PipeWireNodeRequest, connect: @escaping PipeWirePublisherConnector = LibPipeWire.connectPublisher) throws(SourceError) {
        self.node = node
        self.connect = connect
        let c = try Self.publish(node, connect: connect)
        c.releaseThread()
        connection = Locked(c)
        thread = ThreadSpawn.start { [unowned self] in serve() }
    }

    deinit { close() }

    /// The node's id in the daemon, while it is published.
    public var nodeID: UInt32? { connection.withLock { $0?.publishedNodeID } }

    public var readers: Int? { connection.withLock { $0?.readers } }

    public func send(_ bytes: UnsafeRawBufferPointer, capturedAt: MonotonicInstant?) throws -> Bool {
        connection.withLock { c in
            guard let c else { return false }
            c.claimThread()
            defer { c.releaseThread() }
            return c.push(bytes, timestamp: capturedAt ?? .now())
        }
    }

    /// Tells the readers the stream ended and removes the node. Idempotent.
    public func close() {
        guard !stopping.exchange(true, ordering: .relaxed) else { return }
        stop.signal()
        if let thread { pthread_join(thread, nil) }
        connection.withLock { c in
            guard let publisher = c else { return }
            publisher.claimThread()
            if publisher.endReaders("pipcam ended") > 0 { Self.flush(publisher) }
            publisher.disconnect()
            c = nil
        }
    }

    private static func publish(_ node: PipeWireNodeRequest, connect: PipeWirePublisherConnector) throws(SourceError) -> PipeWirePublisher {
        let c = try connect()
        do throws(SourceError) {
            try c.publish(node)
            let end = MonotonicInstant.now().advanced(byNanoseconds: 5_000_000_000)
            while c.publishedNodeID == nil {
                guard MonotonicInstant.now() < end else {
                    throw SourceError.runtime(thing: "pipewire:\(node.name)", reason: "the PipeWire daemon did not take the node")
                }
                guard wait(c, milliseconds: 100), c.serve() else {
                    throw SourceError.runtime(thing: "pipewire:\(node.name)", reason: "the PipeWire daemon went away")
                }
            }
        } catch {
            c.disconnect()
            throw error
        }
        return c
    }

    /// Lets what the daemon has to hear go out (the readers' end) before the connection closes.
    private static func flush(_ c: PipeWirePublisher) {
        for _ in 0..<5 where wait(c, milliseconds: 20) {
            guard c.serve() else { return }
        }
    }

    private static func wait(_ c: PipeWirePublisher, milliseconds: Int32) -> Bool {
        var fd = pollfd(fd: c.pollDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&fd, 1, milliseconds) >= 0
    }

    /// Answers the daemon between frames; publishes the node again once a daemon that went away
    /// answers again (tried each second).
    private func serve() {
        while !stopping.load(ordering: .relaxed) {
            let fd: Int32? = connection.withLock { $0?.pollDescriptor }
            guard let fd else {
                if waitForStop(milliseconds: 1000) { return }
                if let c = try? Self.publish(node, connect: connect) {
                    c.releaseThread()
                    connection.withLock { $0 = c }
                    republishCount.add(1, ordering: .relaxed)
                }
                continue
            }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stop.fd, events: Int16(POLLIN), revents: 0)]
            guard SystemCall.retryingInterrupts({ poll(&fds, 2, 500) }).result >= 0 else { continue }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            connection.withLock { c in
                guard let publisher = c else { return }
                publisher.claimThread()
                if publisher.serve() {
                    publisher.releaseThread()
                } else {
                    // The daemon went away: its readers with it.
                    publisher.disconnect()
                    c = nil
                }
            }
        }
    }

    /// Sleeps up to `milliseconds`; true when asked to stop meanwhile.
    private func waitForStop(milliseconds: Int32) -> Bool {
        var fd = pollfd(fd: stop.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, milliseconds)
        return stopping.load(ordering: .relaxed)
    }
}
