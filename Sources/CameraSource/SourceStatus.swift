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

/// The source's state as the display side sees it (posted through the `FrameMailbox`).
public struct SourceStatus: Sendable, Equatable {
    public var camera: CameraState
    /// Whether pictures from the source should be mirrored unless the user said otherwise.
    public var prefersMirror: Bool
    /// The frames the source sends now, when it knows (`FrameSource.expectedFrames`): they change
    /// when a camera is plugged in or switches modes, before the first new frame arrives.
    public var frames: ExpectedFrames?
    /// The source's name now (`FrameSource.name`) when it is no longer the one it started with
    /// (a camera plugged in after start); nil while it is.
    public var name: String?
    /// Whether the source is live (`FrameSource.isLive`): a switch to a file or back changes it.
    public var isLive: Bool
    public init(camera: CameraState, prefersMirror: Bool, frames: ExpectedFrames? = nil, name: String? = nil, isLive: Bool = true) {
        self.camera = camera
        self.isLive = isLive
        self.prefersMirror = prefersMirror
        self.frames = frames
        self.name = name
    }
}
