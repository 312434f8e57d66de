import PipWindow

/// A key the compositor said was pressed or released on the surface with the keyboard's focus,
/// resolved by the shim with the compositor's keymap: the key's keysym at the first layout's
/// first level (as X's `XLookupKeysym(event, 0)` gives it, 0 when it has none) and X's modifier
/// mask (Shift 1, Lock 2, Control 4, Mod1 8, Mod2 16, Mod4 64).
struct WaylandKeyEvent: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case pressed, released
        /// The keyboard's focus left the surface (keysym and modifiers 0).
        case left
    }

    var kind: Kind
    var keysym: UInt32
    var modifiers: UInt32
    /// Milliseconds, of a base of the compositor's own.
    var time: UInt32
}

/// The keys in the seat's vocabulary (`InputEvent`, as X reports them): presses only, as X's PiP
/// window reports them, so the rules on which modifiers let a key act (`KeyModifiers`) hold alike.
enum WaylandKeyInput {
    static func translate(_ event: WaylandKeyEvent) -> InputEvent? {
        guard event.kind == .pressed, event.keysym != 0 else { return nil }
        return .key(Keysym(rawValue: UInt(event.keysym)), state: event.modifiers)
    }
}
