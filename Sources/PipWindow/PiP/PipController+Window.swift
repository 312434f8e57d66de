import PipCore

/// The PiP window's events: the server's (configure, map, expose, close) and the user's, turned
/// into intents by `PipWindowInput` and into moves by `PipPlacement`.
extension PipController {
    func handlePipWindowEvent(_ event: WindowEvent) {
        switch event {
        case .destroyed(let w) where w == pipWindow.id:
            onWindowDestroyed?()
        case .configure(_, let r, let synthetic):
            let old = pipWindow.rect
            if pipWindow.noteConfigure(r, synthetic: synthetic) {
                pipPresenter.resize(width: r.width, height: r.height)
                onNeedsFrame?()
            } else if pipWindow.rect != old, pipPresenter.windowMoved() {
                onNeedsFrame?()
            }
            if pipShown { feed(.pipFrameChanged(pipWindow.rect)) }
            place(.configured(from: old, synthetic: synthetic))
        case .mapped:
            mapWatchdog.settled()
            pipWindow.noteMapped()
        case .expose(_, 0):
            pipPresenter.redraw()
        case .clientMessage(_, let type, let data)
            where type == display[.WM_PROTOCOLS] && Atom(bitPattern: data.0) == display[.WM_DELETE_WINDOW]:
            feed(.pipWindowClosed)
        case .property(_, let atom, _) where atom == display[._NET_WM_STATE]:
            pipWindow.windowStateChanged()
        case .visibility(_, _, let unobscured) where !unobscured:
            pipWindow.raiseIfObscured()
        default:
            let size = (pipWindow.rect.width, pipWindow.rect.height)
            for intent in input.handle(event, size: size, now: .now()) { perform(intent, for: event) }
        }
    }

    private func perform(_ intent: PipWindowInput.Intent, for event: WindowEvent) {
        switch intent {
        case .stop: stop()
        case .close: close()
        case .toggleMirror: onMirrorToggle?()
        case .rotate: onRotate?()
        case .playPause:
            guard let player = playbackDelegate else { return }
            player.setPlaying(!player.isPlaying)
            playbackChanged()
        case .skip(let seconds):
            playbackDelegate?.skip(by: seconds)
            playbackChanged()
        case .key(let keysym): onKey?(keysym)
        case .frame(let gesture):
            let shape = contentSource.map { ($0.preferredContentWidth, $0.preferredContentHeight) }
                ?? (pipWindow.rect.width, pipWindow.rect.height)
            onFraming?(gesture, Rect(
                sourceWidth: shape.0, sourceHeight: shape.1, rotation: .deg0,
                destinationWidth: pipWindow.rect.width, destinationHeight: pipWindow.rect.height))
        case .zoom(let factor, let x, let y):
            place(.zoom(by: factor, around: x.flatMap { x in y.map { (x, $0) } }, aspect: pipWindow.aspect))
        case .gesture:
            pipWindow.handlePointer(event)
            if pipWindow.isDragging { input.dragStarted() }
        case .controlsShown(let redraw, let until):
            if redraw { onNeedsFrame?() }
            if let t = controlsTimer { loop.cancelTimer(t) }
            guard let until else { return }
            controlsTimer = loop.schedule(at: until) { [unowned self] in
                controlsTimer = nil
                onNeedsFrame?()  // redraw without them
            }
        case .controlsHidden:
            onNeedsFrame?()
        }
    }

    /// Hands `event` to the placement and carries out what it says.
    func place(_ event: PipPlacement.Event) {
        guard !isTornDown else { return }
        var frame = pipWindow.rect
        if case .aspectChanged = event, !pipShown { frame = machine.pipFrame }
        apply(placement.handle(event, frame: frame, layout: { screen.layout }, now: .now()))
        if !handlingEvents { scheduleTick() }
    }

    private func apply(_ actions: [PipPlacement.Action]) {
        for action in actions {
            switch action {
            case .show(let r): showPip(at: r)
            case .move(let r): pipWindow.setRect(r)
            case .remember(let r): onFrameSettled?(r)
            case .report(let r): onFrameChanged?(r)
            case .refit(let r): feed(.pipFrameChanged(r))
            }
        }
    }
}
