import PipCore

/// What pipcam shows when no `--source` was given and there is no camera: the test pattern, while it
/// looks for a camera every two seconds; a camera that appears is taken (hot-plug) and kept.
///
/// Looking is cheap when nothing changed: the cameras are opened and asked only when the
/// `/dev/video*` nodes differ from the last look (or a camera that failed is due again). A camera
/// that fails to start is reported once and tried again after 2, 4, … up to 64 s, other cameras
/// meanwhile.
public final class HotplugSource: FrameSource {
    /// What a camera that takes over is opened for; its display size follows `SourceControls.displaySize`,
    /// so the camera opens in the mode for the size shown now, not the size at start-up.
    private var request: SourceRequest
    private let findCamera: (_ excluding: Set<String>) -> String?
    private let listNodes: () -> [String]
    /// The nodes at the last look; nil before the first.
    private var knownNodes: [String]?
    /// Cameras that failed to start: when to try each again, and the wait after that.
    private var failed: [String: (retryAt: MonotonicInstant, backoff: Int64)] = [:]
    /// Cameras whose failure was reported (once per node, until it goes).
    private var reported: Set<String> = []
    private let makeCamera: (String, SourceRequest) -> FrameSource
    private var current: FrameSource
    private var isCamera = false
    private var pendingCamera: String?
    private var nextProbe = MonotonicInstant(nanoseconds: 0)
    /// Frames of the current source handed out and not yet recycled.
    private var outstanding = 0
    /// The controls in effect, handed on whole to a camera that takes over.
    private var controls = SourceControls()

    /// How often to look for a camera.
    public static let probeNanoseconds: UInt64 = 2_000_000_000
    /// The longest wait before a camera that failed to start is tried again.
    public static let longestRetryNanoseconds: Int64 = 64_000_000_000

    /// - Parameters:
    ///   - findCamera: the first capture camera's path not among those given, or nil
    ///     (`CameraDiscovery().firstCaptureCameraPath(excluding:)`).
    ///   - listNodes: the device nodes cameras are found among; a look with the same ones as the
    ///     last finds nothing new.
    ///   - makeCamera: makes the (unstarted) camera source for a path.
    public init(
        request: SourceRequest, findCamera: @escaping (_ excluding: Set<String>) -> String?,
        listNodes: @escaping () -> [String] = CameraDiscovery.videoNodePaths,
        makeCamera: @escaping (String, SourceRequest) -> FrameSource = { ResilientCamera(path: $0, request: $1) },
        placeholder: FrameSource = TestPatternSource()
    ) {
        self.request = request
        self.findCamera = findCamera
        self.listNodes = listNodes
        self.makeCamera = makeCamera
        current = placeholder
    }

    public var name: String { current.name }
    public var isLive: Bool { true }
    public var mirroredByDefault: Bool { current.mirroredByDefault }
    public var frameWidth: Int { current.frameWidth }
    public var frameHeight: Int { current.frameHeight }
    public var frameFormat: PixelFormat? { current.frameFormat }
    public var frameRate: Double? { current.frameRate }
    public var pollDescriptor: Int32? { current.pollDescriptor }
    public var cameraState: CameraState { isCamera ? current.cameraState : .waiting }
    public var needsBuffersBack: Bool { isCamera ? current.needsBuffersBack : pendingCamera != nil && outstanding > 0 }

    public func start() throws { try current.start() }

    /// A camera that takes over opens in the mode for the size shown by then.
    public func apply(_ controls: SourceControls) {
        self.controls = controls
        if let size = controls.displaySize {
            request.displayWidth = size.width
            request.displayHeight = size.height
        }
        current.apply(controls)
    }

    public func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        if !isCamera {
            try lookForCamera(now: now)
            // A camera was found: hand out no more test frames until the last ones are back.
            if pendingCamera != nil { return .wait(deadline: nil) }
        }
        let step = try current.nextFrame(now: now)
        switch step {
        case .frame: outstanding += 1
        case .wait(let deadline) where !isCamera:
            let probe = pendingCamera == nil ? nextProbe : nil
            return .wait(deadline: [deadline, probe].compactMap { $0 }.min())
        default: break
        }
        return step
    }

    public func recycle(bufferIndex: Int) {
        outstanding -= 1
        current.recycle(bufferIndex: bufferIndex)
    }

    public func stop() { current.stop() }

    /// Switches to a camera once one is found and every test-pattern frame is back.
    private func lookForCamera(now: MonotonicInstant) throws {
        if pendingCamera == nil, now >= nextProbe {
            nextProbe = now.advanced(byNanoseconds: Int64(Self.probeNanoseconds))
            let nodes = listNodes()
            let changed = nodes != knownNodes
            knownNodes = nodes
            if changed {
                failed = failed.filter { nodes.contains($0.key) }
                reported = reported.filter { nodes.contains($0) }
            }
            // Opening every node is what costs; what it finds changes only with the nodes.
            if changed || failed.values.contains(where: { now >= $0.retryAt }) {
                pendingCamera = findCamera(waitingOut(at: now))
            }
        }
        // Each camera that fails joins those waited out, so this ends.
        while let path = pendingCamera, outstanding == 0 {
            pendingCamera = nil
            let camera = makeCamera(path, request)
            do {
                try camera.start()
            } catch {
                // Not usable after all (no mode it can stream, the USB bus full): said once, tried
                // again later, and the other cameras meanwhile.
                if reported.insert(path).inserted { writeErrorLine("pipcam: \(error); showing the test source meanwhile") }
                let backoff = min(2 * (failed[path]?.backoff ?? Int64(Self.probeNanoseconds) / 2), Self.longestRetryNanoseconds)
                failed[path] = (now.advanced(byNanoseconds: backoff), backoff)
                // Another camera may be there: tried now, as nothing may wake the capture thread
                // later (no test frame out to come back, no descriptor to poll).
                pendingCamera = findCamera(waitingOut(at: now))
                continue
            }
            // The pump's governor keeps its level: the camera must start there, or the governor's
            // next step down would throttle a camera under no pressure.
            camera.apply(controls)
            current.stop()
            current = camera
            isCamera = true
        }
    }

    /// The cameras that failed and are not due again at `now`.
    private func waitingOut(at now: MonotonicInstant) -> Set<String> {
        Set(failed.filter { now < $0.value.retryAt }.keys)
    }
}
