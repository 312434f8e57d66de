import CX11

/// Keysyms, keycodes, modifier bits and passive key grabs (the global hotkey).
extension XDisplay {
    /// The keysym X calls `name` (e.g. "p", "F9", "Print"); nil when there is none. Needs no connection.
    public static func keysym(named name: String) -> Keysym? {
        let sym = XStringToKeysym(name)
        return sym == UInt(NoSymbol) ? nil : Keysym(sym)
    }

    /// The keycode that produces `keysym` in the current keyboard mapping; nil if no key does.
    public func keycode(for keysym: Keysym) -> UInt32? {
        let code = XKeysymToKeycode(raw, keysym.rawValue)
        return code == 0 ? nil : UInt32(code)
    }

    /// The modifiers that make `keycode` produce `keysym` (first group): none at its first level,
    /// Shift at the second, AltGr's bit (ISO_Level3_Shift) at the third, both at the fourth; nil
    /// when it is at none of them or AltGr has no modifier bit.
    public func levelModifiers(for keysym: Keysym, on keycode: UInt32) -> KeyModifiers? {
        guard let level = (0..<4).first(where: { XkbKeycodeToKeysym(raw, KeyCode(truncatingIfNeeded: keycode), 0, Int32($0)) == keysym.rawValue })
        else { return nil }
        var modifiers: KeyModifiers = level % 2 == 1 ? .shift : []
        if level >= 2 {
            let altGr = modifierMask(forKeysym: Keysym(UInt(XK_ISO_Level3_Shift)))
            guard !altGr.isEmpty else { return nil }
            modifiers.formUnion(altGr)
        }
        return modifiers
    }

    /// The modifier bit the key producing `keysym` sets (e.g. Mod2 for Num_Lock); empty if none.
    public func modifierMask(forKeysym keysym: Keysym) -> KeyModifiers {
        guard let code = keycode(for: keysym), let map = XGetModifierMapping(raw) else { return [] }
        defer { XFreeModifiermap(map) }
        let perModifier = Int(map.pointee.max_keypermod)
        for modifier in 0..<8 {
            for i in 0..<perModifier where UInt32(map.pointee.modifiermap[modifier * perModifier + i]) == code {
                return KeyModifiers(rawValue: 1 << UInt32(modifier))
            }
        }
        return []
    }

    /// NumLock's and ScrollLock's modifier bits in the current mapping.
    public var lockMasks: LockMasks {
        LockMasks(numLock: modifierMask(forKeysym: Keysym(UInt(XK_Num_Lock))), scrollLock: modifierMask(forKeysym: Keysym(UInt(XK_Scroll_Lock))))
    }

    /// Grabs `keycode` on the root window with each modifier state in `masks`; returns the first
    /// error (BadAccess when another client holds one of them). The grabs that worked stay.
    public func grabKey(_ keycode: UInt32, masks: [KeyModifiers]) -> XErrorRecord? {
        withErrorTrap {
            for mask in masks { XGrabKey(raw, Int32(keycode), mask.rawValue, root.rawValue, 0, GrabModeAsync, GrabModeAsync) }
        }.1
    }

    /// Releases this client's grabs of `keycode` with each state in `masks`.
    public func ungrabKey(_ keycode: UInt32, masks: [KeyModifiers]) {
        for mask in masks { XUngrabKey(raw, Int32(keycode), mask.rawValue, root.rawValue) }
    }
}

extension XDisplay {
    /// Asks the server not to send the fake releases of key auto-repeat, so a held hotkey arrives
    /// as presses without releases in between and can be told from repeated taps; false if unsupported.
    @discardableResult
    public func detectAutoRepeat() -> Bool {
        var supported: Int32 = 0
        return XkbSetDetectableAutoRepeat(raw, 1, &supported) != 0 && supported != 0
    }
}
