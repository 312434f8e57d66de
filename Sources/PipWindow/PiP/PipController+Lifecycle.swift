import PipCore

/// Driving the state machine: events in, queued while actions run; its actions carried out on
/// the windows and the delegate.
extension PipController {
    /// Feeds the machine; events raised while actions run (a synchronous restore completion) queue up.
    func feed(_ event: PipEvent) {
        // After `tearDown` (from a delegate call, or a restore completion kept by the app) nothing
        // more happens: no delegate calls, no windows, no timers.
        guard !isTornDown else { return }
        refitBeforeStart(for: event)
        queuedEvents.append(event)
        guard !handlingEvents else { return }
        handlingEvents = true
        defer { handlingEvents = false }
        while !queuedEvents.isEmpty {
            let next = queuedEvents.removeFirst()
            for action in machine.handle(next, now: .now()) where !isTornDown { perform(action) }
            applyPendingAspect()
        }
        if !isTornDown { scheduleTick() }
    }

    /// Before an event that may start PiP, its frame is fitted to the screen as it is today.
    private func refitBeforeStart(for event: PipEvent) {
        guard machine.phase == .idle, !pipShown else { return }
        switch event {
        case .startRequested, .sourceHidden, .tick: break
        default: return
        }
        let fitted = placement.frameBeforeStart(machine.pipFrame, layout: { screen.layout }) {
            screen.homeArea(near: contentSource?.sourceWindow)
        }
        if let fitted { queuedEvents.append(.pipFrameChanged(fitted)) }
    }

    /// One timer for the machine's and the placement's deadlines.
    func scheduleTick() {
        if let t = tickTimer { loop.cancelTimer(t) }
        tickTimer = nil
        let deadlines = [machine.nextDeadline, placement.nextDeadline].compactMap { $0 }
        guard let deadline = deadlines.min() else { return }
        tickTimer = loop.schedule(at: deadline) { [unowned self] in
            tickTimer = nil
            let now = MonotonicInstant.now()
            if placement.nextDeadline.map({ $0 <= now }) == true {
                // Asked only when a settle is due: a drag still held waits for its release.
                place(.tick(buttonsDown: placement.isSettleDue(at: now) && windowSystem.pointerButtonsDown()))
            }
            if machine.nextDeadline.map({ $0 <= now }) == true { feed(.tick) }
            scheduleTick()
        }
    }

    private func perform(_ action: PipAction) {
        switch action {
        case .willStart: delegate?.pipControllerWillStart(self)
        case .didStart: delegate?.pipControllerDidStart(self)
        case .failedToStart: delegate?.pipController(self, failedToStartWith: .notPossible)
        case .willStop: delegate?.pipControllerWillStop(self)
        case .didStop: delegate?.pipControllerDidStop(self)
        case .restoreUserInterface: askToRestore()
        case .possibleChanged(let possible):
            onPossibleChanged?(possible)
            if possible && startsOncePossible {
                startsOncePossible = false
                start()
            }
        case .showProxy(let r):
            proxy.show(at: r)
            proxyShown = true
            onNeedsFrame?()
        case .moveProxy(let r):
            proxy.move(to: r)
            onNeedsFrame?()
        case .hideProxy:
            proxy.hide()
            proxyShown = false
        case .showPip(let planned):
            place(.shown(planned: planned))
        case .hidePip:
            pipWindow.hide()
            pipShown = false
            place(.hidden)
        case .restoreSource:
            watcher?.restore()
        }
    }

    private func askToRestore() {
        guard let delegate else { return feed(.restoreCompleted) }
        // Each completion counts once, and only for its own stop: one kept from an earlier stop,
        // or called twice, must not end a later restore before its interface is back.
        restores += 1
        let restore = restores
        delegate.pipController(self, restoreUserInterfaceWithCompletion: { [weak self] in
            guard let self, restore == restores else { return }
            restores += 1
            feed(.restoreCompleted)
        })
    }

    /// Shows the PiP window at `r` (placed by `PipPlacement`).
    func showPip(at r: Rect) {
        if r != pipWindow.rect { pipWindow.setRect(r) }
        pipPresenter.resize(width: r.width, height: r.height)
        pipPresenter.warmUp()
        pipWindow.show()
        pipShown = true
        onNeedsFrame?()
    }

    func contentSourceChanged(from old: PipContentSource?) {
        guard !isTornDown else { return }
        // The same source window with new content (the active-speaker case) keeps PiP up as it is.
        let sameWindow = watcher != nil && old?.sourceWindow == contentSource?.sourceWindow
            && old?.animationWindow == contentSource?.animationWindow
        // Another window while PiP is starting, up, stopping or restoring: PiP stays as it is, and
        // that window becomes the restore target (PipEvent.contentSourceSwitched).
        let switchesInPlace = !sameWindow && old != nil && machine.phase != .idle
            && contentSource.map { windowSystem.exists($0.sourceWindow) } == true
        if !sameWindow {
            watcher?.stop()
            watcher = nil
            if old != nil && !switchesInPlace { feed(.contentSourceRemoved) }
        }
        guard let content = contentSource else { return }
        let ratio = Placement.aspectRatio(width: content.preferredContentWidth, height: content.preferredContentHeight)
        pipWindow.setAspect(ratio)
        pendingAspect = Double(ratio.0) / Double(ratio.1)
        applyPendingAspect()
        guard watcher == nil, content.sourceWindow != 0 else { return }
        watch(content, switching: switchesInPlace)
    }

    /// The picture's shape, once no animation runs: the PiP frame is reshaped around its corner.
    func applyPendingAspect() {
        guard let aspect = pendingAspect, machine.phase == .idle || machine.phase == .active else { return }
        pendingAspect = nil
        place(.aspectChanged(aspect))
    }

    private func watch(_ content: PipContentSource, switching: Bool) {
        guard let w = windowSystem.watchSource(content, hiding: hidingCounted, report: { [unowned self] in feed($0) }) else { return }
        watcher = w
        if switching {
            feed(.contentSourceSwitched(frame: w.frame, hidden: w.isHidden))
            return
        }
        feed(.contentSourceAttached)
        if let frame = w.frame { feed(.sourceFrameChanged(frame)) }
        if w.isHidden { feed(.sourceHidden) }
    }
}
