import PipWindow
import Testing

@testable import PipWayland

/// The keyboard's pure parts: the X modifier mask of xkb's, the keycode xkb counts, presses only.
struct WaylandKeyInputTests {
    /// A us keymap's indices (xkbcommon's real modifiers in X's order) and one where they are
    /// elsewhere, Mod3 missing.
    static let inOrder: [UInt32] = Array(0..<8)
    static let shuffled: [UInt32] = [3, 0, 7, 1, 2, 0xffff_ffff, 5, 4]

    @Test func xkbsEffectiveModifiersBecomeXsMask() {
        #expect(LibWayland.xModifierMask(effective: 0, indices: Self.inOrder) == 0)
        #expect(LibWayland.xModifierMask(effective: 1 << 0, indices: Self.inOrder) == 1, "Shift")
        #expect(LibWayland.xModifierMask(effective: 1 << 1, indices: Self.inOrder) == 2, "Lock")
        #expect(LibWayland.xModifierMask(effective: 1 << 2, indices: Self.inOrder) == 4, "Control")
        #expect(LibWayland.xModifierMask(effective: 1 << 3, indices: Self.inOrder) == 8, "Mod1 (Alt)")
        #expect(LibWayland.xModifierMask(effective: 1 << 4, indices: Self.inOrder) == 16, "Mod2 (Num Lock)")
        #expect(LibWayland.xModifierMask(effective: 1 << 6, indices: Self.inOrder) == 64, "Mod4 (Super)")
        #expect(LibWayland.xModifierMask(effective: 0b1_0101_0011, indices: Self.inOrder) == 0x53, "bit 8 (a virtual modifier) is none of X's")
    }

    @Test func theKeymapsOwnIndicesAreFollowed() {
        // Shift at index 3, Control at 7, Mod1 at 1, Mod4 at 5.
        #expect(LibWayland.xModifierMask(effective: 1 << 3, indices: Self.shuffled) == 1)
        #expect(LibWayland.xModifierMask(effective: 1 << 7, indices: Self.shuffled) == 4)
        #expect(LibWayland.xModifierMask(effective: 1 << 1, indices: Self.shuffled) == 8)
        #expect(LibWayland.xModifierMask(effective: 1 << 5, indices: Self.shuffled) == 64)
        // Index 0 is Lock's and Mod3 has none: the missing one never counts.
        #expect(LibWayland.xModifierMask(effective: 1 << 0, indices: Self.shuffled) == 2)
        #expect(LibWayland.xModifierMask(effective: 0xffff_ffff, indices: Self.shuffled) == 0xdf)
    }

    @Test func anEvdevCodeIsXkbsPlusEight() {
        #expect(LibWayland.xkbKeycode(evdev: 1) == 9, "Escape")
        #expect(LibWayland.xkbKeycode(evdev: 50) == 58, "m")
    }

    @Test func pressesBecomeKeysWithTheirMaskAndReleasesNothing() {
        let press = WaylandKeyEvent(kind: .pressed, keysym: 0x6d, modifiers: 0x11, time: 7)
        #expect(WaylandKeyInput.translate(press) == .key(Keysym(rawValue: 0x6d), state: 0x11))
        #expect(WaylandKeyInput.translate(WaylandKeyEvent(kind: .released, keysym: 0x6d, modifiers: 0, time: 8)) == nil)
        #expect(WaylandKeyInput.translate(WaylandKeyEvent(kind: .pressed, keysym: 0, modifiers: 0, time: 9)) == nil, "a key without keysym")
        #expect(WaylandKeyInput.translate(WaylandKeyEvent(kind: .left, keysym: 0, modifiers: 0, time: 0)) == nil)
    }
}
