#if canImport(Glibc)
import Glibc
#endif
import PipCore
import Synchronization

/// Runs a `FrameSource` on its own thread and posts its frames to a `FrameMailbox`.
///
/// The source is started by the caller (so bad input is reported before any window opens) and is
/// only touched from the pump's thread afterwards; `stop()` stops it there. A frame still waiting
/// in the mailbox is withdrawn first; frames taken and not given back must not be used after
/// `stop()` (a camera's buffers are unmapped with it).
public final class FramePump: @unchecked Sendable {
    public let mailbox: FrameMailbox
    private let source: FrameSource
    /// The source the pump runs, for what it says before `run()` (its camera's state, its shape,
    /// live or not); the capture thread's alone afterwards.
    public var sourceBeforeRun: FrameSource { source }
    /// The virtual camera every captured frame is also written to (`--share`), if any.
    public let share: CameraShare?
    private let stopRequested = Atomic<Bool>(false)
    private var thread: pthread_t?
    private var governor: PressureGovernor
    /// What `--share` changes of what the capture side does.
    public let policy: CapturePolicy
    /// Capture thread only: what the display side asks, the governor's level, and the controls
    /// the source has now.
    private var requested = SourceControls(), throttle = 0, applied = SourceControls()
    /// Where the pump reads the time: the frames' `now` and its waits' timeouts.
    private let clock: @Sendable () -> MonotonicInstant
    /// The source's name when the pump was made; the status carries a name only once it differs.
    private let startName: String
    /// Who holds a camera in use by another program, and how to find out (a /proc scan).
    private var holders = HolderWatch()
    private let lookUpHolder: @Sendable (String) -> String?
    /// Posted by the capture thread as it ends.
    private let ended = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    /// How long `stop` waits for the capture thread before leaving it behind.
    public static let stopWaitSeconds = 2

    /// - Parameters:
    ///   - source: a started source; the pump owns it from now on.
    ///   - mailbox: where frames go.
    ///   - governor: decides when a live source is throttled (tests pass shorter windows).
    ///   - share: a virtual camera to write every captured frame to. While it is fed the camera
    ///     keeps its mode (chosen for the call, not the window) and is never throttled.
    ///   - now: the clock (tests pass one they move on themselves).
    ///   - lookUpHolder: who has a device open, e.g. `firefox, pid 4242` (tests pass their own).
    public init(
        source: FrameSource, mailbox: FrameMailbox = FrameMailbox(), governor: PressureGovernor = PressureGovernor(),
        share: CameraShare? = nil, now: @escaping @Sendable () -> MonotonicInstant = MonotonicInstant.now,
        lookUpHolder: @escaping @Sendable (String) -> String? = { DeviceOpeners.holderText(of: $0) }
    ) {
        self.lookUpHolder = lookUpHolder
        self.source = source
        self.share = share
        self.mailbox = mailbox
        self.governor = governor
        policy = CapturePolicy(fed: share?.device)
        clock = now
        startName = source.name
        sem_init(ended, 0, 0)
        // The display reads the source's own status from the start, not the mailbox's default.
        mailbox.startStatus(of: source.spec)
        publishStatus()
    }

    deinit {
        sem_destroy(ended)
        ended.deallocate()
    }

    /// Starts the capture thread. End it with `stop()`: the thread holds the pump, so releasing
    /// the pump does not stop it (nor the source).
    public func run() {
        thread = ThreadSpawn.start { [self] in loop() }
    }

    /// Asks the capture thread to stop the source and end, and waits for it — at most
    /// `stopWaitSeconds`: a source blocked in a read that never returns (a pipe whose writer
    /// stalls) is left behind rather than keeping the program from exiting.
    public func stop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        mailbox.toCapture.signal()
        guard let t = thread else { return }
        thread = nil
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_sec += Self.stopWaitSeconds
        let (rc, _) = SystemCall.retryingInterrupts { sem_timedwait(ended, &deadline) }
        if rc == 0 { pthread_join(t, nil) } else { pthread_detach(t) }
    }

    private func loop() {
        defer {
            recycleReturnedBuffers()
            if let index = mailbox.withdraw() { source.recycle(bufferIndex: index) }
            source.stop()
            sem_post(ended)
        }
        var ended = false
        while true {
            // Wake-ups are taken before the stop flag is read: `stop` sets the flag, then signals,
            // so a signal taken here is either for a stop seen just below or still pending for the
            // poll. Read the other way round, a stop between the two reads was drained and lost,
            // and the thread slept in poll for good (seen once in CI: `stop` waited forever).
            mailbox.toCapture.drain()
            if stopRequested.load(ordering: .sequentiallyConsistent) { break }
            recycleReturnedBuffers()
            if let request = mailbox.takeRequest() {
                requested = request
                applyControls()
            }
            if ended || (!source.isLive && mailbox.hasPending) {
                wait(deadline: nil, includeSource: false)
                continue
            }
            do {
                let now = clock()
                let step = try source.nextFrame(now: now)
                publishStatus()
                switch step {
                case .frame(let frame):
                    share?.offer(frame, now: now)
                    // No window shows a live source's frames: straight back, and the display
                    // thread sleeps on (a file waits for a window instead, every frame kept).
                    if requested.unseen && source.isLive {
                        source.recycle(bufferIndex: frame.bufferIndex)
                        continue
                    }
                    let stale = mailbox.post(frame)
                    if let stale { source.recycle(bufferIndex: stale) }
                    if source.isLive, policy.throttlesUnderPressure, let level = governor.record(replacedStale: stale != nil, now: now) {
                        throttle = level
                        applyControls()
                    }
                case .wait(let deadline):
                    wait(deadline: earliest(deadline, share?.tick(now: clock())), includeSource: true)
                case .end:
                    ended = true
                    mailbox.finish(.endOfStream)
                }
            } catch let error as SourceError {
                ended = true
                mailbox.finish(.failed(error))
            } catch {
                ended = true
                mailbox.finish(.failed(.runtime(thing: source.name, reason: "\(error)")))
            }
        }
    }

    /// Gives the source the controls the policy makes of the request and the governor's level,
    /// when they changed.
    private func applyControls() {
        let controls = policy.controls(requested: requested, throttle: throttle)
        guard controls != applied else { return }
        let letGo = controls.idle && !applied.idle
        applied = controls
        source.apply(controls)
        // A camera let go closes once every frame is back: the one waiting here too.
        if letGo, let index = mailbox.withdraw() { source.recycle(bufferIndex: index) }
        publishStatus()
    }

    private func earliest(_ a: MonotonicInstant?, _ b: MonotonicInstant?) -> MonotonicInstant? {
        guard let a, let b else { return a ?? b }
        return min(a, b)
    }

    private func publishStatus() {
        share?.frameRateChanged(source.frameRate)
        let camera = source.cameraState
        let spec = source.spec
        let holder = holders.update(camera: camera, device: spec.devicePath, now: clock(), lookUp: lookUpHolder)
        mailbox.publish(SourceStatus(
            camera: camera, prefersMirror: source.mirroredByDefault, frames: source.expectedFrames,
            name: source.name == startName ? nil : source.name, spec: spec, isLive: source.isLive, holder: holder, playback: source.playback))
        if source.needsBuffersBack { mailbox.requestRelease() }
    }

    private func recycleReturnedBuffers() {
        mailbox.drainReturns { source.recycle(bufferIndex: $0) }
    }

    private func wait(deadline: MonotonicInstant?, includeSource: Bool) {
        var fds = (
            pollfd(fd: mailbox.toCapture.fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: includeSource ? (source.pollDescriptor ?? -1) : -1, events: Int16(POLLIN), revents: 0)
        )
        var timeout: Int32 = -1
        if let deadline {
            let now = clock()
            let ns = deadline > now ? deadline.nanoseconds - now.nanoseconds : 0
            timeout = Int32(min((ns + 999_999) / 1_000_000, 60_000))
            if timeout == 0 { return }
        }
        _ = withUnsafeMutableBytes(of: &fds) { raw in
            poll(raw.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, timeout)
        }
        // V4L2 reports POLLERR with no buffer queued and after an unplug; DQBUF then says what it
        // is, but a readable error must not turn this loop into a spin while that is sorted out.
        if fds.1.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 && fds.0.revents == 0 { usleep(10_000) }
    }
}
