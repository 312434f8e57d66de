import CVirtualPointer
import Foundation
import Glibc
import PipCore
import PipWayland
import PipWindow
import TestSupport
import Testing

/// A real keyboard on headless sway (zwp-virtual-keyboard with a US keymap, as a keyboard would
/// type) reaches the real `PipController`'s PiP on `WaylandWindowSystem` once PiP was clicked
/// (layer-shell's on_demand focus), and not before: Escape ends PiP, `m` mirrors it with or
/// without Shift, and `ctrl+m` is someone else's shortcut. Once the user clicked a window, the
/// keys are the window's, also after PiP changed (sway 1.7 gives any keyboard-interactive layer
/// surface the focus when it arranges its layers).
@Suite(.timeLimit(.minutes(1)))
struct WaylandKeyboardTests {
    static let missing: String? = WaylandPointerTests.missing
        ?? (dlopen("libxkbcommon.so.0", RTLD_NOW | RTLD_LOCAL) == nil ? "libxkbcommon.so.0 is not installed" : nil)

    // Linux input codes (linux/input-event-codes.h).
    static let escape: UInt32 = 1
    static let m: UInt32 = 50
    static let leftControl: UInt32 = 29
    static let leftShift: UInt32 = 42

    /// PiP up on sway with a pointer to click it and a keyboard to type.
    final class Keys {
        let stage: WaylandPointerTests.Stage
        private var keyboard: OpaquePointer?

        init() throws {
            stage = try WaylandPointerTests.Stage()
            var made: OpaquePointer?
            var error = [CChar](repeating: 0, count: 256)
            guard vkeyboard_open(stage.sway?.socket, &made, &error, Int32(error.count)) == 0 else {
                throw HarnessError("no virtual keyboard: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
            }
            keyboard = made
            stage.settle()
        }

        deinit { vkeyboard_close(keyboard) }

        func pointAtPip() throws {
            let frame = stage.pip.pipFrame
            try stage.move(to: frame.x + frame.width / 2, frame.y + frame.height / 2)
        }

        /// One click in PiP's middle: the compositor gives it the keyboard's focus.
        func clickPip() throws {
            try pointAtPip()
            try stage.click()
        }

        func key(_ code: UInt32, pressed: Bool) throws {
            guard vkeyboard_key(keyboard, code, pressed ? 1 : 0) == 0 else { throw HarnessError("the key did not go") }
            stage.settle()
        }

        /// `code` pressed and released with `held` (modifier keys) down around it.
        func type(_ code: UInt32, holding held: [UInt32] = []) throws {
            for modifier in held { try key(modifier, pressed: true) }
            try key(code, pressed: true)
            try key(code, pressed: false)
            for modifier in held.reversed() { try key(modifier, pressed: false) }
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func escapeEndsPipOnceItWasClickedAndNotBefore() throws {
        let started = ContinuousClock.now
        let keys = try Keys()
        let pip = keys.stage.pip
        try keys.type(Self.escape)
        #expect(pip.isActive, "shown, PiP has no keyboard focus: Escape is not its (\(pip.phase))")
        try keys.pointAtPip()
        try keys.type(Self.escape)
        #expect(pip.isActive, "the pointer over it, PiP has none yet either (\(pip.phase))")

        try keys.clickPip()
        try keys.type(Self.escape)
        let ended = WaylandPipTests.run(keys.stage.loop, timeout: .seconds(3)) { pip.phase == .idle }
        #expect(ended, "Escape ends PiP (\(pip.phase))")
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func mMirrorsWithShiftTooButNotWithControl() throws {
        let started = ContinuousClock.now
        let keys = try Keys()
        var toggles = 0
        keys.stage.pip.onMirrorToggle = { toggles += 1 }
        try keys.clickPip()

        try keys.type(Self.m, holding: [Self.leftControl])
        #expect(toggles == 0, "ctrl+m is another shortcut, not PiP's m")
        try keys.type(Self.m)
        #expect(toggles == 1, "m mirrors")
        try keys.type(Self.m, holding: [Self.leftShift])
        #expect(toggles == 2, "shift+m is m still (the key's first level, as X's)")
        #expect(keys.stage.pip.isActive)
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    @Test(.enabled(if: missing == nil && HeadlessSway.onPath("foot"), Comment(rawValue: missing ?? "foot is not installed")))
    func aClickOnAWindowGivesTheKeysBackForGood() throws {
        let started = ContinuousClock.now
        let keys = try Keys()
        let stage = keys.stage, pip = stage.pip, sway = try #require(stage.sway)
        let blue = RGB(0, 0, 255)
        _ = try sway.start(["env", "LC_ALL=C.UTF-8", "foot", "--fullscreen", "-o", "colors.background=0000ff", "sleep", "60"])
        try waitUntil("foot shows (sway: \(sway.log.suffix(300)))") {
            stage.settle()
            return try sway.screenshot().meanColor(in: XRect(x: 100, y: 100, width: 40, height: 40)).distance(to: blue) < 8
        }
        try keys.clickPip()
        try stage.move(to: 120, 120)
        try stage.click()  // on foot: its window has the keys now
        // PiP zoomed by the wheel: its layer surface changes, and sway arranges its layers again.
        try keys.pointAtPip()
        try stage.scroll(-1)
        try keys.type(Self.escape)
        #expect(pip.isActive, "Escape went to foot, not to PiP (\(pip.phase))")
        #expect(ContinuousClock.now - started < .seconds(10))
    }
}
