import PipCore

/// The PiP surface's events, and the user's turned into intents by `PipWindowInput` and into
/// moves by `PipPlacement`.
extension PipController {
    func handlePipSurfaceEvent(_ event: PipSurfaceEvent) {
        switch event {
        case .destroyed:
            onWindowDestroyed?()
        case .frameChanged(let old, _, let external):
            if pipShown { feed(.pipFrameChanged(pipWindow.rect)) }
            place(.configured(from: old, synthetic: external))
        case .needsFrame:
            onNeedsFrame?()
        case .shownAgain(let r):
            placement.expectOwnMove(to: r, now: .now())  // the window manager places it again
        case .closeRequested:
            feed(.pipWindowClosed)
        case .ownDragEnded(let kind):
            place(.ownDragEnded(kind))
        case .windowManagerDragStarted(let kind):
            place(.windowManagerDragStarted(kind))
        case .input(let input):
            // The controls are hit where they are drawn: in the pictures' pixels.
            let scale = pipWindow.video.pixelScale
            let size = (Self.scaled(pipWindow.rect.width, scale), Self.scaled(pipWindow.rect.height, scale))
            for intent in self.input.handle(Self.scaled(input, scale), size: size, now: .now()) { perform(intent, for: input) }
        }
    }

    /// A window's length in its pictures' pixels at `scale`.
    static func scaled(_ length: Int, _ scale: Double) -> Int {
        scale == 1 ? length : Int((Double(length) * scale).rounded())
    }

    /// `event` with its window coordinates at `scale` (the screen's stay).
    private static func scaled(_ event: InputEvent, _ scale: Double) -> InputEvent {
        guard scale != 1 else { return event }
        func scaled(_ p: PointerEvent) -> PointerEvent {
            var q = p
            (q.x, q.y) = (Self.scaled(p.x, scale), Self.scaled(p.y, scale))
            return q
        }
        switch event {
        case .press(let p): return .press(scaled(p))
        case .release(let p): return .release(scaled(p))
        case .motion(let p): return .motion(scaled(p))
        case .key, .entered, .left: return event
        }
    }

    private func perform(_ intent: PipWindowInput.Intent, for event: InputEvent) {
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
