import PipCore

/// One grow or shrink of the animation proxy: ease-out cubic from a fixed rectangle to a target
/// that is read at every step (so a window that moves meanwhile is still met where it is).
struct PipAnimation: Sendable, Equatable {
    /// Where the proxy starts.
    var from: Rect
    /// When the animation started.
    var start: MonotonicInstant
    /// Its length; 0 finishes on the first tick.
    var duration: UInt64
    /// The last tick (or the start): the next frame is due one frame interval after it.
    var lastStep: MonotonicInstant
    /// Where the proxy is now, so that steps that change nothing are not sent.
    var shownRect: Rect

    init(from: Rect, start: MonotonicInstant, duration: UInt64, shownRect: Rect) {
        self.from = from
        self.start = start
        self.duration = duration
        self.lastStep = start
        self.shownRect = shownRect
    }

    /// When the animation reaches its target.
    var end: MonotonicInstant { start.advanced(byNanoseconds: Int64(clamping: duration)) }

    /// Time spent animating at `now`, at most `duration`.
    func elapsed(at now: MonotonicInstant) -> UInt64 {
        now > start ? min(duration, now.nanoseconds - start.nanoseconds) : 0
    }

    /// Linear progress in [0, 1].
    func progress(at now: MonotonicInstant) -> Double {
        guard duration > 0 else { return 1 }
        let done = elapsed(at: now)
        return done == duration ? 1 : Double(done) / Double(duration)
    }

    /// The proxy's rectangle at `now` on the way to `target`.
    func rect(at now: MonotonicInstant, to target: Rect) -> Rect {
        from.interpolated(to: target, by: PipAnimation.easeOutCubic(progress(at: now)))
    }

    /// The next tick: one frame after the last, but never past the end.
    func nextDeadline(frameNanoseconds: UInt64) -> MonotonicInstant {
        min(lastStep.advanced(byNanoseconds: Int64(clamping: frameNanoseconds)), end)
    }

    /// 1 − (1 − p)³: fast at first, settling gently.
    static func easeOutCubic(_ progress: Double) -> Double {
        let p = min(1, max(0, progress))
        let rest = 1 - p
        return 1 - rest * rest * rest
    }
}

extension Rect {
    /// Each of x, y, width and height moved by `fraction` of the way to `other`
    /// (`a + (b − a) · fraction`), rounded to the nearest pixel, halves away from zero.
    func interpolated(to other: Rect, by fraction: Double) -> Rect {
        func mix(_ a: Int, _ b: Int) -> Int {
            Int((Double(a) + Double(b - a) * fraction).rounded(.toNearestOrAwayFromZero))
        }
        return Rect(x: mix(x, other.x), y: mix(y, other.y),
                    width: mix(width, other.width), height: mix(height, other.height))
    }
}
