/// Makes the source a spec names (not started yet: `start()` reports bad input).
public enum SourceFactory {
    public static func make(_ spec: SourceSpec, request: SourceRequest) -> FrameSource {
        switch spec {
        case .camera(let path):
            return V4L2Camera(path: path, request: request)
        case .test:
            return TestPatternSource()
        case .y4m(let path):
            return Y4MSource(path: path, request: request)
        case .raw(let path, let width, let height, let format, let fps):
            return RawSource(path: path, width: width, height: height, format: format, fps: fps, request: request)
        case .mjpeg(let path, let fps):
            return MJPEGSource(path: path, fps: fps, request: request)
        }
    }
}
