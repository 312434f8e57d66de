/// Makes the source a spec names (not started yet: `start()` reports bad input).
public enum SourceFactory {
    public static func make(_ spec: SourceSpec, request: SourceRequest) -> FrameSource {
        if case .camera(let path) = spec { return ResilientCamera(path: path, request: request) }
        // Every other spec is a file or the test pattern, which SourceSpec makes itself.
        return spec.makeSource(request: request)!
    }
}
