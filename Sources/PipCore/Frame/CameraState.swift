/// Why a camera stopped delivering frames for a while — `AVCaptureSession.InterruptionReason`.
public enum CameraInterruption: String, Sendable, Equatable, CaseIterable {
    /// Another application holds the device (EBUSY).
    case inUse = "in-use"
    /// The device went away (ENODEV, unplugged).
    case disconnected
    /// Frames could not be shown as fast as they came: the capture rate is lowered.
    case pressure
    /// No window showed video for a while: the camera was let go (its light off) until one does
    /// again — as `AVCaptureSession` is interrupted while its app is in the background.
    case idle

    /// The reason in words (error messages, placeholders).
    public var reason: String {
        switch self {
        case .inUse: return "in use by another application"
        case .disconnected: return "disconnected"
        case .pressure: return "frame rate lowered under system pressure"
        case .idle: return "let go while no window shows video"
        }
    }
}

/// What the camera is doing, as `--stats` and `pipcam status` report it (`camera=`).
public enum CameraState: Sendable, Equatable, CustomStringConvertible {
    case streaming
    /// No camera yet (the test pattern is shown while pipcam waits for one).
    case waiting
    case interrupted(CameraInterruption)

    public var description: String {
        switch self {
        case .streaming: return "streaming"
        case .waiting: return "waiting"
        case .interrupted(let why): return "interrupted:\(why.rawValue)"
        }
    }
}
