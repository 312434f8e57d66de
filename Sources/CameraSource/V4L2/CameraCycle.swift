/// Which camera `pipcam switch next` takes: the one after the camera shown, in the order
/// `CameraDiscovery.captureCameraPaths` lists them, round to the first.
public enum CameraCycle {
    /// The camera after `current` among `cameras`, wrapping; the first one when `current` is not
    /// a camera of the list (a file, the test source, a camera since unplugged); nil when there is
    /// no camera other than `current`. Paths name the same camera when `resolve` makes them equal
    /// (a `/dev/v4l/by-id` link and its node).
    public static func next(
        after current: SourceSpec?, among cameras: [SourceSpec], resolve: (String) -> String = CameraCycle.resolved
    ) -> SourceSpec? {
        // One camera however its device is named: a device by the node its path resolves to.
        func same(_ spec: SourceSpec) -> SourceSpec { spec.devicePath.map { .camera(path: resolve($0)) } ?? spec }
        let shown = current.map(same)
        let others = cameras.filter { same($0) != shown }
        guard !others.isEmpty else { return nil }
        guard let shown, let at = cameras.firstIndex(where: { same($0) == shown }) else { return others[0] }
        let after = cameras[(at + 1)...].first { same($0) != shown }
        return after ?? others[0]
    }

    /// The path with every symbolic link followed (itself when that fails).
    public static func resolved(_ path: String) -> String {
        DevicePath.real(path) ?? path
    }
}
