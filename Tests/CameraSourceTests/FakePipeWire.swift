@testable import CameraSource
import PipCore

/// A PipeWire daemon as a test scripts it: nodes, events, a stream whose buffers the test fills.
final class FakePipeWire: PipeWireConnection, @unchecked Sendable {
    var nodes: [PipeWireNode]
    /// Events handed out by `nextEvent`, oldest first.
    var events: [PipeWireEvent]
    /// The format a stream agrees on when opened (nil: none comes).
    var formatOnOpen: PipeWireStreamFormat?
    private(set) var streamFormat: PipeWireStreamFormat?
    /// false: `dispatch` says the daemon went away.
    var alive = true
    private(set) var opened: [PipeWireStreamRequest] = []
    private(set) var active: Bool?
    private(set) var log: [String] = []
    /// Filled buffers waiting, oldest first; lent ones are out until given back.
    private var filled: [PipeWireBuffer] = []
    private(set) var lent: Set<UnsafeMutableRawPointer> = []
    /// Buffers come in shared memory pipcam maps itself (`PipeWireBuffer.ownBase`).
    var sharedMemory = false
    /// References to each buffer's own mapping that pipcam keeps.
    private(set) var kept: [UnsafeMutableRawPointer: Int] = [:]
    /// Streams opened so far: the number of the one open now.
    private var streams = 0
    private var memory: [UnsafeMutableRawPointer] = []
    private let wake = WakeSignal()
    private var producerSequence: UInt64 = 0

    init(nodes: [PipeWireNode], events: [PipeWireEvent] = [.registryReady], formatOnOpen: PipeWireStreamFormat? = nil) {
        self.nodes = nodes
        self.events = events
        self.formatOnOpen = formatOnOpen
    }

    deinit { for block in memory { block.deallocate() } }

    var pollDescriptor: Int32 { wake.fd }

    func dispatch() -> Bool { alive }

    func nextEvent() -> PipeWireEvent? {
        guard !events.isEmpty else { return nil }
        let event = events.removeFirst()
        // As the daemon's list: a node removed is gone from it once its event is read.
        if case .nodeRemoved(let id, _) = event { nodes.removeAll { $0.id == id } }
        return event
    }

    func openStream(_ request: PipeWireStreamRequest) throws(SourceError) {
        opened.append(request)
        streams += 1
        log.append("open \(request.target)")
        if let formatOnOpen {
            streamFormat = formatOnOpen
            events.append(.streamFormat)
        }
    }

    /// A buffer of `byteCount` bytes, every one `value`, as the producer fills it.
    func fill(byteCount: Int, value: UInt8, stride: Int = 0, skipped: Int = 0, sequence: UInt64? = nil) {
        fill(bytes: [UInt8](repeating: value, count: byteCount), stride: stride, skipped: skipped, sequence: sequence)
    }

    /// The buffer `handle` (still lent) filled again and handed out again, as a producer that
    /// writes into buffers it lent out does.
    func refill(_ handle: UnsafeMutableRawPointer, value: UInt8, byteCount: Int) {
        handle.initializeMemory(as: UInt8.self, repeating: value, count: byteCount)
        producerSequence += 1
        filled.append(PipeWireBuffer(
            base: handle, byteCount: byteCount, stride: 0, sequence: producerSequence,
            timestamp: MonotonicInstant(nanoseconds: 5_000_000_000 &+ producerSequence), handle: handle,
            ownBase: sharedMemory ? UnsafeRawPointer(handle) : nil, ownMemory: sharedMemory ? handle : nil, redelivered: true,
            stream: streams))
    }

    /// A buffer holding `bytes`, as the daemon fills one.
    func fill(bytes: [UInt8], stride: Int = 0, skipped: Int = 0, sequence: UInt64? = nil) {
        let byteCount = bytes.count
        let block = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        bytes.withUnsafeBytes { block.copyMemory(from: $0.baseAddress!, byteCount: byteCount) }
        memory.append(block)
        producerSequence = sequence ?? producerSequence + 1
        filled.append(PipeWireBuffer(
            base: block, byteCount: byteCount, stride: stride, sequence: producerSequence,
            timestamp: MonotonicInstant(nanoseconds: 5_000_000_000 &+ producerSequence), skipped: skipped, handle: block,
            ownBase: sharedMemory ? UnsafeRawPointer(block) : nil, ownMemory: sharedMemory ? block : nil, stream: streams))
    }

    /// A new format mid-stream, as when another program changed the camera's mode.
    func change(to format: PipeWireStreamFormat) {
        streamFormat = format
        events.append(.streamFormat)
    }

    func takeNewestBuffer() -> PipeWireBuffer? {
        guard let newest = filled.popLast() else { return nil }
        filled.removeAll()
        lent.insert(newest.handle)
        return newest
    }

    func giveBack(_ buffer: PipeWireBuffer) {
        guard buffer.stream == streams else { return }
        lent.remove(buffer.handle)
    }

    func keepMemory(of buffer: PipeWireBuffer) {
        if let memory = buffer.ownMemory { kept[memory, default: 0] += 1 }
    }

    func dropMemory(of buffer: PipeWireBuffer) {
        guard let memory = buffer.ownMemory, let n = kept[memory] else { return }
        kept[memory] = n > 1 ? n - 1 : nil
    }

    func setActive(_ active: Bool) {
        self.active = active
        log.append(active ? "active" : "paused")
    }

    func closeStream() {
        streamFormat = nil
        filled.removeAll()
        lent.removeAll()
        log.append("close")
    }

    func releaseThread() { log.append("release") }
    func claimThread() { log.append("claim") }

    func disconnect() {
        closeStream()
        log.append("disconnect")
    }
}
