import PipCore

// Starting, stopping, the animation steps and losing the source. Every path keeps the delegate
// callbacks paired: each willStart is followed by didStart or failedToStart, each willStop by didStop.
extension PipStateMachine {
    /// A start request: performed from idle, queued behind a stop in progress, ignored when PiP is up.
    mutating func requestStart(now: MonotonicInstant) -> [PipAction] {
        switch phase {
        case .idle: return start(now: now, automatically: false)
        case .starting, .active: return []
        case .stopping, .restoring:
            startQueued = true
            return []
        }
    }

    /// Starts from idle: grows the proxy out of the source window, or shows PiP at once when
    /// the source window's frame is unknown.
    mutating func start(now: MonotonicInstant, automatically: Bool) -> [PipAction] {
        guard isPossible else { return [.failedToStart(.notPossible)] }
        startedAutomatically = automatically
        guard let source = sourceFrame else {
            phase = .active
            return [.willStart, .showPip(pipFrame), .didStart]
        }
        animation = PipAnimation(from: source, start: now, duration: configuration.animationNanoseconds,
                                 shownRect: source)
        phase = .starting
        return [.willStart, .showProxy(source)]
    }

    /// An explicit stop (`stop()`, the close control): also drops a queued start and any pending
    /// automatic reaction, since the user's latest word wins.
    mutating func requestStop(restore: Bool, now: MonotonicInstant) -> [PipAction] {
        startQueued = false
        visibility.absorb()
        return stop(restore: restore, now: now)
    }

    /// Stops PiP from `.starting` or `.active`; a no-op in the other phases.
    mutating func stop(restore: Bool, now: MonotonicInstant) -> [PipAction] {
        switch phase {
        case .idle, .stopping, .restoring:
            return []
        case .active:
            guard restore else {
                phase = .idle
                return [.willStop, .hidePip, .didStop]
            }
            guard sourceFrame != nil else {
                // No frame to shrink into (a source window not viewable: unmapped with no window
                // manager, never shown yet), but the window is still brought back.
                phase = .restoring
                startRestoreGrace(now: now)
                return [.willStop, .hidePip, .restoreSource(nil), .restoreUserInterface]
            }
            animation = PipAnimation(from: pipFrame, start: now, duration: configuration.animationNanoseconds,
                                     shownRect: pipFrame)
            phase = .stopping
            return [.willStop, .showProxy(pipFrame), .hidePip]
        case .starting:
            return reverseStart(restore: restore, now: now)
        }
    }

    /// A stop while growing: closes the start callback, then shrinks back from where the proxy is
    /// now, taking as long as the growth took so far.
    private mutating func reverseStart(restore: Bool, now: MonotonicInstant) -> [PipAction] {
        let growth = animation
        animation = nil
        guard restore, let growth else {
            phase = .idle
            return [.didStart, .willStop, .hideProxy, .didStop]
        }
        guard sourceFrame != nil else {
            // Unreachable (starting needs a source frame), but stay total.
            phase = .restoring
            return [.didStart, .willStop, .hideProxy, .restoreUserInterface]
        }
        animation = PipAnimation(from: growth.rect(at: now, to: pipFrame), start: now,
                                 duration: growth.elapsed(at: now), shownRect: growth.shownRect)
        phase = .stopping
        return [.didStart, .willStop]
    }

    /// One animation frame at `now`; finishes the animation when it has run its length.
    mutating func step(now: MonotonicInstant) -> [PipAction] {
        guard var animation, phase == .starting || phase == .stopping else { return [] }
        let target = phase == .starting ? pipFrame : sourceFrame ?? animation.from
        var actions: [PipAction] = []
        let rect = animation.rect(at: now, to: target)
        if rect != animation.shownRect {
            actions.append(.moveProxy(rect))
            animation.shownRect = rect
        }
        animation.lastStep = max(animation.lastStep, now)
        guard animation.progress(at: now) >= 1 else {
            self.animation = animation
            return actions
        }
        self.animation = nil
        if phase == .starting {
            // The managed window is mapped before the proxy goes, so the hand-over has no gap.
            phase = .active
            return actions + [.showPip(pipFrame), .hideProxy, .didStart]
        }
        phase = .restoring
        startRestoreGrace(now: now)
        return actions + [.hideProxy, .restoreSource(sourceFrame), .restoreUserInterface]
    }

    /// The window manager's unmap/map noise of a restore must not start PiP again.
    private mutating func startRestoreGrace(now: MonotonicInstant) {
        restoreGraceEnd = now.advanced(byNanoseconds: Int64(clamping: configuration.restoreGraceNanoseconds))
        visibility.absorb()
    }

    /// The delegate restored its interface: the stop is over; a queued start follows.
    mutating func completeRestore(now: MonotonicInstant) -> [PipAction] {
        guard phase == .restoring else { return [] }
        phase = .idle
        return [.didStop] + performQueuedStart(now: now)
    }

    /// The content source or its window is gone: PiP ends at once, without restore or animation.
    mutating func detach(now: MonotonicInstant) -> [PipAction] {
        var actions: [PipAction] = []
        if isPossible {
            isPossible = false
            actions.append(.possibleChanged(false))
        }
        // A later source window is another window: its frame and visibility come afresh.
        sourceFrame = nil
        visibility = SourceVisibility()
        restoreGraceEnd = nil
        switch phase {
        case .idle: break
        case .starting: actions += [.didStart, .willStop, .hideProxy, .didStop]
        case .active: actions += [.willStop, .hidePip, .didStop]
        case .stopping: actions += [.hideProxy, .didStop]
        case .restoring: actions += [.didStop]
        }
        animation = nil
        phase = .idle
        // A start that was waiting on this stop can no longer happen: it fails rather than vanish.
        return actions + performQueuedStart(now: now)
    }

    /// Another source window in place of this one, PiP kept as it is. Its frame is the restore
    /// target from now on (a shrink in flight turns towards it, and ends at once without one); its
    /// visibility is taken as it is, so the switch itself starts or stops nothing.
    mutating func switchSource(frame: Rect?, hidden: Bool, now: MonotonicInstant) -> [PipAction] {
        var actions: [PipAction] = []
        if !isPossible {
            isPossible = true
            actions.append(.possibleChanged(true))
        }
        let oldTarget = sourceFrame
        sourceFrame = frame
        visibility = SourceVisibility(isHidden: hidden, settledHidden: hidden)
        restoreGraceEnd = nil
        guard phase == .stopping, let shrink = animation else { return actions }
        if frame != nil {
            // The rest of the shrink starts where the proxy is, for the time left: no jump.
            animation = PipAnimation(
                from: shrink.rect(at: now, to: oldTarget ?? shrink.from), start: now,
                duration: shrink.duration - shrink.elapsed(at: now), shownRect: shrink.shownRect)
            return actions
        }
        // Nothing to shrink into: the window is brought back, as a stop without a frame does.
        animation = nil
        phase = .restoring
        startRestoreGrace(now: now)
        return actions + [.hideProxy, .restoreSource(nil), .restoreUserInterface]
    }

    private mutating func performQueuedStart(now: MonotonicInstant) -> [PipAction] {
        guard startQueued else { return [] }
        startQueued = false
        return start(now: now, automatically: false)
    }
}
