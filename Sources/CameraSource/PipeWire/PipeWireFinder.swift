extension CameraFinder.Access {
    /// Cameras by the route pipcam takes without `--source`: PipeWire's camera nodes (named
    /// `pipewire:NAME`) when its daemon has any, then V4L2 cameras opened directly. Nodes whose
    /// device is among `never` (the virtual camera pipcam feeds) are left out either way.
    public static func anyRoute(
        excluding never: Set<String> = [],
        pipeWireCameras: @escaping @Sendable () -> [PipeWireNode]? = { PipeWireCameras.list() }
    ) -> CameraFinder.Access {
        let direct = v4l2(excluding: never)
        let nodes: @Sendable () -> [String] = {
            (pipeWireCameras() ?? []).filter { $0.devicePath.isEmpty || !never.contains(CameraCycle.resolved($0.devicePath)) }
                .map { "pipewire:" + $0.name }
        }
        return CameraFinder.Access(
            listNodes: { nodes() + direct.listNodes() },
            findCamera: { excluded in nodes().first { !excluded.contains($0) } ?? direct.findCamera(excluded) },
            makeCamera: { id, request in
                id.hasPrefix("pipewire:") ? PipeWireCamera(node: String(id.dropFirst(9)), request: request) : direct.makeCamera(id, request)
            })
    }
}
