import CPipeWire
import PipCore

/// The PipeWire connection through libpipewire (loaded at run time by the `CPipeWire` shim): the
/// one Swift file that calls it.
public final class LibPipeWire: PipeWireConnection {
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    /// The camera node published on this connection (`PipeWirePublisher`).
    private var source: OpaquePointer?
    /// Streams opened so far: the number of the one open now.
    private var streams = 0

    /// Connects to the daemon of `$XDG_RUNTIME_DIR` (or `$PIPEWIRE_REMOTE`).
    public static let connect: PipeWireConnector = { () throws(SourceError) -> PipeWireConnection in try open() }

    private static func open() throws(SourceError) -> LibPipeWire {
        var context: OpaquePointer?
        var message = [CChar](repeating: 0, count: 512)
        let rc = pwshim_connect(&context, nil, &message, Int32(message.count))
        guard Int(rc) == PWSHIM_OK, let context else {
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            switch Int(rc) {
            case PWSHIM_ERR_NOLIB: throw SourceError.badInput(thing: "pipewire", reason: "libpipewire is not installed (\(detail))")
            case PWSHIM_ERR_NODAEMON: throw SourceError.badInput(thing: "pipewire", reason: "no PipeWire daemon answers for this user")
            default: throw SourceError.runtime(thing: "pipewire", reason: detail.isEmpty ? "cannot connect (\(rc))" : detail)
            }
        }
        return LibPipeWire(context: context)
    }

    private init(context: OpaquePointer) { self.context = context }

    deinit { disconnect() }

    public var pollDescriptor: Int32 { context.map { pwshim_get_fd($0) } ?? -1 }

    public func dispatch() -> Bool {
        guard let context else { return false }
        return Int(pwshim_iterate(context)) != PWSHIM_ERR_DISCONNECTED
    }

    public func nextEvent() -> PipeWireEvent? {
        guard let context else { return nil }
        var event = pwshim_event()
        while pwshim_next_event(context, &event) == 1 {
            let message = Self.string(&event.message)
            switch Int(event.type) {
            case PWSHIM_EV_REGISTRY_READY: return .registryReady
            case PWSHIM_EV_NODE_ADDED: return .nodeAdded(id: event.id)
            case PWSHIM_EV_NODE_CHANGED: return .nodeChanged(id: event.id)
            case PWSHIM_EV_NODE_REMOVED: return .nodeRemoved(id: event.id, name: message)
            case PWSHIM_EV_DISCONNECTED: return .disconnected(reason: message)
            case PWSHIM_EV_STREAM_STATE: return .streamState(Self.state(event.value), message: message)
            case PWSHIM_EV_STREAM_FORMAT: return .streamFormat
            case PWSHIM_EV_STREAM_LINK where Int(event.value) == PWSHIM_LINK_ERROR: return .linkFailed(message: message)
            default: continue
            }
        }
        return nil
    }

    public var nodes: [PipeWireNode] {
        guard let context else { return [] }
        var info = pwshim_node_info()
        return (0..<pwshim_node_count(context)).compactMap { index in
            guard Int(pwshim_node_at(context, index, &info)) == PWSHIM_OK else { return nil }
            // The snapshot's fields hold 255 bytes: a longer name or description is read whole
            // from the node's properties, or `--source pipewire:NAME` could not find it.
            func whole(_ key: String, _ cut: String) -> String {
                guard cut.utf8.count >= Int(PWSHIM_STR) - 1, let full = pwshim_node_prop(context, info.id, key) else { return cut }
                return String(cString: full)
            }
            return PipeWireNode(
                id: info.id, serial: info.serial, name: whole("node.name", Self.string(&info.name)),
                description: whole("node.description", Self.string(&info.description)),
                nick: Self.string(&info.nick), mediaClass: Self.string(&info.media_class), deviceAPI: Self.string(&info.device_api),
                devicePath: Self.string(&info.api_path), isPipcamShare: info.is_pipcam_share != 0)
        }
    }

    public func openStream(_ request: PipeWireStreamRequest) throws(SourceError) {
        guard let context else { throw SourceError.runtime(thing: "pipewire", reason: "not connected") }
        closeStream()
        var params = pwshim_stream_params()
        // 32-bit RGB either way round: RGBx is turned into BGRx as it is copied.
        params.formats = request.formats.reduce(0) { $0 | (Self.bits[$1] ?? 0) | ($1 == .bgra ? UInt32(PWSHIM_FMT_RGBX) : 0) }
        params.mjpg_first = request.formats.first == .mjpeg ? 1 : 0
        params.width = Int32(request.width)
        params.height = Int32(request.height)
        params.fps = Int32(request.frameRate)
        params.min_fps = 1
        params.max_fps = 240
        // Another camera instead, had this one gone: never (pipcam says the camera went).
        // Few buffers, every one mapped into pipcam: two may be lent to the display and one
        // taken to copy, which leaves the producer two.
        params.buffers = 5
        params.max_held = 3
        params.dont_reconnect = 1
        params.exact_first = 1
        var opened: OpaquePointer?
        let rc = request.target.withCString { target in
            params.target = target
            return "pipcam".withCString { name in
                params.stream_name = name
                return pwshim_stream_open(context, &params, &opened)
            }
        }
        guard Int(rc) == PWSHIM_OK, let opened else {
            throw SourceError.runtime(thing: "pipewire:\(request.target)", reason: String(cString: pwshim_last_error(context)))
        }
        stream = opened
        streams += 1
    }

    public var streamFormat: PipeWireStreamFormat? {
        guard let stream else { return nil }
        var format = pwshim_format()
        guard Int(pwshim_stream_format(stream, &format)) == PWSHIM_OK else { return nil }
        let redFirst = format.format == UInt32(PWSHIM_FMT_RGBX)
        guard let pixelFormat = redFirst ? PixelFormat.bgra : Self.bits.first(where: { $0.value == format.format })?.key else { return nil }
        let rate = format.fps_denom > 0 && format.fps_num > 0 ? Double(format.fps_num) / Double(format.fps_denom) : nil
        return PipeWireStreamFormat(
            pixelFormat: pixelFormat, width: Int(format.width), height: Int(format.height), frameRate: rate, redFirst: redFirst)
    }

    public func takeNewestBuffer() -> PipeWireBuffer? {
        guard let stream else { return nil }
        var frame = pwshim_frame()
        guard Int(pwshim_stream_dequeue(stream, 1, &frame)) == PWSHIM_OK, let handle = frame.handle else { return nil }
        guard let data = frame.data, frame.size > 0 else {
            pwshim_stream_queue(stream, handle)
            return nil
        }
        return PipeWireBuffer(
            base: UnsafeRawPointer(data), byteCount: Int(frame.size), stride: Int(frame.stride), sequence: frame.seq,
            // The producer's own numbering (a header) already counts the buffers given back unseen.
            timestamp: MonotonicInstant(nanoseconds: frame.recv_ns), skipped: frame.have_header != 0 ? 0 : Int(frame.dropped),
            corrupted: frame.corrupted != 0,
            handle: handle, ownBase: frame.own_data.map(UnsafeRawPointer.init), ownMemory: frame.own_map,
            redelivered: frame.redelivered != 0, stream: streams)
    }

    public func giveBack(_ buffer: PipeWireBuffer) {
        // A closed stream's buffers went with it; a handle of its may name one of the next's.
        guard let stream, buffer.stream == streams else { return }
        pwshim_stream_queue(stream, buffer.handle)
    }

    public func keepMemory(of buffer: PipeWireBuffer) { pwshim_map_ref(buffer.ownMemory) }

    public func dropMemory(of buffer: PipeWireBuffer) { pwshim_map_unref(buffer.ownMemory) }

    public func setActive(_ active: Bool) {
        if let stream { pwshim_stream_set_active(stream, active ? 1 : 0) }
    }

    public func closeStream() {
        if let stream { pwshim_stream_close(stream) }
        stream = nil
    }

    public func releaseThread() {
        if let context { pwshim_release_thread(context) }
    }

    public func claimThread() {
        if let context { pwshim_claim_thread(context) }
    }

    /// Also from a thread that does not own the connection, once released: the shim takes it over
    /// before it closes the stream.
    public func disconnect() {
        if let source {
            pwshim_source_close(source)
            self.source = nil
        }
        stream = nil
        if let context { pwshim_disconnect(context) }
        context = nil
    }

    // MARK: C values

    private static let bits: [PixelFormat: UInt32] = [
        .yuyv: UInt32(PWSHIM_FMT_YUY2), .nv12: UInt32(PWSHIM_FMT_NV12), .i420: UInt32(PWSHIM_FMT_I420),
        .bgra: UInt32(PWSHIM_FMT_BGRX), .rgb24: UInt32(PWSHIM_FMT_RGB), .mjpeg: UInt32(PWSHIM_FMT_MJPG),
    ]

    private static func state(_ value: Int32) -> PipeWireStreamState {
        switch Int(value) {
        case PWSHIM_STATE_ERROR: return .error
        case PWSHIM_STATE_CONNECTING: return .connecting
        case PWSHIM_STATE_PAUSED: return .paused
        case PWSHIM_STATE_STREAMING: return .streaming
        default: return .unconnected
        }
    }

    /// A fixed-size C string field.
    private static func string<T>(_ field: inout T) -> String {
        withUnsafeBytes(of: &field) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

extension LibPipeWire: PipeWirePublisher {
    /// Connects to the daemon to publish a node.
    public static let connectPublisher: PipeWirePublisherConnector = { () throws(SourceError) -> PipeWirePublisher in
        try open()
    }

    public func serve() -> Bool {
        guard dispatch() else { return false }
        while let event = nextEvent() {
            if case .disconnected = event { return false }
        }
        return true
    }

    public func publish(_ node: PipeWireNodeRequest) throws(SourceError) {
        guard let context, source == nil else { throw SourceError.runtime(thing: "pipewire:\(node.name)", reason: "not connected") }
        var params = pwshim_source_params()
        params.format = UInt32(node.format == .yuyv ? PWSHIM_FMT_YUY2 : PWSHIM_FMT_I420)
        params.width = Int32(node.width)
        params.height = Int32(node.height)
        params.fps_num = Int32(node.frameRate)
        params.fps_denom = 1
        var opened: OpaquePointer?
        let rc = node.name.withCString { name in
            params.name = name
            params.description = name
            return pwshim_source_open(context, &params, &opened)
        }
        guard Int(rc) == PWSHIM_OK, let opened else {
            let detail = String(cString: pwshim_last_error(context))
            throw SourceError.runtime(thing: "pipewire:\(node.name)", reason: detail.isEmpty ? "cannot publish the node (\(rc))" : detail)
        }
        source = opened
    }

    public var publishedNodeID: UInt32? {
        guard let source else { return nil }
        let id = pwshim_source_node_id(source)
        return id == UInt32.max ? nil : id
    }

    public var readers: Int { source.map { Int(pwshim_source_readers($0)) } ?? 0 }

    public func push(_ bytes: UnsafeRawBufferPointer, timestamp: MonotonicInstant) -> Bool {
        guard let source, let base = bytes.baseAddress else { return false }
        let rc = pwshim_source_push(source, base.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count), timestamp.nanoseconds)
        return Int(rc) == PWSHIM_OK
    }

    public func endReaders(_ message: String) -> Int {
        guard let source else { return 0 }
        return Int(pwshim_source_end_readers(source, message))
    }
}
