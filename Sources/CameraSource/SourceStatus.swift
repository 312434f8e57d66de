import PipCore

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
    /// Which source it is now (`FrameSource.spec`): the camera shown is known by this. nil only
    /// in a status made before the capture side said anything.
    public var spec: SourceSpec?
    /// Whether the source is live (`FrameSource.isLive`): a switch to a file or back changes it.
    public var isLive: Bool
    /// Who holds the camera while it is in use by another program (`firefox, pid 4242`), when
    /// that can be seen (`HolderWatch`).
    public var holder: String?
    /// A file's playback (`FrameSource.playback`); nil for live sources.
    public var playback: PlaybackStatus?
    public init(
        camera: CameraState, prefersMirror: Bool, frames: ExpectedFrames? = nil, name: String? = nil, spec: SourceSpec? = nil,
        isLive: Bool = true, holder: String? = nil, playback: PlaybackStatus? = nil
    ) {
        self.spec = spec
        self.playback = playback
        self.holder = holder
        self.camera = camera
        self.isLive = isLive
        self.prefersMirror = prefersMirror
        self.frames = frames
        self.name = name
    }
}
