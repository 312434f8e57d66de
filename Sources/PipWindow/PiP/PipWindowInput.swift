import PipCore

/// What the user means by the mouse and keys on the PiP window: events in, intents out, time
/// passed in. It owns the controls drawn over the picture (their fading and hit test) and the
/// double-click rule. The keys and gestures are listed in docs/BEHAVIOUR.md and the man page.
struct PipWindowInput {
    enum Intent: Equatable {
        /// Back to the source window (double-click, Escape, the back control).
        case stop
        /// Close PiP without restoring (the close control).
        case close
        case toggleMirror
        case rotate
        /// Play or pause (the play/pause control, Space while content plays).
        case playPause
        /// Skip by seconds (the skip controls, Left and Right while content plays).
        case skip(by: Double)
        /// Zoom by a factor around a point in root coordinates, or (nil) around the centre.
        case zoom(by: Double, aroundX: Int?, y: Int?)
        /// The framing (digital zoom and pan) of the picture changes (`FramingInput`).
        case frame(FramingGesture)
        /// A plain key PiP has no use for (the owner's: `PipController.onKey`).
        case key(Keysym)
        /// Hand the event to the window's own move and resize gesture.
        case gesture
        /// The controls appeared (`redraw`: they were hidden) and show until the given time.
        case controlsShown(redraw: Bool, until: MonotonicInstant?)
        /// The controls went (the pointer left): draw the picture without them.
        case controlsHidden
    }

    private(set) var controls: PipControls
    private var lastClick: PointerEvent?
    private var pressedControl: PipControls.Control?
    private var framing = FramingInput()

    init(controls: PipControls) { self.controls = controls }

    /// The intents of `event` on a window of `size`.
    mutating func handle(_ event: InputEvent, size: (width: Int, height: Int), now: MonotonicInstant) -> [Intent] {
        let framed = framing.handle(event)
        if framed.consumed { return framed.gesture.map { [.frame($0)] } ?? [] }
        switch event {
        case .key(let keysym, let state):
            // With a modifier held, a key is someone else's shortcut.
            guard KeyModifiers.isPlainKeyPress(state: state) else { return [] }
            if controls.playback != nil, let intent = Self.playbackIntent(forKey: keysym) { return [intent] }
            return [Self.intent(forKey: keysym) ?? .key(keysym)]
        case .motion, .entered:
            let wasVisible = controls.isVisible(at: now)
            controls.pointerMoved(at: now)
            return [.controlsShown(redraw: !wasVisible, until: controls.visibleUntil), .gesture]
        case .left:
            controls.hide()
            return [.controlsHidden]
        case .press(let p) where p.button == 4 || p.button == 5:
            let factor = p.button == 4 ? PipTuning.wheelZoomFactor : 1 / PipTuning.wheelZoomFactor
            return [.zoom(by: factor, aroundX: p.rootX, y: p.rootY)]
        case .press(let p) where p.button == 1:
            if let c = controls.control(atX: p.x, y: p.y, width: size.width, height: size.height, now: now) {
                pressedControl = c
                return []
            }
            if let last = lastClick, p.time &- last.time < PipTuning.doubleClickMilliseconds,
                abs(p.x - last.x) < PipTuning.doubleClickDistance, abs(p.y - last.y) < PipTuning.doubleClickDistance
            {
                lastClick = nil
                return [.stop]  // double-click: back to the source window, like mpv and Firefox PiP
            }
            lastClick = p
            return [.gesture]
        case .release(let p) where p.button == 1 && pressedControl != nil:
            // A control acts when released over the one pressed, as a button does.
            let c = controls.control(atX: p.x, y: p.y, width: size.width, height: size.height, now: now)
            defer { pressedControl = nil }
            guard let c, c == pressedControl else { return [] }
            switch c {
            case .backToMain: return [.stop]
            case .close: return [.close]
            case .mirror: return [.toggleMirror]
            case .playPause: return [.playPause]
            case .skipBack: return [.skip(by: -PipTuning.skipSeconds)]
            case .skipForward: return [.skip(by: PipTuning.skipSeconds)]
            }
        default:
            return [.gesture]
        }
    }

    /// The press became a drag: it is not the first half of a double-click.
    mutating func dragStarted() { lastClick = nil }

    /// Update what the playback controls show (nil: the content does not play).
    mutating func setPlayback(_ playback: PipControls.Playback?) { controls.playback = playback }

    private static func playbackIntent(forKey keysym: Keysym) -> Intent? {
        switch keysym {
        case .space: return .playPause
        case .left: return .skip(by: -PipTuning.skipSeconds)
        case .right: return .skip(by: PipTuning.skipSeconds)
        default: return nil
        }
    }

    private static func intent(forKey keysym: Keysym) -> Intent? {
        switch keysym {
        case .escape: return .stop
        case .m: return .toggleMirror
        case .r: return .rotate
        case .plus, .equal, .keypadAdd: return .zoom(by: PipTuning.keyZoomFactor, aroundX: nil, y: nil)
        case .minus, .keypadSubtract: return .zoom(by: 1 / PipTuning.keyZoomFactor, aroundX: nil, y: nil)
        default: return nil
        }
    }
}
