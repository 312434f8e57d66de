#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// A camera that rides out interruptions the way `AVCaptureSession` does: when another application
/// takes the device it waits and retries about once a second; when the device disappears it closes
/// every handle (the device comes back only then) and reopens it by a stable path with back-off;
/// under pressure it hands out fewer frames; when the window showing it is resized a lot it
/// switches to the mode that suits the new size (`SourceControls.displaySize`). It ends only on an error no wait
/// can cure (a reopen that keeps failing for another reason than a missing node, a stream that
/// keeps failing with EIO).
public final class ResilientCamera: FrameSource {
    public let name: String
    public var spec: SourceSpec { .camera(path: name) }
    private var request: SourceRequest
    /// The request to reopen the camera with for a resized window, once the display has given
    /// back every frame.
    private var pendingRequest: SourceRequest?
    /// How many times the camera changed modes for a resized window; for tests and logs.
    public private(set) var modeSwitches = 0
    private let makeCamera: (String, SourceRequest) -> V4L2Camera
    private var camera: V4L2Camera
    private var isOpen = false
    private var interruption: CameraInterruption?
    private var retryAt = MonotonicInstant(nanoseconds: 0)
    private var failedAttempts = 0
    /// Reopens after a disconnect that failed for another reason than a missing node.
    private var failedReopens = 0
    private var reopenPath: String
    private var throttle = 0
    private var throttleCounter = 0
    /// Frames left out by throttling, taken off the sequence numbers so gaps still mean real drops.
    private var throttled: UInt64 = 0
    /// The camera's stream restarts already taken into account in `throttled`.
    private var restartsSeen = 0
    private var lastSize = (width: 0, height: 0)
    /// Let go while nothing shows the frames (`SourceControls.idle`).
    private var idle = false
    /// The display size last applied: a mode switch is weighed when it changes.
    private var appliedDisplaySize: SourceControls.DisplaySize?
    /// Where `start()` looks for a stable name of the device (tests point it at a temporary directory).
    var stablePathDirectories = StableDevicePath.defaultDirectories

    /// Waiting time between attempts to take a camera another application holds.
    public static let inUseRetryNanoseconds: UInt64 = 1_000_000_000
    /// First and longest wait between attempts to reopen a disconnected camera.
    public static let reconnectFirstNanoseconds: UInt64 = 250_000_000
    public static let reconnectLongestNanoseconds: UInt64 = 2_000_000_000
    /// Reopens after a disconnect that may fail with a runtime error before pipcam gives up.
    public static let failedReopensAllowed = 5

    public init(
        path: String, request: SourceRequest = SourceRequest(),
        makeCamera: @escaping (String, SourceRequest) -> V4L2Camera = { V4L2Camera(path: $0, request: $1) }
    ) {
        name = path
        self.request = request
        self.makeCamera = makeCamera
        camera = makeCamera(path, request)
        reopenPath = path
    }

    public var isLive: Bool { true }
    public var mirroredByDefault: Bool { true }
    public var frameWidth: Int { lastSize.width }
    public var frameHeight: Int { lastSize.height }
    public var frameRate: Double? { camera.frameRate }
    public var frameFormat: PixelFormat? { camera.frameFormat }
    /// None while a mode switch waits for the display's frames: the device stays readable with
    /// frames nobody dequeues, and polling it would spin; the frames' return wakes the pump.
    public var pollDescriptor: Int32? {
        isOpen && interruption == nil && !((pendingRequest != nil || idle) && camera.clientHeldBuffers > 0) ? camera.pollDescriptor : nil
    }
    public var cameraState: CameraState {
        if let interruption { return .interrupted(interruption) }
        if idle { return .interrupted(.idle) }
        return throttle > 0 ? .interrupted(.pressure) : .streaming
    }

    public var needsBuffersBack: Bool {
        (interruption != nil || pendingRequest != nil || idle) && isOpen && camera.clientHeldBuffers > 0
    }

    /// Throttling, idleness and the display size, each as it changed. Idle: the device is closed
    /// once the display has given back every frame, and opened again (for the request in effect)
    /// at the first `nextFrame` after the idle ends.
    public func apply(_ controls: SourceControls) {
        throttle = max(0, min(controls.throttle, 4))
        idle = controls.idle
        if let size = controls.displaySize, size != appliedDisplaySize {
            appliedDisplaySize = size
            displaySizeChanged(width: size.width, height: size.height)
        }
    }

    /// Asks for a mode switch when the camera's mode no longer suits a window of `width`×`height`
    /// (`V4L2ModeSelector.shouldSwitch`); the switch happens in `nextFrame` once every frame the
    /// display holds is back. A size that suits the mode in use cancels a switch not yet made.
    private func displaySizeChanged(width: Int, height: Int) {
        guard isOpen, interruption == nil, let current = camera.choice?.mode,
            V4L2ModeSelector.shouldSwitch(from: current, modes: camera.modes, displayWidth: width, displayHeight: height)
        else {
            pendingRequest = nil
            return
        }
        pendingRequest = SourceRequest(
            displayWidth: width, displayHeight: height, paced: request.paced,
            aspect: Double(current.size.width) / Double(current.size.height))
    }

    /// The interruption in effect, if any (in use or disconnected).
    public var currentInterruption: CameraInterruption? { interruption }

    /// Opens the camera. A camera in use by another application, or a virtual camera whose writer
    /// has not started yet, is not an error: pipcam waits for it.
    public func start() throws { try start(now: .now()) }

    /// `start()` at a given instant (tests inject time; the first retry is due one interval after `now`).
    func start(now: MonotonicInstant) throws {
        reopenPath = StableDevicePath.find(for: name, directories: stablePathDirectories) ?? name
        do {
            try open(now: now)
        } catch let error as SourceError where error.cameraInterruption != nil {
            return
        }
    }

    public func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        if idle {
            _ = closeOnceFramesAreBack()
            return .wait(deadline: nil)
        }
        if interruption != nil { return try recover(now: now) }
        if !isOpen { return try reopenAfterIdle(now: now) }
        if let next = pendingRequest { return try switchMode(to: next, now: now) }
        while true {
            let step: SourceStep
            do {
                step = try camera.nextFrame(now: now)
            } catch let error as SourceError {
                guard let why = error.cameraInterruption else { throw error }
                interrupt(why, now: now)
                return try recover(now: now)
            }
            guard case .frame(var frame) = step else { return step }
            if camera.streamRestarts != restartsSeen {
                // The driver numbers frames from 0 again after a stream restart: so does the renumbering.
                restartsSeen = camera.streamRestarts
                throttled = 0
            }
            if throttle > 0 {
                throttleCounter += 1
                if throttleCounter % (1 << throttle) != 0 {
                    throttled += 1
                    camera.recycle(bufferIndex: frame.bufferIndex)
                    continue
                }
            }
            frame.sequence &-= throttled
            return .frame(frame)
        }
    }

    public func recycle(bufferIndex: Int) { camera.recycle(bufferIndex: bufferIndex) }

    public func stop() {
        camera.stop()
        isOpen = false
    }

    // MARK: recovery

    private func open(now: MonotonicInstant) throws {
        do {
            try camera.start()
        } catch let error as SourceError {
            if let why = error.cameraInterruption { interrupt(why, now: now) }
            throw error
        }
        isOpen = true
        interruption = nil
        failedAttempts = 0
        failedReopens = 0
        throttleCounter = 0
        throttled = 0
        restartsSeen = 0
        lastSize = (camera.frameWidth, camera.frameHeight)
    }

    private func interrupt(_ why: CameraInterruption, now: MonotonicInstant) {
        interruption = why
        failedAttempts += 1
        retryAt = now.advanced(byNanoseconds: Int64(backoff(why)))
    }

    private func backoff(_ why: CameraInterruption) -> UInt64 {
        guard why == .disconnected else { return Self.inUseRetryNanoseconds }
        let shift = UInt64(min(failedAttempts - 1, 8))
        return min(Self.reconnectFirstNanoseconds << shift, Self.reconnectLongestNanoseconds)
    }

    /// Closes the device once the display has given back every frame (their memory is mapped from
    /// it); false while it still holds some.
    private func closeOnceFramesAreBack() -> Bool {
        guard isOpen else { return true }
        guard camera.clientHeldBuffers == 0 else { return false }
        camera.stop()
        isOpen = false
        return true
    }

    /// Opens a new camera for `request` (by the stable path), which becomes the request in effect.
    private func reopen(for request: SourceRequest, now: MonotonicInstant) throws {
        self.request = request
        camera = makeCamera(reopenPath, request)
        try open(now: now)
    }

    /// Reopens the camera for `next` once the display has given back every frame. If the new mode
    /// cannot be set, the old one is taken again.
    private func switchMode(to next: SourceRequest, now: MonotonicInstant) throws -> SourceStep {
        guard closeOnceFramesAreBack() else { return .wait(deadline: nil) }
        pendingRequest = nil
        let previous = request
        do {
            do {
                try reopen(for: next, now: now)
                modeSwitches += 1
            } catch let error as SourceError where error.cameraInterruption == nil {
                try reopen(for: previous, now: now)
            }
        } catch let error as SourceError {
            // Taken by another application or unplugged meanwhile: recover as from any interruption.
            try interruptForFailedOpen(error, now: now)
            return .wait(deadline: retryAt)
        }
        return .wait(deadline: nil)
    }

    /// After an open that failed: an interruption was noted by `open`; a missing node means the
    /// camera is unplugged (also one another application held), a disconnect to wait out. Any
    /// other error is rethrown, except in the first `failedReopensAllowed` reopens after a
    /// disconnect: a camera just plugged back in can fail them (uvcvideo's probe timing out, EIO
    /// while the device settles), and ending pipcam for that would be wrong.
    private func interruptForFailedOpen(_ error: SourceError, now: MonotonicInstant) throws {
        guard error.cameraInterruption == nil else { return }
        if case .badInput = error { return interrupt(.disconnected, now: now) }
        guard interruption == .disconnected, failedReopens < Self.failedReopensAllowed else { throw error }
        failedReopens += 1
        interrupt(.disconnected, now: now)
    }

    /// Back from idle: the camera opens again as it was; one taken or unplugged meanwhile is an
    /// interruption like any other.
    private func reopenAfterIdle(now: MonotonicInstant) throws -> SourceStep {
        do {
            try reopen(for: request, now: now)
        } catch let error as SourceError {
            try interruptForFailedOpen(error, now: now)
            return .wait(deadline: retryAt)
        }
        return .wait(deadline: nil)
    }

    /// While interrupted: wait for the display to give back every frame, close the device, and try
    /// again at `retryAt`.
    private func recover(now: MonotonicInstant) throws -> SourceStep {
        guard closeOnceFramesAreBack() else { return .wait(deadline: nil) }
        guard now >= retryAt, interruption != nil else { return .wait(deadline: retryAt) }
        do {
            try reopen(for: request, now: now)
            return .wait(deadline: nil)
        } catch let error as SourceError {
            try interruptForFailedOpen(error, now: now)
            return .wait(deadline: retryAt)
        }
    }
}

/// Finds a name for a camera that survives unplugging: its `/dev/v4l/by-id` (or by-path) link.
enum StableDevicePath {
    static let defaultDirectories = ["/dev/v4l/by-id", "/dev/v4l/by-path"]

    static func find(for path: String, directories: [String] = defaultDirectories) -> String? {
        guard let target = DevicePath.real(path) else { return nil }
        for directory in directories {
            guard let dir = opendir(directory) else { continue }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard !name.hasPrefix(".") else { continue }
                let link = directory + "/" + name
                if DevicePath.real(link) == target { return link }
            }
        }
        return nil
    }
}
