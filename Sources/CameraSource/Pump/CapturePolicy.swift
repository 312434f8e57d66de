/// What of the display side's requests reaches the source, and whether the capture side throttles
/// it: the exceptions `--share` makes, in one place.
public struct CapturePolicy: Sendable, Equatable {
    /// Whether a virtual camera is fed (`--share`).
    public let sharing: Bool

    public init(sharing: Bool) { self.sharing = sharing }

    /// The controls the source gets for what the display side asks and the throttle level the
    /// governor chose. Sharing, none of them: the call sees every frame at the camera's own rate, in
    /// the mode the share opened it for, whatever the windows show.
    public func controls(requested: SourceControls, throttle: Int) -> SourceControls {
        guard !sharing else {
            // A file played to a call still pauses and seeks.
            var controls = SourceControls()
            controls.playback = requested.playback
            return controls
        }
        var controls = requested
        controls.throttle = throttle
        return controls
    }

    /// Whether a live source is throttled when the display falls behind (not while the call takes
    /// every frame).
    public var throttlesUnderPressure: Bool { !sharing }
}
