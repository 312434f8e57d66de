/// The X modifier bits a hotkey can ask for (the Xlib `ShiftMask`…`Mod5Mask` values).
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    public static let lock = KeyModifiers(rawValue: 1 << 1)
    public static let control = KeyModifiers(rawValue: 1 << 2)
    public static let mod1 = KeyModifiers(rawValue: 1 << 3)
    public static let mod2 = KeyModifiers(rawValue: 1 << 4)
    public static let mod3 = KeyModifiers(rawValue: 1 << 5)
    public static let mod4 = KeyModifiers(rawValue: 1 << 6)
    public static let mod5 = KeyModifiers(rawValue: 1 << 7)
    /// All eight modifier bits (key events also carry pointer-button bits above them).
    public static let all = KeyModifiers(rawValue: 0xff)

    /// Whether a key press with modifier `state` is for pipcam's own keys (`p`, `m`, `+`…): Shift
    /// and the lock keys may be held, Control, Alt and Super not. Those are other shortcuts, such
    /// as pipcam's own `super+shift+p` hotkey when it is not grabbed, which toggled PiP as a `p`.
    public static func isPlainKeyPress(state: UInt32) -> Bool {
        KeyModifiers(rawValue: state).isDisjoint(with: [.control, .mod1, .mod4])
    }

    /// The names `--hotkey` accepts, lower case.
    static let names: [String: KeyModifiers] = [
        "shift": .shift, "ctrl": .control, "control": .control, "alt": .mod1, "meta": .mod1,
        "super": .mod4, "win": .mod4, "mod1": .mod1, "mod2": .mod2, "mod3": .mod3, "mod4": .mod4, "mod5": .mod5,
    ]
}

/// A global hotkey as `--hotkey` gives it: modifiers and one key, joined by `+`,
/// e.g. `super+shift+p` or `ctrl+alt+F9`.
public struct HotkeySpec: Sendable, Equatable, CustomStringConvertible {
    public var modifiers: KeyModifiers
    /// The key's X keysym (e.g. 0x70 for `p`, 0xffc6 for `F9`).
    public var keysym: Keysym
    /// The keysym's name as X spells it (e.g. `p`, `F9`).
    public var keyName: String
    /// The text the user gave.
    public var text: String

    public var description: String { text }

    /// Why a hotkey spec was refused; the description is one line for the user.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses `text`: modifier names are case-insensitive; the key is any X keysym name, tried as
    /// given, then lower case (`P` means the `p` key), then with an upper-case first letter (`f9`, `escape`).
    /// - Parameter keysym: looks a keysym name up (X's `XStringToKeysym`); nil for unknown names.
    public static func parse(
        _ text: String, option: String = "--hotkey", keysym: (String) -> Keysym? = XDisplay.keysym(named:)
    ) throws(ParseError)
        -> HotkeySpec
    {
        func fail(_ why: String) -> ParseError { ParseError(description: "\(option): bad key '\(text)': \(why)") }
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty && !$0.contains(" ") }) else {
            throw fail("expected modifiers and a key joined by '+', e.g. super+shift+p")
        }
        var modifiers: KeyModifiers = []
        for name in parts.dropLast() {
            guard let bit = KeyModifiers.names[name.lowercased()] else {
                throw fail("unknown modifier '\(name)' (use super, shift, ctrl, alt or mod1–mod5)")
            }
            modifiers.insert(bit)
        }
        let key = parts[parts.count - 1]
        if KeyModifiers.names[key.lowercased()] != nil {
            throw fail("'\(key)' is a modifier; the last part must be a key, e.g. super+shift+p")
        }
        for candidate in candidates(key) {
            if let sym = keysym(candidate), sym != 0 {
                return HotkeySpec(modifiers: modifiers, keysym: sym, keyName: candidate, text: text)
            }
        }
        throw fail("no key is named '\(key)' (use an X keysym name such as p, F9, space or Print)")
    }

    private static func candidates(_ key: String) -> [String] {
        let lower = key.lowercased()
        let capitalized = lower.prefix(1).uppercased() + lower.dropFirst()
        var list: [String] = []
        // A single letter means the key, not the shifted symbol: `P` is the `p` key.
        for name in key.count == 1 ? [lower, key] : [key, lower, capitalized] where !list.contains(name) {
            list.append(name)
        }
        return list
    }
}
