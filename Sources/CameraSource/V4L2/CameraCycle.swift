/// Which camera `pipcam switch next` takes: the one after the camera shown, in the order
/// `CameraDiscovery.captureCameraPaths` lists them, round to the first.
public enum CameraCycle {
    /// The camera after `current` among `cameras`, wrapping; the first one when `current` is not
    /// a camera of the list (a file, the test source, a camera since unplugged); nil when there is
    /// no camera other than `current`. Paths name the same camera when `resolve` makes them equal
    /// (a `/dev/v4l/by-id` link and its node).
    public static func next(
        after current: String?, among cameras: [String], resolve: (String) -> String = CameraCycle.resolved
    ) -> String? {
        let shown = current.map(resolve)
        let others = cameras.filter { resolve($0) != shown }
        guard !others.isEmpty else { return nil }
        guard let shown, let at = cameras.firstIndex(where: { resolve($0) == shown }) else { return others[0] }
        let after = cameras[(at + 1)...].first { resolve($0) != shown }
        return after ?? others[0]
    }

    /// The path with every symbolic link followed (itself when that fails).
    public static func resolved(_ path: String) -> String {
        DevicePath.real(path) ?? path
    }
}
