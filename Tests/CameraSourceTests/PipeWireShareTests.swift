@testable import CameraSource
import PipCore
import Testing
import TestSupport

/// The node `--share pipewire` publishes, on a scripted daemon: published at start, frames sent
/// only while a reader can take them, published again once a daemon that went away answers,
/// readers told the stream ended when pipcam ends.
@Suite(.timeLimit(.minutes(1))) struct PipeWireShareTests {
    /// One connection to the scripted daemon; `daemon` is shared by every connection made.
    final class Connection: PipeWirePublisher, @unchecked Sendable {
        let daemon: Daemon
        let wake = WakeSignal()
        private var node: PipeWireNodeRequest?
        private var id: UInt32 = 0
        init(_ daemon: Daemon) { self.daemon = daemon }

        var pollDescriptor: Int32 { wake.fd }
        func serve() -> Bool {
            wake.drain()
            return daemon.state.withLock { $0.up }
        }
        func publish(_ node: PipeWireNodeRequest) throws(SourceError) {
            self.node = node
            id = daemon.state.withLock { state in
                state.published.append(node.name)
                return 40 + UInt32(state.published.count)
            }
        }
        var publishedNodeID: UInt32? { node == nil ? nil : id }
        var readers: Int { daemon.state.withLock { $0.readers } }
        func push(_ bytes: UnsafeRawBufferPointer, timestamp: MonotonicInstant) -> Bool {
            daemon.state.withLock { state in
                guard state.up, state.readers > 0 else { return false }
                state.frames.append(bytes.first ?? 0)
                return true
            }
        }
        func endReaders(_ message: String) -> Int {
            daemon.state.withLock { state in
                state.ended.append(message)
                return state.readers
            }
        }
        func releaseThread() {}
        func claimThread() {}
        func disconnect() { daemon.state.withLock { $0.disconnected += 1 } }
    }

    final class Daemon: Sendable {
        struct State {
            var up = true
            var readers = 0
            var published: [String] = []
            var frames: [UInt8] = []
            var ended: [String] = []
            var disconnected = 0
        }
        let state = Locked(State())
        private let connections = Locked<[WakeSignal]>([])

        /// The daemon goes away: every connection hears it.
        func goDown() {
            state.withLock { $0.up = false }
            for wake in connections.withLock({ $0 }) { wake.signal() }
        }

        var connect: PipeWirePublisherConnector {
            { [self] () throws(SourceError) -> PipeWirePublisher in
                guard state.withLock({ $0.up }) else { throw SourceError.badInput(thing: "pipewire", reason: "no PipeWire daemon answers for this user") }
                let connection = Connection(self)
                connections.withLock { $0.append(connection.wake) }
                return connection
            }
        }
    }

    private let node = PipeWireNodeRequest(name: "pipcam", format: .yuyv, width: 4, height: 2, frameRate: 30)

    private func send(_ share: PipeWireShare, _ byte: UInt8) throws -> Bool {
        let bytes: [UInt8] = [byte] + [UInt8](repeating: 0, count: 15)
        return try bytes.withUnsafeBytes { try share.send($0, capturedAt: nil) }
    }

    @Test func framesGoOnlyToReadersAndTheEndIsToldToThem() throws {
        let daemon = Daemon()
        let share = try PipeWireShare(node: node, connect: daemon.connect)
        #expect(daemon.state.withLock { $0.published } == ["pipcam"] && share.nodeID == 41)
        #expect(try !send(share, 1), "no reader: nothing is written")
        daemon.state.withLock { $0.readers = 2 }
        #expect(try send(share, 2) && send(share, 3))
        #expect(share.readers == 2)
        share.close()
        share.close()
        #expect(daemon.state.withLock { ($0.frames, $0.ended, $0.disconnected) } == ([2, 3], ["pipcam ended"], 1))
        #expect(try !send(share, 4), "closed: nothing more")
    }

    @Test func withoutADaemonThereIsNoNode() {
        let daemon = Daemon()
        daemon.state.withLock { $0.up = false }
        #expect(throws: SourceError.badInput(thing: "pipewire", reason: "no PipeWire daemon answers for this user")) {
            _ = try PipeWireShare(node: node, connect: daemon.connect)
        }
    }

    /// The daemon goes: frames are not sent and the node has no id; it comes back: the node is
    /// published again (looked for each second) and readers get frames again.
    @Test func theNodeIsPublishedAgainWhenTheDaemonComesBack() throws {
        let daemon = Daemon()
        let share = try PipeWireShare(node: node, connect: daemon.connect)
        defer { share.close() }
        daemon.state.withLock { $0.readers = 1 }
        daemon.goDown()
        try waitUntil("the connection dropped", timeout: .seconds(5)) { share.nodeID == nil }
        #expect(try !send(share, 1))
        daemon.state.withLock { $0.up = true }
        try waitUntil("the node published again", timeout: .seconds(5)) { share.nodeID != nil }
        #expect(share.republished == 1 && daemon.state.withLock { $0.published } == ["pipcam", "pipcam"])
        #expect(try send(share, 2))
    }
}
