#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// A camera read through PipeWire (`--source pipewire[:NAME]`): the daemon opens the camera once
/// and hands its frames to every program that reads it, so pipcam and a call app show it at once.
///
/// `start()` connects, picks the node (`PipeWireCameras.choose`), agrees on a format and pauses
/// the stream; the capture thread then takes the connection over and starts it again. A frame in
/// shared memory is shown from the daemon's buffer itself, through pipcam's own mapping of it
/// (which stays readable if the daemon takes the buffer away, the camera unplugged), and the
/// buffer goes back when the display is done with it; at most two are lent so, and none once
/// the producer was seen writing into a buffer pipcam still held. Other frames (RGBx, memory
/// pipcam cannot map) are copied into one of pipcam's own buffers, and the daemon's goes back at
/// once.
///
/// The node going away is `interrupted:disconnected` until a node of the same name comes back
/// (plugged in again); the daemon going away too, while pipcam connects again after 1, 2, 4 … 30 s.
/// Idle (`SourceControls.idle`), the stream pauses, and the daemon lets the camera go.
public final class PipeWireCamera: FrameSource {
    public let name: String
    public var spec: SourceSpec { .pipewire(node: wanted) }
    public var isLive: Bool { true }
    public var mirroredByDefault: Bool { true }
    public private(set) var frameWidth = 0
    public private(set) var frameHeight = 0
    public private(set) var frameFormat: PixelFormat?
    public private(set) var frameRate: Double?
    public var pollDescriptor: Int32? { reconnectAt == nil ? connection?.pollDescriptor : nil }
    public var cameraState: CameraState {
        if idle { return .interrupted(.idle) }
        return interruption.map { .interrupted($0) } ?? .streaming
    }

    /// The longest wait between two tries to reach a daemon that went away.
    public static let longestReconnectNanoseconds: Int64 = 30_000_000_000

    private let wanted: String?
    /// The size frames are shown at, as the window last said.
    var request: SourceRequest
    /// What the open stream asked for.
    var asked: PipeWireStreamRequest?
    let connect: PipeWireConnector
    var connection: PipeWireConnection?
    /// The camera node streamed from; a node of that name that appears is the camera back.
    var node: PipeWireNode?
    var streamOpen = false
    /// Whether this thread took the connection over from the one that started it.
    var claimed = false
    var interruption: CameraInterruption?
    var idle = false
    private var throttle = 0
    var reconnectAt: MonotonicInstant?
    var reconnectWait: Int64 = 1_000_000_000
    private var layout: V4L2FrameLayout?
    /// RGBx frames: turned into BGRx as they are copied.
    private var redFirst = false
    private var ring = BufferRing()
    /// Buffers lent to the display straight from the daemon's memory, by slot: frame buffer
    /// index `lentBase + slot`.
    private var lent: [Lent?] = [nil, nil]
    static let lentBase = 256
    /// The producer wrote into a buffer pipcam still held: frames are copied from then on.
    private var producerOverwrites = false
    private var sequence: UInt64 = 0
    private var lastProducerSequence: UInt64?
    /// Problems said on standard error, each once.
    private var said: Set<String> = []

    /// - Parameters:
    ///   - node: what follows `pipewire:` (nil: the first camera).
    ///   - connect: how to reach the daemon (tests pass a fake).
    public init(node: String?, request: SourceRequest, connect: @escaping PipeWireConnector = LibPipeWire.connect) {
        wanted = node
        name = node.map { "pipewire:\($0)" } ?? "pipewire"
        self.request = request
        self.connect = connect
    }

    deinit {
        for slot in lent.indices { lent[slot]?.connection.dropMemory(of: lent[slot]!.buffer) }
        ring.deallocate()
    }

    public func start() throws {
        let c = try connect()
        do {
            try c.dispatch(for: name, until: "the daemon's node list") { $0 == .registryReady }
            c.settle()
            let chosen = try PipeWireCameras.choose(wanted, among: c.nodes)
            node = chosen
            let ask = PipeWireCameras.streamRequest(target: chosen.name, for: request)
            try c.openStream(ask)
            asked = ask
            // Ended before any format while the node is still there: no format could be agreed
            // (the link's own error may be lost with the stream); with the node gone, it went.
            try c.dispatch(
                for: name, until: "a format from \(chosen.name)",
                unconnected: { [name] in
                    c.nodes.contains { $0.id == chosen.id && $0.serial == chosen.serial }
                        ? .badInput(thing: name, reason: "offers no format pipcam can show (its stream ended before a format was agreed)")
                        : .interrupted(thing: name, .disconnected)
                }
            ) { _ in c.streamFormat != nil }
            adopt(c.streamFormat)
            // Paused while no thread owns the connection: no frame is handled in between.
            c.setActive(false)
        } catch {
            c.disconnect()
            throw error
        }
        streamOpen = true
        ring.allocate(count: 3, byteCount: max(1, layout?.minimumBytes ?? 1 << 16))
        c.releaseThread()
        connection = c
    }

    public func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        if let at = reconnectAt {
            guard now >= at else { return .wait(deadline: at) }
            reconnect(now: now)
        }
        guard let c = connection else { return .wait(deadline: reconnectAt) }
        if !claimed {
            c.claimThread()
            claimed = true
            c.setActive(!idle)
            askAgainIfNeeded()
        }
        guard c.dispatch() else {
            lose(c, now: now, "the PipeWire daemon went away")
            return .wait(deadline: reconnectAt)
        }
        while let event = c.nextEvent() { follow(event, on: c, now: now) }
        if reconnectAt != nil { return .wait(deadline: reconnectAt) }
        guard streamOpen, !idle, interruption == nil, let buffer = c.takeNewestBuffer() else { return .wait(deadline: nil) }
        if buffer.redelivered { producerOverwrites = true }
        guard let (frameLayout, bytes) = admit(buffer) else {
            giveBackUnlessLent(buffer, on: c)
            return .wait(deadline: nil)
        }
        if let frame = lend(buffer, frameLayout, bytes, on: c) { return .frame(frame) }
        defer { giveBackUnlessLent(buffer, on: c) }
        return copy(buffer, frameLayout, bytes).map { .frame($0) } ?? .wait(deadline: nil)
    }

    public func recycle(bufferIndex: Int) {
        guard bufferIndex >= Self.lentBase else { return ring.release(bufferIndex) }
        let slot = bufferIndex - Self.lentBase
        guard lent.indices.contains(slot), let done = lent[slot] else { return }
        lent[slot] = nil
        // A connection lost meanwhile took its buffers with it; the memory is pipcam's to drop.
        if done.connection === connection { done.connection.giveBack(done.buffer) }
        done.connection.dropMemory(of: done.buffer)
    }

    public func stop() {
        connection?.disconnect()
        connection = nil
        streamOpen = false
    }

    /// Idle pauses the stream (the daemon suspends the camera a few seconds later, its light
    /// off) and resumes it after; throttled, one frame in 2ⁿ is kept.
    public func apply(_ controls: SourceControls) {
        throttle = controls.throttle
        if let size = controls.displaySize { follow(size) }
        guard controls.idle != idle else { return }
        idle = controls.idle
        if claimed, streamOpen { connection?.setActive(!idle) }
    }

    /// Shown at another size: the stream asks again for the mode that suits it, when that is
    /// another one (a node another program already runs keeps its own, which pipcam scales).
    /// Frames already copied out stay shown meanwhile.
    private func follow(_ size: SourceControls.DisplaySize) {
        guard size.width != request.displayWidth || size.height != request.displayHeight else { return }
        request.displayWidth = size.width
        request.displayHeight = size.height
        askAgainIfNeeded()
    }

    /// Opens the stream again with the request for the size shown now, if it is another one;
    /// only on the thread that owns the connection.
    private func askAgainIfNeeded() {
        guard claimed, streamOpen, let c = connection, let node else { return }
        let ask = PipeWireCameras.streamRequest(target: node.name, for: request)
        guard ask != asked else { return }
        do {
            try c.openStream(ask)
            asked = ask
            c.setActive(!idle)
        } catch {
            say("pipcam: \(error)")
            streamOpen = false
            interruption = .disconnected
        }
    }

    // MARK: frames

    /// Counts the buffer's frame; its layout and payload when it is one to show (not damaged,
    /// not skipped while throttled, not short).
    private func admit(_ buffer: PipeWireBuffer) -> (V4L2FrameLayout, Int)? {
        let producer = buffer.sequence
        let step = lastProducerSequence.map { producer > $0 ? producer - $0 : 1 } ?? 1
        lastProducerSequence = producer
        // The producer's numbers are its own (in shared memory): any jump, wrapping past the end.
        sequence &+= max(1, step) &+ UInt64(buffer.skipped)
        guard let layout, !buffer.corrupted, sequence % (1 << UInt64(min(throttle, 6))) == 0,
            buffer.byteCount >= (layout.minimumBytes ?? 1)
        else { return nil }
        let stride = buffer.stride
        let frameLayout = stride > 0 && stride != layout.planes.strides.0
            ? V4L2FrameLayout(
                pixelFormat: layout.pixelFormat, width: layout.width, height: layout.height, bytesPerLine: stride,
                colorimetry: layout.colorimetry)
            : layout
        // The producer's stride may need more bytes than the buffer holds: not shown, never read past.
        guard buffer.byteCount >= (frameLayout.minimumBytes ?? 1) else { return nil }
        return (frameLayout, min(buffer.byteCount, frameLayout.minimumBytes ?? buffer.byteCount))
    }

    /// The frame shown from the daemon's buffer itself, which stays lent until recycled (nil: not
    /// shared memory, RGBx, a producer that overwrites, or two lent already).
    private func lend(_ buffer: PipeWireBuffer, _ frameLayout: V4L2FrameLayout, _ bytes: Int, on c: PipeWireConnection) -> VideoFrame? {
        guard !producerOverwrites, !redFirst, let own = buffer.ownBase, !isLent(buffer),
            let slot = lent.firstIndex(where: { $0 == nil })
        else { return nil }
        c.keepMemory(of: buffer)
        lent[slot] = Lent(buffer: buffer, connection: c)
        return frameLayout.frame(
            base: own, bytesUsed: bytes, timestamp: buffer.timestamp, sequence: sequence, bufferIndex: Self.lentBase + slot)
    }

    private func isLent(_ buffer: PipeWireBuffer) -> Bool {
        lent.contains { $0?.buffer.handle == buffer.handle && $0?.buffer.stream == buffer.stream }
    }

    /// A buffer handed out again while lent goes back once, when the display gives it back.
    private func giveBackUnlessLent(_ buffer: PipeWireBuffer, on c: PipeWireConnection) {
        if !isLent(buffer) { c.giveBack(buffer) }
    }

    /// The buffer's frame copied into one of pipcam's buffers (nil: all out).
    private func copy(_ buffer: PipeWireBuffer, _ frameLayout: V4L2FrameLayout, _ bytes: Int) -> VideoFrame? {
        guard let index = ring.acquire() else { return nil }
        ring.reserve(index, byteCount: bytes, keeping: 0)
        if redFirst {
            Self.copySwappingRedAndBlue(from: buffer.base, to: ring.bases[index], byteCount: bytes)
        } else {
            ring.bases[index].copyMemory(from: buffer.base, byteCount: bytes)
        }
        return frameLayout.frame(
            base: ring.bases[index], bytesUsed: bytes, timestamp: buffer.timestamp, sequence: sequence, bufferIndex: index)
    }

    /// Takes the agreed format's layout, size and rate.
    func adopt(_ format: PipeWireStreamFormat?) {
        guard let format else { return }
        let colorimetry: Colorimetry = format.pixelFormat == .mjpeg
            ? .jpeg : format.pixelFormat.isYUV ? .standard(forHeight: format.height) : Colorimetry(matrix: .bt601, range: .full)
        layout = V4L2FrameLayout(
            pixelFormat: format.pixelFormat, width: format.width, height: format.height, bytesPerLine: 0, colorimetry: colorimetry)
        frameWidth = format.width
        frameHeight = format.height
        frameFormat = format.pixelFormat
        frameRate = format.frameRate
        redFirst = format.redFirst
    }

    /// R G B x pixels as B G R x (bytes 0 and 2 of each 32-bit pixel exchanged).
    static func copySwappingRedAndBlue(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, byteCount: Int) {
        let pixels = byteCount / 4
        let from = source.assumingMemoryBound(to: UInt32.self), to = target.assumingMemoryBound(to: UInt32.self)
        for i in 0..<pixels {
            let p = from[i]
            to[i] = (p & 0xFF00_FF00) | ((p & 0xFF) << 16) | ((p >> 16) & 0xFF)
        }
    }

    func say(_ line: String) {
        if said.insert(line).inserted { writeErrorLine(line) }
    }
}

/// A daemon's buffer a frame is shown from, and the connection it came through.
private struct Lent {
    var buffer: PipeWireBuffer
    var connection: PipeWireConnection
}
