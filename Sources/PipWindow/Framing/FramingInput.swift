import PipCore

/// The mouse and keys that frame the picture in a window (digital zoom and pan), the same in the
/// PiP and the main window: Ctrl + wheel zooms around the pointer, Ctrl + drag pans, Ctrl + `+` /
/// `-` zoom around the middle, `z` or Ctrl + `0` shows the whole picture again. Events in,
/// gestures out; everything else is left to the window.
public struct FramingInput: Sendable {
    /// How much one wheel step zooms.
    static let wheelFactor = 1.25
    /// How much one key press zooms.
    static let keyFactor = 1.25

    /// The last pointer position of a Ctrl + drag under way.
    private var panningFrom: (x: Int, y: Int)?

    public init() {}

    /// Whether a Ctrl + drag is under way.
    public var isPanning: Bool { panningFrom != nil }

    /// What `event` does to the framing: `consumed` when the event was a framing one (the window
    /// must not act on it too), with the gesture it made, if any.
    public mutating func handle(_ event: InputEvent) -> (consumed: Bool, gesture: FramingGesture?) {
        switch event {
        case .press(let p) where Self.holdsControl(p.state) && (p.button == 4 || p.button == 5):
            return (true, .zoom(by: p.button == 4 ? Self.wheelFactor : 1 / Self.wheelFactor, atX: p.x, y: p.y))
        case .press(let p) where p.button == 1 && Self.holdsControl(p.state):
            panningFrom = (p.x, p.y)
            return (true, nil)
        case .motion(let p) where panningFrom != nil:
            guard let from = panningFrom else { return (true, nil) }
            panningFrom = (p.x, p.y)
            guard p.x != from.x || p.y != from.y else { return (true, nil) }
            return (true, .pan(dx: p.x - from.x, dy: p.y - from.y))
        case .release(let p) where p.button == 1 && panningFrom != nil:
            panningFrom = nil
            return (true, nil)
        case .key(let keysym, let state):
            guard let gesture = Self.gesture(forKey: keysym, control: Self.holdsControl(state), plain: KeyModifiers.isPlainKeyPress(state: state))
            else { return (false, nil) }
            return (true, gesture)
        default:
            return (false, nil)
        }
    }

    /// The window lost the pointer grab (it was unmapped, another client grabbed): no drag goes on.
    public mutating func cancel() { panningFrom = nil }

    private static func holdsControl(_ state: UInt32) -> Bool {
        let held = KeyModifiers(rawValue: state)
        return held.contains(.control) && held.isDisjoint(with: [.mod1, .mod4])
    }

    private static func gesture(forKey keysym: Keysym, control: Bool, plain: Bool) -> FramingGesture? {
        if plain && keysym == .z { return .reset }
        guard control else { return nil }
        switch keysym {
        case .digit0, .keypad0: return .reset
        case .plus, .equal, .keypadAdd: return .zoom(by: keyFactor, atX: nil, y: nil)
        case .minus, .keypadSubtract: return .zoom(by: 1 / keyFactor, atX: nil, y: nil)
        default: return nil
        }
    }
}
