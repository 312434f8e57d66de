#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// A V4L2 camera as a `FrameSource`: memory-mapped streaming I/O through a `V4L2Device`, frames
/// handed out in place (no copies), each buffer requeued when the display gives it back.
///
/// `start()` picks the mode with `V4L2ModeSelector` for the request's display size and sets it;
/// `nextFrame(now:)` never blocks (it returns `.wait(deadline: nil)`: poll `pollDescriptor`).
/// Driven from one thread. Frames must not be used after `stop()` (their buffers are unmapped).
public final class V4L2Camera: FrameSource {
    /// Why a camera that was fine stopped delivering: a later start may succeed.
    public typealias Interruption = CameraInterruption

    /// Buffers asked for; the driver may give more or fewer (at least 2 needed).
    public static let requestedBufferCount = 4
    /// EIO from DQBUF this many times in a row restarts the stream.
    public static let ioErrorsBeforeRestart = 3
    /// Stream restarts with no good frame in between before giving up.
    public static let restartsBeforeFailure = 3
    /// How long buffers may stay queued with no frame before the stream counts as stalled (the
    /// driver stopped filling them without an error) and is restarted: after frames came, and
    /// for the first frame, which some cameras take a second or two to expose. Each restart
    /// that brings nothing doubles the wait, up to `longestStallNanoseconds`.
    public static let stallNanoseconds: Int64 = 3_000_000_000
    public static let firstFrameStallNanoseconds: Int64 = 6_000_000_000
    public static let longestStallNanoseconds: Int64 = 48_000_000_000
    /// How long a v4l2loopback device may go without a frame before its writer counts as gone.
    public static let loopbackWriterGoneNanoseconds: Int64 = 2_000_000_000

    /// The device path.
    public let name: String
    public var spec: SourceSpec { .camera(path: name) }
    public let request: SourceRequest
    public var isLive: Bool { true }
    public var mirroredByDefault: Bool { true }
    public var frameWidth: Int { layout?.width ?? 0 }
    public var frameHeight: Int { layout?.height ?? 0 }
    public var frameFormat: PixelFormat? { layout?.pixelFormat }
    public private(set) var frameRate: Double?
    public var pollDescriptor: Int32? { device?.fileDescriptor }

    /// What the device said about itself (after `start()`).
    public private(set) var capabilities: V4L2Capabilities?
    /// The mode chosen from the enumerated ones.
    public private(set) var choice: V4L2ModeChoice?
    /// The modes enumerated for the request (those worth asking for at its display size).
    public private(set) var modes: [V4L2Mode] = []
    /// The format in effect (re-read with G_FMT after setting it).
    public private(set) var format: V4L2PixFormat?
    /// Frames lost: corrupt (error flag), short, or skipped by the driver (sequence gaps).
    public internal(set) var droppedFrames = 0
    /// Good frames handed out.
    public internal(set) var framesCaptured = 0
    /// EIO results from DQBUF.
    public internal(set) var ioErrors = 0
    /// Times the stream was restarted after repeated EIO.
    public internal(set) var streamRestarts = 0
    /// Set when the camera failed for a reason that may pass (in use, disconnected).
    public internal(set) var interruption: Interruption?
    /// Buffers the driver handed out that were not queued (v4l2loopback does this).
    public internal(set) var unqueuedDeliveries = 0

    let openDevice: V4L2DeviceOpener
    /// Sets the camera's remembered controls at each open, before it streams.
    let controls: ControlRestorer?
    var device: (any V4L2Device)?
    var layout: V4L2FrameLayout?
    var buffers: [V4L2MappedBuffer] = []
    var bufferStates: [BufferState] = []
    var isStreaming = false
    /// The device reported ENODEV: STREAMOFF could hang, skip it.
    var isDisconnected = false
    /// A failure found outside `nextFrame` (in `recycle`), thrown by the next `nextFrame`.
    var pendingFailure: SourceError?
    var lastSequence: UInt32?
    var consecutiveIOErrors = 0
    var restartsWithoutFrame = 0
    /// Since when buffers wait in the driver with no frame, and how long they may.
    var stallWatch: (since: MonotonicInstant, patience: Int64)?
    /// Stream restarts for a stall (`stallNanoseconds`).
    public internal(set) var stalls = 0

    enum BufferState { case idle, queued, withClient }
    /// A v4l2loopback reader's own frames (see `copyOut`); `held` while the display has it.
    var loopbackCopies: [(base: UnsafeMutableRawPointer, length: Int, held: Bool)] = []
    /// Copies a loopback reader keeps: the display's newest, one waiting in the mailbox, one spare.
    static let loopbackCopyCount = 3

    /// Buffers handed out and not yet recycled: the camera can be closed only when this is 0,
    /// since their memory is mapped from the device.
    /// The device sits on a USB bus (whose bandwidth a mode may not fit in).
    var isOnUSB: Bool { capabilities?.busInfo.hasPrefix("usb") == true }
    /// The device is a v4l2loopback node: its frames come from another process writing to it.
    var isLoopback: Bool { capabilities?.isLoopback == true }

    public var clientHeldBuffers: Int {
        isLoopback ? loopbackCopies.reduce(0) { $0 + ($1.held ? 1 : 0) } : bufferStates.reduce(0) { $0 + ($1 == .withClient ? 1 : 0) }
    }

    /// A camera at `path` (`/dev/video0`, `/dev/v4l/by-id/...`), opened on `start()` with
    /// `openDevice` (the real libv4l2 device unless a test passes a fake); `controls` restores
    /// its remembered controls on each open.
    public init(
        path: String, request: SourceRequest = SourceRequest(), controls: ControlRestorer? = nil,
        openDevice: @escaping V4L2DeviceOpener = LibV4L2Device.open(path:)
    ) {
        name = path
        self.request = request
        self.controls = controls
        self.openDevice = openDevice
    }

    deinit { stop() }

    public func start() throws {
        guard device == nil else { return }
        // A USB camera whose mode needs more isochronous bandwidth than the bus has left (another
        // camera or a headset on the same controller) fails STREAMON with ENOSPC, or with EIO when
        // no alternate setting is fast enough (uvcvideo). A cheaper mode may fit: each refused mode
        // rules out every mode that needs no less, and the camera is opened again for the next.
        var refused: [V4L2Mode] = []
        while true {
            resetState()
            let dev: any V4L2Device
            do { dev = try openDevice(name) } catch { throw openFailure(error) }
            device = dev
            let refusal: V4L2Error
            do {
                try configure(dev, excluding: refused)
                // After S_FMT, which some drivers reset controls on; before STREAMON, so the first
                // frame already has them.
                controls?.restore(on: dev, path: name, capabilities: capabilities)
                guard let error = try startStreaming(dev) else { return }
                refusal = error
            } catch {
                stop()
                throw error
            }
            if let mode = choice?.mode { refused.append(mode) }
            stop()
            let left = Self.affordable(modes, refused: refused)
            guard refused.count < Self.bandwidthAttempts, V4L2ModeSelector.select(
                from: left, displayWidth: request.displayWidth, displayHeight: request.displayHeight, aspect: request.aspect) != nil
            else {
                let tried = refused.count > 1 ? ", \(refused.count) modes tried" : ""
                let errno = Errno(refusal.errno).description
                // Only a USB camera's refusal is about the bus; another driver's EIO is its own.
                throw SourceError.runtime(
                    thing: name,
                    reason: isOnUSB ? "not enough USB bandwidth to stream (\(refusal.call): \(errno)\(tried))" : "\(refusal.call) failed: \(errno)\(tried)")
            }
        }
    }

    /// Modes tried at most when the bus refuses them for want of bandwidth (see `start`).
    public static let bandwidthAttempts = 4

    /// The modes that need less bandwidth than every one the bus `refused`.
    private static func affordable(_ modes: [V4L2Mode], refused: [V4L2Mode]) -> [V4L2Mode] {
        modes.filter { mode in !refused.contains { mode.needsNoLessBandwidth(than: $0) } }
    }

    public func stop() {
        guard let dev = device else { return }
        if isStreaming && !isDisconnected { try? dev.streamOff() }
        isStreaming = false
        for buffer in buffers { dev.unmapBuffer(buffer) }
        buffers = []
        for copy in loopbackCopies { copy.base.deallocate() }
        loopbackCopies = []
        bufferStates = []
        dev.close()
        device = nil
    }

    private func resetState() {
        isDisconnected = false
        pendingFailure = nil
        interruption = nil
        lastSequence = nil
        consecutiveIOErrors = 0
        restartsWithoutFrame = 0
    }

    /// QUERYCAP → enumerate → select (from the modes not ruled out by `refused`) → S_FMT → S_PARM → G_FMT.
    private func configure(_ dev: any V4L2Device, excluding refused: [V4L2Mode]) throws(SourceError) {
        let caps = try attempt { () throws(V4L2Error) in try dev.queryCapabilities() }
        capabilities = caps
        // A v4l2loopback device with `exclusive_caps=1` is a capture device only while a writer
        // streams to it: until then it is a camera not plugged in yet.
        if caps.isLoopback && !caps.canCapture { throw interrupt(.disconnected) }
        guard caps.canCapture else { throw .badInput(thing: name, reason: "not a video capture device") }
        guard caps.canStream else { throw .badInput(thing: name, reason: "does not support streaming I/O (read() only)") }
        let modes = try attempt { () throws(V4L2Error) in
            try dev.captureModes(displayWidth: request.displayWidth, displayHeight: request.displayHeight)
        }
        self.modes = modes
        guard let choice = V4L2ModeSelector.select(
            from: Self.affordable(modes, refused: refused), displayWidth: request.displayWidth, displayHeight: request.displayHeight, aspect: request.aspect)
        else { throw .badInput(thing: name, reason: "offers no pixel format pipcam can show") }
        self.choice = choice
        let wanted = V4L2PixFormat(fourcc: choice.mode.fourcc, width: choice.mode.size.width, height: choice.mode.size.height)
        _ = try attempt { () throws(V4L2Error) in try dev.setFormat(wanted) }
        frameRate = choice.interval?.framesPerSecond
        if let interval = choice.interval {
            do {
                if let set = try dev.setFrameInterval(interval) { frameRate = set.framesPerSecond }
            } catch {
                // A rate the driver refuses is no reason to fail: it streams at its own rate.
                if error.errno == EBUSY || error.errno == ENODEV { throw failure(error) }
            }
        }
        // The driver may have adjusted the format, or another process changed it since S_FMT.
        let actual = try attempt { () throws(V4L2Error) in try dev.getFormat() }
        guard let layout = V4L2FrameLayout(format: actual), actual.width > 0, actual.height > 0 else {
            throw .runtime(thing: name, reason: "driver switched to unsupported format \(actual.fourcc) \(actual.width)x\(actual.height)")
        }
        format = actual
        self.layout = layout
    }

    /// REQBUFS → QUERYBUF + mmap each → QBUF all → STREAMON. Returns STREAMON's error when the bus
    /// refused the mode (ENOSPC, EIO) instead of throwing it.
    private func startStreaming(_ dev: any V4L2Device) throws(SourceError) -> V4L2Error? {
        let count = try attempt { () throws(V4L2Error) in try dev.requestBuffers(count: Self.requestedBufferCount) }
        guard count >= 2 else {
            throw .runtime(thing: name, reason: "driver gave \(count) capture buffer\(count == 1 ? "" : "s"), 2 are needed")
        }
        buffers.reserveCapacity(count)
        for index in 0..<count {
            let buffer = try attempt { () throws(V4L2Error) in try dev.mapBuffer(index: index) }
            buffers.append(buffer)
            bufferStates.append(.idle)
            if let need = layout?.minimumBytes, buffer.length < need {
                throw .runtime(thing: name, reason: "capture buffer of \(buffer.length) bytes cannot hold a \(need)-byte frame")
            }
        }
        if isLoopback {
            // The driver's buffers may be any size: a copy needs a frame's bytes (a JPEG's at most).
            let frameBytes = max(layout?.minimumBytes ?? 0, layout?.pixelFormat == .mjpeg ? FrameLimits.maxJPEGBytes : 0)
            let length = min(buffers.map(\.length).max() ?? 0, frameBytes > 0 ? frameBytes : .max)
            loopbackCopies = (0..<Self.loopbackCopyCount).map { _ in (.allocate(byteCount: length, alignment: 64), length, false) }
        }
        for index in 0..<count {
            try attempt { () throws(V4L2Error) in try dev.queueBuffer(index: index) }
            bufferStates[index] = .queued
        }
        do {
            try dev.streamOn()
        } catch {
            // uvcvideo's EIO means no alternate setting is fast enough; another driver's is its own.
            if error.errno == ENOSPC || (error.errno == EIO && isOnUSB) { return error }
            throw failure(error)
        }
        isStreaming = true
        stallWatch = nil
        return nil
    }

    // MARK: - Errors

    /// Runs one device call, turning its error into the `SourceError` to show.
    func attempt<T>(_ body: () throws(V4L2Error) -> T) throws(SourceError) -> T {
        do { return try body() } catch { throw failure(error) }
    }

    /// The `SourceError` for a failed call after open; notes interruptions.
    func failure(_ error: V4L2Error) -> SourceError {
        switch error.errno {
        case EBUSY: return interrupt(.inUse)
        case ENODEV: return interrupt(.disconnected)
        case ENOTTY where error.call == "VIDIOC_QUERYCAP":
            return .badInput(thing: name, reason: "not a video capture device")
        default:
            return .runtime(thing: name, reason: "\(error.call) failed: \(Errno(error.errno))")
        }
    }

    func interrupt(_ reason: Interruption) -> SourceError {
        interruption = reason
        if reason == .disconnected { isDisconnected = true }
        return .interrupted(thing: name, reason)
    }

    private func openFailure(_ error: V4L2Error) -> SourceError {
        switch error.errno {
        case ENOENT, ENODEV, ENXIO: return .badInput(thing: name, reason: "no such device")
        case EACCES, EPERM: return .badInput(thing: name, reason: "permission denied (add yourself to the 'video' group)")
        case EBUSY: return interrupt(.inUse)
        // libv4l2's open runs QUERYCAP: a file or device that is not V4L2 fails here.
        case ENOTTY, EINVAL: return .badInput(thing: name, reason: "not a video capture device")
        // A path that names no device at all (`/dev/shm`): the user's mistake, not the camera's.
        case EISDIR, ENOTDIR, ELOOP, ENAMETOOLONG:
            return .badInput(thing: name, reason: "not a video capture device (\(Errno(error.errno)))")
        default: return .runtime(thing: name, reason: "cannot open: \(Errno(error.errno))")
        }
    }
}
