import PipCore

/// Where the PiP window goes while it shows, in `PipStateMachine`'s style: events in, actions out,
/// time passed in. It settles and snaps the user's moves and resizes, zooms, reshapes for a
/// picture of another shape, keeps PiP on a monitor when the screen changes, and tells pipcam's
/// own moves (and the window manager's answers to them) from the user's. The rules are in
/// docs/BEHAVIOUR.md, "Placement"; the timings in `PipTuning`.
///
/// Every call gets the PiP window's frame as the server last reported it and the monitors'
/// layout; `nextDeadline` says when `.tick` is due.
struct PipPlacement {
    enum Event {
        /// PiP is about to be shown at the frame its animation planned.
        case shown(planned: Rect)
        case hidden
        /// The window's frame changed from `from` (a ConfigureNotify; `synthetic` when a window
        /// manager sent it). `frame` is the new one.
        case configured(from: Rect, synthetic: Bool)
        /// pipcam ended a drag of its own (no window manager moved the window).
        case ownDragEnded(DragKind)
        /// The window manager took over a drag (`_NET_WM_MOVERESIZE`).
        case windowManagerDragStarted(DragKind)
        /// Wheel or `+`/`-`: zoom by `factor` around a point in root coordinates, or (nil) around the centre.
        case zoom(by: Double, around: (x: Int, y: Int)?, aspect: Double)
        /// The picture has another shape; `frame` is the one to reshape (the machine's while hidden).
        case aspectChanged(Double)
        /// The monitors or the work area may have changed (the layout passed in is the new one).
        case screenChanged
        case windowManagerChanged(running: Bool)
        /// Time passed; `buttonsDown` is whether a pointer button is held (a drag still going on),
        /// asked only when `isSettleDue`.
        case tick(buttonsDown: Bool)
        /// pipcam ends: a settle still pending is reported as if it had come.
        case tearDown
    }

    enum Action: Equatable {
        /// Show the window at this frame (it was hidden).
        case show(Rect)
        /// Move or resize the window.
        case move(Rect)
        /// The user's settled frame, for remembering.
        case remember(Rect)
        /// The frame settled after any change (for sizing what feeds it).
        case report(Rect)
        /// While hidden: the frame the next start grows to.
        case refit(Rect)
    }

    /// The corner and size PiP is placed by while nobody has moved it: until then it starts on the
    /// monitor its source window is on now. nil once the user moved it (or a frame was given).
    private(set) var defaultPlacement: (corner: Corner, size: (Int, Int)?)?
    private var windowManagerRunning: Bool
    private var shown = false
    /// Where pipcam's last own move asked the window to go, and until when a ConfigureNotify
    /// there answers it rather than being a move the user made.
    private var ownMove: (target: Rect, until: MonotonicInstant)?
    /// Where the window was just shown, while the window manager places it (see `checkPlacement`).
    private var requestedPlacement: (rect: Rect, until: MonotonicInstant)?
    private var settleDeadline: MonotonicInstant?
    /// Whether the settle that is due ends a move, resize or zoom the user made.
    private var settleByUser = false
    private var windowManagerMoveSeen = false
    /// The rect the last zoom asked for, when, and the exact centre a keyboard zoom kept. Zooms in
    /// a burst (a wheel spin) start from it, not from the window's frame, which only its
    /// ConfigureNotify updates; and while the window is still there, `+` and `-` keep that centre.
    private var lastZoom: (rect: Rect, at: MonotonicInstant, centre: (x: Double, y: Double)?)?
    private var screenChangeSeen: MonotonicInstant?
    private var screenDeadline: MonotonicInstant?
    /// The monitors when PiP was last shown or last saw them change: where it was, relative to its
    /// monitor, when that monitor goes.
    private var shownLayout: ScreenLayout?

    init(defaultPlacement: (corner: Corner, size: (Int, Int)?)?, windowManagerRunning: Bool) {
        self.defaultPlacement = defaultPlacement
        self.windowManagerRunning = windowManagerRunning
    }

    /// When `.tick` is next due.
    var nextDeadline: MonotonicInstant? {
        switch (settleDeadline, screenDeadline) {
        case (let a?, let b?): return min(a, b)
        case (let a, let b): return a ?? b
        }
    }

    /// Whether a `.tick` now would settle a move (and so needs to know whether a button is held).
    func isSettleDue(at now: MonotonicInstant) -> Bool { settleDeadline.map { now >= $0 } ?? false }

    /// `layout` is read only by the events that need it.
    mutating func handle(_ event: Event, frame: Rect, layout: () -> ScreenLayout, now: MonotonicInstant) -> [Action] {
        var actions: [Action] = []
        switch event {
        case .shown(let planned):
            // A monitor may have gone while PiP grew out of its source window.
            let r = layout().shows(planned) ? planned : WindowPlacementMath.fitted(planned, into: layout().area(for: planned))
            shownLayout = layout()
            shown = true
            // The window manager places the window it maps: that is no move by the user either.
            expectOwnMove(to: r, now: now)
            requestedPlacement = windowManagerRunning ? (r, now.advanced(byNanoseconds: PipTuning.ownMoveAnswerNanoseconds)) : nil
            actions.append(.show(r))
        case .hidden:
            shown = false
        case .configured(let old, let synthetic):
            // The window manager resized or moved it on the user's behalf (its own keyboard or
            // Alt-drag): remember where it settles. Not the answer to pipcam's own move, nor a
            // window manager's pulling it onto a screen that changed.
            let screenMoved = screenChangeSeen.map { now.seconds(since: $0) < PipTuning.screenChangeMoveSeconds } ?? false
            if shown, frame != old, settleDeadline == nil, !screenMoved, !answersOwnMove(frame, synthetic: synthetic, now: now) {
                scheduleSettle(byUser: true, now: now)
            }
            checkPlacement(frame: frame, now: now, into: &actions)
        case .ownDragEnded(let kind):
            // Moves snap to the work area's edges; resizes keep the corner the user left fixed.
            settle(frame, snap: kind == .move, byUser: true, layout: layout, now: now, into: &actions)
        case .windowManagerDragStarted(let kind):
            windowManagerMoveSeen = kind == .move
            scheduleSettle(byUser: true, now: now)
        case .zoom(let factor, let point, let aspect):
            guard shown else { break }
            actions.append(.move(zoomed(frame, by: factor, around: point, aspect: aspect, layout: layout, now: now)))
            ownMove = nil  // the user's: its answer is theirs
            scheduleSettle(byUser: true, now: now)
        case .aspectChanged(let aspect):
            reshape(frame, toAspect: aspect, layout: layout, now: now, into: &actions)
        case .screenChanged:
            // Changes come in bursts (an output off, the screen resized, the work area rewritten):
            // PiP is placed once they are over.
            screenChangeSeen = now
            screenDeadline = now.advanced(byNanoseconds: PipTuning.screenChangeQuietNanoseconds)
        case .windowManagerChanged(let running):
            windowManagerRunning = running
        case .tick(let buttonsDown):
            if let due = settleDeadline, now >= due {
                settleDeadline = nil
                if buttonsDown {
                    scheduleSettle(byUser: false, now: now)  // still being dragged
                } else {
                    settle(frame, snap: windowManagerMoveSeen, byUser: settleByUser, layout: layout, now: now, into: &actions)
                    (windowManagerMoveSeen, settleByUser) = (false, false)
                }
            }
            if let due = screenDeadline, now >= due {
                screenDeadline = nil
                keepOnScreen(frame, layout: layout, now: now, into: &actions)
            }
        case .tearDown:
            // Ending within the wait after the user moved or resized PiP (a SIGTERM right after a
            // drag): the place they left it at is still reported, snapped as it would have been.
            guard settleDeadline != nil, shown, settleByUser else { break }
            settleDeadline = nil
            let area = layout().area(for: frame)
            actions.append(.remember(windowManagerMoveSeen ? WindowPlacementMath.snapped(frame, to: area) : frame))
        }
        return actions
    }

    /// The screen or work area may have changed since PiP was last up (a monitor unplugged, a
    /// panel added): before PiP starts, its frame is fitted onto its monitor's work area today,
    /// or, never moved by the user, placed in its corner of `homeArea` (the source window's monitor's).
    func frameBeforeStart(_ frame: Rect, layout: () -> ScreenLayout, homeArea: () -> Rect) -> Rect? {
        let fitted: Rect
        if let placement = defaultPlacement, frame.width > 0, frame.height > 0 {
            // The size given (reshaped with the picture), else a quarter of the monitor's width.
            fitted = Placement.initialRect(
                workArea: homeArea(), corner: placement.corner, aspect: Double(frame.width) / Double(frame.height),
                size: placement.size)
        } else {
            fitted = WindowPlacementMath.fitted(frame, into: layout().area(for: frame))
        }
        return fitted != frame ? fitted : nil
    }

    // MARK: rules

    private mutating func scheduleSettle(byUser: Bool, now: MonotonicInstant) {
        settleByUser = settleByUser || byUser
        settleDeadline = now.advanced(byNanoseconds: PipTuning.settleNanoseconds)
    }

    /// A move or resize ended: snap to the edges of the work area on the monitor that shows most
    /// of PiP if close (a resize is brought back inside it), then report it. One the user made
    /// ends following the source window.
    private mutating func settle(
        _ frame: Rect, snap: Bool, byUser: Bool, layout: () -> ScreenLayout, now: MonotonicInstant, into actions: inout [Action]
    ) {
        if byUser { defaultPlacement = nil }
        let area = layout().area(for: frame)
        let r = snap ? WindowPlacementMath.snapped(frame, to: area) : WindowPlacementMath.fitted(frame, into: area)
        if r != frame { moveOwn(to: r, now: now, into: &actions) }
        if byUser { actions.append(.remember(r)) }
        actions.append(.report(r))
    }

    private mutating func zoomed(
        _ frame: Rect, by factor: Double, around point: (x: Int, y: Int)?, aspect: Double, layout: () -> ScreenLayout,
        now: MonotonicInstant
    ) -> Rect {
        let last = lastZoom.flatMap { $0.rect == frame || now.seconds(since: $0.at) < PipTuning.zoomBurstSeconds ? $0 : nil }
        let base = last?.rect ?? frame
        let area = layout().area(for: base)
        let zoomed: (rect: Rect, centre: (x: Double, y: Double)?)
        if let point {
            zoomed = (WindowPlacementMath.scaled(
                base, by: factor, around: point.x, point.y, aspect: aspect, minWidth: FloatingWindow.minimumWidth,
                area: area), nil)
        } else {
            let centre = last?.centre ?? (Double(base.x) + Double(base.width) / 2, Double(base.y) + Double(base.height) / 2)
            zoomed = WindowPlacementMath.scaled(
                base, by: factor, aroundCentre: centre, aspect: aspect, minWidth: FloatingWindow.minimumWidth, area: area)
        }
        lastZoom = (zoomed.rect, now, zoomed.centre)
        return zoomed.rect
    }

    /// A picture of another shape (turned with `r`, another camera) reshapes PiP, keeping its area
    /// and the corner it is nearest: aspect hints alone leave it between wide bars with no window
    /// manager or one that ignores them.
    private mutating func reshape(
        _ current: Rect, toAspect aspect: Double, layout: () -> ScreenLayout, now: MonotonicInstant, into actions: inout [Action]
    ) {
        guard current.width > 0, current.height > 0,
            !WindowPlacementMath.hasShape(width: current.width, height: current.height, aspect: aspect)
        else { return }
        let r = WindowPlacementMath.reshaped(current, toAspect: aspect, in: layout().area(for: current))
        if let given = defaultPlacement?.size {
            defaultPlacement?.size = WindowPlacementMath.sizeKeepingArea(width: given.0, height: given.1, aspect: aspect)
        }
        if shown {
            moveOwn(to: r, now: now, into: &actions)
            scheduleSettle(byUser: false, now: now)
        } else {
            actions.append(.refit(r))
        }
    }

    /// The monitors or the work area changed while PiP shows: PiP whose centre no monitor shows any
    /// more (its monitor was unplugged), or larger than its monitor's area now, goes to the same
    /// corner of the nearest monitor's area. Reported, not remembered: the user did not choose
    /// that place, and the monitor may come back.
    private mutating func keepOnScreen(_ frame: Rect, layout: () -> ScreenLayout, now: MonotonicInstant, into actions: inout [Action]) {
        guard shown else { return }
        // The window may not have taken pipcam's last request yet.
        let r = pendingOwnMove(now: now) ?? frame
        let area = layout().area(for: r)
        let before = shownLayout?.area(for: r) ?? area
        shownLayout = layout()
        let lost = !layout().shows(r) || r.width > area.width || r.height > area.height
        // A panel added or taken away: PiP that lay on the old work area keeps its distance from
        // the nearest corner of the new one, as iOS PiP keeps its corner of the safe area. One
        // the user left over a panel stays.
        let areaMoved = area != before && before.intersection(r) == r
        guard lost || areaMoved else { return }
        let placed = GeometryMemory(rect: r, in: before).rect(in: area)
        guard placed != r else { return }
        moveOwn(to: placed, now: now, into: &actions)
        actions.append(.report(placed))
    }

    /// i3 places a floating window as if it had a title bar and border (its default), then applies
    /// `_MOTIF_WM_HINTS` (no decorations) and leaves the window that much down and right of where
    /// it asked to be. So once, when the window manager places the just-shown window at its size but
    /// a little off (decoration-sized), ask again for the place; i3 honours that for floating windows.
    private mutating func checkPlacement(frame: Rect, now: MonotonicInstant, into actions: inout [Action]) {
        guard let (want, until) = requestedPlacement, shown else { return }
        guard now < until else { return requestedPlacement = nil }
        guard frame != want, Self.isNearby(frame, want) else { return }
        requestedPlacement = nil
        moveOwn(to: want, now: now, into: &actions)
    }

    // MARK: pipcam's own moves

    /// A map request made again: the window manager places the window again, which is no user's move.
    mutating func expectOwnMove(to r: Rect, now: MonotonicInstant) {
        ownMove = (r, now.advanced(byNanoseconds: PipTuning.ownMoveAnswerNanoseconds))
    }

    private mutating func moveOwn(to r: Rect, now: MonotonicInstant, into actions: inout [Action]) {
        expectOwnMove(to: r, now: now)
        actions.append(.move(r))
    }

    private func pendingOwnMove(now: MonotonicInstant) -> Rect? {
        ownMove.flatMap { now < $0.until ? $0.target : nil }
    }

    /// `a` is `b`'s size at most a window manager's decoration offset (i3's) away.
    private static func isNearby(_ a: Rect, _ b: Rect) -> Bool {
        a.width == b.width && a.height == b.height
            && abs(a.x - b.x) <= PipTuning.decorationOffset && abs(a.y - b.y) <= PipTuning.decorationOffset
    }

    /// Whether the window at `r` is where pipcam's own last request put it, just now: a user's
    /// key move or quick drag right after lands elsewhere and counts as theirs. A window manager
    /// tells a move by a synthetic ConfigureNotify (ICCCM 4.1.5); its real ones, frame-relative,
    /// pass through passing positions while it reparents, so only their size tells.
    private func answersOwnMove(_ r: Rect, synthetic: Bool, now: MonotonicInstant) -> Bool {
        guard let target = pendingOwnMove(now: now), r.width == target.width, r.height == target.height else { return false }
        return (windowManagerRunning && !synthetic) || Self.isNearby(r, target)
    }
}
