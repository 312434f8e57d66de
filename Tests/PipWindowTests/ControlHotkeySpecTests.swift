import Testing
@testable import PipWindow

@Suite struct ControlHotkeySpecTests {
    @Test func modifiersAndKeyParse() throws {
        let spec = try HotkeySpec.parse("super+shift+p")
        #expect(spec.modifiers == [.mod4, .shift])
        #expect(spec.keysym == 0x70 && spec.keyName == "p")
        let f9 = try HotkeySpec.parse("ctrl+alt+F9")
        #expect(f9.modifiers == [.control, .mod1] && f9.keysym == 0xffc6)
    }

    @Test(arguments: [
        ("mod1+a", KeyModifiers.mod1), ("mod2+a", .mod2), ("mod3+a", .mod3), ("mod4+a", .mod4), ("mod5+a", .mod5),
        ("control+a", .control), ("win+a", .mod4), ("meta+a", .mod1), ("a", KeyModifiers()),
    ])
    func everyModifierNameHasItsBit(text: String, bits: KeyModifiers) throws {
        #expect(try HotkeySpec.parse(text).modifiers == bits)
    }

    @Test func caseDoesNotMatterForModifiersOrWellKnownKeys() throws {
        let spec = try HotkeySpec.parse("SUPER+Shift+P")
        #expect(spec.modifiers == [.mod4, .shift] && spec.keyName == "p", "P is the p key, not the shifted symbol")
        #expect(try HotkeySpec.parse("ctrl+f9").keyName == "F9")
        #expect(try HotkeySpec.parse("super+escape").keyName == "Escape")
        #expect(try HotkeySpec.parse("super+RETURN").keyName == "Return")
    }

    @Test(arguments: ["Print", "space", "XF86AudioPlay", "Pause", "KP_Enter", "grave", "1", "Scroll_Lock"])
    func anyKeysymNameIsAKey(name: String) throws {
        let spec = try HotkeySpec.parse("super+" + name)
        #expect(spec.keysym != 0, "\(name)")
        #expect(spec.keysym == XDisplay.keysym(named: spec.keyName))
    }

    @Test(arguments: [
        ("", "expected modifiers and a key"), ("super+", "expected modifiers and a key"), ("+p", "expected modifiers"),
        ("super++p", "expected modifiers"), ("super + p", "expected modifiers"), ("hyper+p", "unknown modifier 'hyper'"),
        ("super+shift", "'shift' is a modifier"), ("super+nosuchkey", "no key is named 'nosuchkey'"),
        ("ctrl+p+q", "unknown modifier 'p'"),
    ])
    func badSpecsSayWhatIsWrong(text: String, reason: String) {
        #expect {
            try HotkeySpec.parse(text)
        } throws: { error in
            let message = (error as? HotkeySpec.ParseError)?.description ?? ""
            return message.hasPrefix("--hotkey: bad key '\(text)': ") && message.contains(reason)
        }
    }

    @Test func theKeysymLookupCanBeReplaced() throws {
        let spec = try HotkeySpec.parse("alt+Foo") { $0 == "foo" ? 42 : nil }
        #expect(spec.keysym == 42 && spec.keyName == "foo" && spec.text == "alt+Foo")
    }

    /// pipcam's own keys work with Shift (`+` is Shift+= on a US keyboard) and the lock keys on,
    /// not with Control, Alt or Super held: Super+Shift+P is a shortcut, not a `p`.
    @Test func plainKeysAllowShiftAndLocksOnly() {
        let plain: [KeyModifiers] = [[], .shift, .lock, .mod2, [.shift, .lock, .mod2], .mod5]
        let shortcuts: [KeyModifiers] = [.control, .mod1, .mod4, [.mod4, .shift], [.control, .mod2]]
        for m in plain { #expect(KeyModifiers.isPlainKeyPress(state: m.rawValue | 1 << 8), "\(m.rawValue)") }
        for m in shortcuts { #expect(!KeyModifiers.isPlainKeyPress(state: m.rawValue), "\(m.rawValue)") }
    }
}
