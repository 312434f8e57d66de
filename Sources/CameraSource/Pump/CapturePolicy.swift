import PipCore

/// What of the display side's requests reaches the source, and whether the capture side throttles
/// it: the exceptions `--share` makes, in one place. Pure: the rest of pipcam asks it and acts.
public struct CapturePolicy: Sendable, Equatable {
    /// The virtual camera fed (`--share`): a device path or `pipewire:NAME`; nil when none is.
    public let fed: String?

    /// Whether a virtual camera is fed.
    public var sharing: Bool { fed != nil }

    public init(fed: String?) { self.fed = fed }

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

    /// The size the camera is first asked for: the call's (`--share-size`, `shared`) while sharing
    /// — its mode is chosen for the call, not the window — else the size the picture is first
    /// shown at.
    public static func startingSize(
        shown: (width: Int, height: Int), shared: (width: Int, height: Int)?
    ) -> (width: Int, height: Int) {
        shared ?? shown
    }

    /// Whether a source switched to is asked for the size the picture is shown at (not while
    /// sharing: the camera then serves the call, at the size the share was opened for).
    public var switchedToSourceFollowsDisplaySize: Bool { !sharing }

    /// Whether a live source is let go while no window shows it (`--idle-release`); a camera
    /// shared with a call serves it whatever shows.
    public func releasesUnseen(isLive: Bool) -> Bool { !sharing && isLive }

    /// Whether the camera `path` is the virtual camera fed, which is never switched to.
    public func feeds(camera path: String, resolve: (String) -> String = CameraCycle.resolved) -> Bool {
        guard let fed else { return false }
        return resolve(path) == resolve(fed)
    }

    /// The cameras a switch never takes: the virtual camera fed.
    public func camerasNeverSwitchedTo(resolve: (String) -> String = CameraCycle.resolved) -> Set<String> {
        Self.camerasLeftOut(fed: fed, resolve: resolve)
    }

    /// The cameras never taken for the camera — looking for one, or choosing a PipeWire node —
    /// when `fed` is (to be) the virtual camera pipcam feeds: that one, resolved.
    public static func camerasLeftOut(fed: String?, resolve: (String) -> String = CameraCycle.resolved) -> Set<String> {
        Set(fed.map { [resolve($0)] } ?? [])
    }

    /// What the call sees of the picture: framed as the windows show it, or whole with
    /// `--share-full-frame`.
    public static func sharedFraming(_ picture: Framing, fullFrame: Bool) -> Framing {
        fullFrame ? .full : picture
    }
}
