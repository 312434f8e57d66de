/// Makes the source a spec names (not started yet: `start()` reports bad input).
public enum SourceFactory {
    /// `controls`: restores a V4L2 camera's remembered controls each time it is opened (default:
    /// from pipcam's own memory of each camera).
    public static func make(_ spec: SourceSpec, request: SourceRequest, controls: ControlRestorer? = .standard) -> FrameSource {
        if case .camera(let path) = spec {
            return ResilientCamera(path: path, request: request) { V4L2Camera(path: $0, request: $1, controls: controls) }
        }
        // Every other spec is a file or the test pattern, which SourceSpec makes itself.
        return spec.makeSource(request: request)!
    }
}
