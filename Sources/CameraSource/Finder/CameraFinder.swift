#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Hot-plug while the test pattern stands in for a camera (no `--source`, none plugged in): on a
/// thread of its own it looks for a camera as `CameraSearch` says, starts the one it finds there
/// and offers it to the capture side (`SwitchInbox.offer`), which hands over at its first frame as
/// for any switch. What became of the offer comes back here: a camera that took over ends the
/// search; one that failed is said once and waited out while the others are tried.
///
/// A camera of another kind is one more finder: another way to list and open, the same search.
public final class CameraFinder: Sendable {
    /// How cameras are listed and opened (tests pass fakes).
    public struct Access: Sendable {
        /// The device nodes cameras are found among; a look with the same ones as the last finds nothing new.
        public var listNodes: @Sendable () -> [String]
        /// The first camera's path not among those given, or nil.
        public var findCamera: @Sendable (_ excluding: Set<String>) -> String?
        /// The (unstarted) camera source for a path.
        public var makeCamera: @Sendable (String, SourceRequest) -> FrameSource

        public init(
            listNodes: @escaping @Sendable () -> [String], findCamera: @escaping @Sendable (_ excluding: Set<String>) -> String?,
            makeCamera: @escaping @Sendable (String, SourceRequest) -> FrameSource
        ) {
            self.listNodes = listNodes
            self.findCamera = findCamera
            self.makeCamera = makeCamera
        }

        /// V4L2 cameras under `/dev`, leaving out the nodes given (the virtual camera pipcam feeds).
        public static func v4l2(excluding never: Set<String> = []) -> Access {
            Access(
                listNodes: { CameraDiscovery.videoNodePaths().filter { !never.contains($0) } },
                findCamera: { CameraDiscovery().firstCaptureCameraPath(excluding: $0.union(never)) },
                makeCamera: { SourceFactory.make(.camera(path: $0), request: $1) })
        }
    }

    private let access: Access
    private let inbox: SwitchInbox
    /// Wakes the capture thread to take an offer.
    private let wakeCapture: WakeSignal
    /// What a camera found opens for: the size the picture is shown at by then.
    private let request: @Sendable () -> SourceRequest
    private let clock: @Sendable () -> MonotonicInstant
    /// Wakes the finder: an answer came, or it is to stop.
    private let wake = WakeSignal()
    private let answers = Locked<[(path: String, outcome: SwitchOutcome)]>([])
    private let stopping = Locked(false)
    private let thread = Locked<pthread_t?>(nil)

    public init(
        access: Access, inbox: SwitchInbox, wakeCapture: WakeSignal, request: @escaping @Sendable () -> SourceRequest,
        clock: @escaping @Sendable () -> MonotonicInstant = MonotonicInstant.now
    ) {
        self.access = access
        self.inbox = inbox
        self.wakeCapture = wakeCapture
        self.request = request
        self.clock = clock
    }

    /// Starts looking, on a thread of its own, until `stop()` or a camera took over.
    public func start() {
        thread.withLock { t in
            guard t == nil else { return }
            t = ThreadSpawn.start { [self] in run() }
        }
    }

    /// Stops looking and waits for the thread (which may be opening a camera: up to a second); a
    /// camera offered and not yet taken over is the capture side's to stop.
    public func stop() {
        stopping.withLock { $0 = true }
        wake.signal()
        if let t = thread.withLock({ t in defer { t = nil }; return t }) { pthread_join(t, nil) }
    }

    /// Stops looking without waiting (another source replaced the stand-in); `stop()` still joins.
    public func callOff() {
        stopping.withLock { $0 = true }
        wake.signal()
    }

    private var isStopping: Bool { stopping.withLock { $0 } }

    private func run() {
        var search = CameraSearch(now: clock())
        while !isStopping, search.phase != .over {
            wait(until: search.nextDeadline)
            let now = clock()
            for answer in takeAnswers() {
                switch answer.outcome {
                case .switched: search.end()
                case .failed(_, let reason):
                    let failure = search.failed(answer.path, now: now)
                    if failure.say { writeErrorLine("pipcam: \(reason); showing the test source meanwhile") }
                    offerCamera(excluding: failure.excluding, into: &search, now: now)
                }
            }
            if !isStopping, let excluding = search.look(nodes: access.listNodes(), now: now) {
                offerCamera(excluding: excluding, into: &search, now: now)
            }
        }
    }

    /// Starts the first camera not left out and offers it; each one that fails to start is said
    /// (once) and left out in turn, so this ends.
    private func offerCamera(excluding: Set<String>, into search: inout CameraSearch, now: MonotonicInstant) {
        var excluded = excluding
        while !isStopping, let path = access.findCamera(excluded) {
            let camera = access.makeCamera(path, request())
            do {
                try camera.start()
                // Held by another application: no use as long as it is; tried again later.
                if case .interrupted(let why) = camera.cameraState, why != .pressure {
                    throw SourceError.runtime(thing: path, reason: why.reason)
                }
            } catch {
                camera.stop()
                let failure = search.failed(path, now: now)
                if failure.say { writeErrorLine("pipcam: \(error); showing the test source meanwhile") }
                excluded = failure.excluding
                continue
            }
            search.offered(path)
            inbox.offer(camera) { [self] outcome in
                answers.withLock { $0.append((path, outcome)) }
                wake.signal()
            }
            wakeCapture.signal()
            return
        }
    }

    private func takeAnswers() -> [(path: String, outcome: SwitchOutcome)] {
        wake.drain()
        return answers.withLock { a in
            defer { a.removeAll() }
            return a
        }
    }

    /// Waits for an answer, `stop()`, or `deadline` (nil: no timer).
    private func wait(until deadline: MonotonicInstant?) {
        var timeout: Int32 = -1
        if let deadline {
            let now = clock()
            guard deadline > now else { return }
            timeout = Int32(min((deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000, 60_000))
        }
        var fd = pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&fd, 1, timeout)
    }
}
