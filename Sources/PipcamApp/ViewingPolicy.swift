import PipCore

/// Nothing spent while nothing shows (docs/BEHAVIOUR.md, "When nothing shows the camera"), in
/// `PipPlacement`'s style: whether a window shows video in, what the capture side is told out,
/// time passed in; `nextDeadline` says when to look again if nothing else happens.
///
/// With no window showing video for `unseenGrace`, a live source's frames go straight back to it
/// on the capture thread (`.framesUnseen(true)`); after `idleRelease` a camera lets its device go
/// (`.releaseCamera`) until a window shows video again.
struct ViewingPolicy: Equatable {
    struct Configuration: Equatable {
        /// How long no window must show video before frames stop coming: a hand-over between
        /// windows (PiP stopping, the main window mapping) must not cost a frame.
        var unseenGraceNanoseconds: UInt64 = 250_000_000
        /// `--idle-release`: how long unseen before the camera lets its device go; 0: never.
        var idleReleaseNanoseconds: UInt64

        init(idleReleaseSeconds: Double) {
            idleReleaseNanoseconds = UInt64(max(0, idleReleaseSeconds) * 1e9)
        }
    }

    enum Action: Equatable {
        /// Frames go straight back on the capture thread (true), or are for showing again (false:
        /// the frames given back meanwhile were not drops).
        case framesUnseen(Bool)
        /// The camera lets its device go: every frame held here is given back first.
        case releaseCamera
        /// The camera takes its device again.
        case resumeCamera
    }

    let configuration: Configuration
    /// Since when no window has shown video (nil while one does).
    private(set) var idleSince: MonotonicInstant?
    /// Whether a window has shown video yet: until then frames keep coming for the first to map.
    private var videoShown = false
    /// Whether the capture side was told that no window shows its frames.
    private(set) var framesUnseen = false
    /// Whether the camera was told to let its device go.
    private(set) var cameraReleased = false

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Called whenever the display side looks (every loop iteration, and at `nextDeadline`).
    /// `showing`: a window shows video (an animation counts); `releasable`: the source is a
    /// live camera nobody else is served by (no `--share`), so it may let its device go.
    mutating func update(showing: Bool, releasable: Bool, now: MonotonicInstant) -> [Action] {
        if showing {
            idleSince = nil
            videoShown = true
            var actions: [Action] = []
            if framesUnseen {
                framesUnseen = false
                actions.append(.framesUnseen(false))
            }
            if cameraReleased {
                cameraReleased = false
                actions.append(.resumeCamera)
            }
            return actions
        }
        let since = idleSince ?? now
        idleSince = since
        var actions: [Action] = []
        if let unseenAt = unseenDeadline, now >= unseenAt {
            framesUnseen = true
            actions.append(.framesUnseen(true))
        }
        if let releaseAt = releaseDeadline(releasable: releasable), now >= releaseAt {
            cameraReleased = true
            actions.append(.releaseCamera)
        }
        return actions
    }

    /// When `update` has something to do without anything else happening. (Asked on every loop
    /// iteration, a frame's included: no array made.)
    func nextDeadline(releasable: Bool) -> MonotonicInstant? {
        switch (unseenDeadline, releaseDeadline(releasable: releasable)) {
        case let (unseen?, release?): min(unseen, release)
        case let (unseen, release): unseen ?? release
        }
    }

    private var unseenDeadline: MonotonicInstant? {
        guard let idleSince, videoShown, !framesUnseen else { return nil }
        return idleSince.advanced(byNanoseconds: Int64(clamping: configuration.unseenGraceNanoseconds))
    }

    private func releaseDeadline(releasable: Bool) -> MonotonicInstant? {
        guard let idleSince, releasable, !cameraReleased, configuration.idleReleaseNanoseconds > 0 else { return nil }
        return idleSince.advanced(byNanoseconds: Int64(clamping: configuration.idleReleaseNanoseconds))
    }
}
