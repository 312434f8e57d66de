extension CameraFinder.Access {
    /// Cameras by the route pipcam takes without `--source`: PipeWire's camera nodes (named
    /// `pipewire:NAME`) when its daemon has any, then V4L2 cameras opened directly. Nodes whose
    /// device is among `never` (the virtual camera pipcam feeds) are left out either way.
    public static func anyRoute(
        excluding never: Set<String> = [],
        pipeWireCameras: @escaping @Sendable () -> [PipeWireNode]? = PipeWireNodeWatch().cameras
    ) -> CameraFinder.Access {
        let direct = v4l2(excluding: never)
        // The finder names its cameras by their source spec's text, read back by the one parser.
        let nodes: @Sendable () -> [String] = {
            PipeWireCameras.usable(pipeWireCameras() ?? [], excluding: never).map { SourceSpec.pipewire(node: $0.name).description }
        }
        return CameraFinder.Access(
            listNodes: { nodes() + direct.listNodes() },
            findCamera: { excluded in nodes().first { !excluded.contains($0) } ?? direct.findCamera(excluded) },
            makeCamera: { key, request in
                if case .pipewire(let node)? = try? SourceSpec.parse(key) { return PipeWireCamera(node: node, request: request) }
                return direct.makeCamera(key, request)
            })
    }
}

/// The daemon's camera nodes for a finder that looks every two seconds: one connection kept open
/// between looks (a new client at each look would set the daemon and its session manager to work
/// every time), caught up at each look without waiting; connected again at a later look once
/// the daemon went away. Used from one thread at a time (the finder's); the connection is handed
/// back between looks, so that it may be closed from any thread.
public final class PipeWireNodeWatch: @unchecked Sendable {
    private let connect: PipeWireConnector
    private var connection: PipeWireConnection?

    public init(connect: @escaping PipeWireConnector = LibPipeWire.connect) { self.connect = connect }

    deinit { connection?.disconnect() }

    /// The camera nodes now; nil when no daemon answers.
    public func cameras() -> [PipeWireNode]? {
        if let c = connection {
            c.claimThread()
            guard c.dispatch() else {
                c.disconnect()
                connection = nil
                return nil
            }
            var added = false
            while let event = c.nextEvent() {
                if case .nodeAdded = event { added = true }
            }
            // A new node's description and device path follow it.
            if added { c.settle() }
            c.releaseThread()
            return PipeWireCameras.cameras(among: c.nodes)
        }
        guard let c = try? connect() else { return nil }
        guard (try? c.dispatch(for: "pipewire", until: "the daemon's node list", { $0 == .registryReady })) != nil else {
            c.disconnect()
            return nil
        }
        c.settle()
        c.releaseThread()
        connection = c
        return PipeWireCameras.cameras(among: c.nodes)
    }
}
