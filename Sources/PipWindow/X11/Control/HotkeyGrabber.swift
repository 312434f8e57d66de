#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// The global hotkey: a passive grab of one key with its modifiers on the root window, in every
/// state of CapsLock, NumLock and ScrollLock, grabbed again whenever the keyboard mapping changes.
///
/// Problems (another client holds the key, no key produces the keysym) are reported once on
/// standard error; the program keeps running without the hotkey.
public final class HotkeyGrabber {
    /// What a grabbed key is for, as messages say it.
    public struct Role: Sendable {
        /// The option that set it, e.g. `--hotkey`.
        public var option: String
        /// What a press does, e.g. `toggles Picture in Picture`.
        public var does: String
        /// The command a window manager binding would run instead, e.g. `pipcam toggle`.
        public var command: String

        /// `--hotkey`: toggles PiP.
        public static let toggle = Role(option: "--hotkey", does: "toggles Picture in Picture", command: "pipcam toggle")
        /// `--switch-key`: switches to the next camera.
        public static let switchNext = Role(option: "--switch-key", does: "switches to the next camera", command: "pipcam switch next")
    }

    public let spec: HotkeySpec
    public let role: Role
    /// Called on the loop's thread when the hotkey is pressed (not for auto-repeat while it is held).
    public var onPress: () -> Void = {}
    /// Whether the key is grabbed now.
    public var isGrabbed: Bool { grabbed != nil }

    private let display: XDisplay
    private var grabbed: (keycode: UInt32, masks: [KeyModifiers])?
    /// The spec's modifiers and those its key needs to give its keysym (Shift for `plus`).
    private var modifiers: KeyModifiers = []
    private var locks = LockMasks(numLock: [], scrollLock: [])
    private var lastReport: String?
    private var held = false
    private var lastTime: UInt = 0

    public init(display: XDisplay, spec: HotkeySpec, role: Role = .toggle) {
        self.display = display
        self.spec = spec
        self.role = role
    }

    /// Grabs the key, or follows a changed keyboard mapping: grabs held for the same key and lock
    /// bits are kept, so two programs wanting one key never see it free while one re-grabs.
    public func grab() {
        display.detectAutoRepeat()
        locks = display.lockMasks
        guard let keycode = display.keycode(for: spec.keysym) else {
            release()
            report("no key on this keyboard produces '\(spec.keyName)'; running without a hotkey")
            return
        }
        guard let level = display.levelModifiers(for: spec.keysym, on: keycode) else {
            release()
            report("'\(spec.keyName)' is not on a key's first four levels on this keyboard; running without a hotkey")
            return
        }
        modifiers = spec.modifiers.union(level)
        let masks = locks.grabMasks(for: modifiers)
        let kept = grabbed.map { $0.keycode == keycode ? $0.masks : [] } ?? []
        if kept == masks { return }
        let new = masks.filter { !kept.contains($0) }
        if let error = display.grabKey(keycode, masks: new) {
            display.ungrabKey(keycode, masks: new)
            release()
            report(
                error.isBadAccess
                    ? "another program already uses this key; running without it (bind '\(role.command)' to a key in your window manager instead)"
                    : "cannot grab the key (\(error)); running without it")
            return
        }
        if let old = grabbed {
            display.ungrabKey(old.keycode, masks: old.keycode == keycode ? old.masks.filter { !masks.contains($0) } : old.masks)
        }
        grabbed = (keycode, masks)
        if lastReport != nil { writeErrorLine("pipcam: \(role.option) \(spec.text): grabbed after all; it \(role.does)") }
        lastReport = nil
    }

    /// Releases the grab.
    public func release() {
        if let g = grabbed { display.ungrabKey(g.keycode, masks: g.masks) }
        grabbed = nil
    }

    /// Handles root key events and keyboard-mapping changes; ignores everything else.
    public func handle(_ event: WindowEvent) {
        switch event {
        case .keyboardMappingChanged:
            grab()
        case .rootKey(let keycode, let state, let time, let pressed):
            guard let g = grabbed, keycode == g.keycode else { return }
            guard pressed else {
                held = false
                return
            }
            // With detectable auto-repeat a held key sends presses without releases: the first after
            // the repeat delay (660 ms by X's default; users set up to about a second), then one every
            // few tens of milliseconds. A stale `held` (a release that never came) expires after 2 s
            // without presses.
            let repeated = held && time &- lastTime < 2000
            held = true
            lastTime = time
            if !repeated && locks.clean(state, keeping: modifiers) == modifiers { onPress() }
        default:
            break
        }
    }

    private func report(_ text: String) {
        let line = "pipcam: \(role.option) \(spec.text): \(text)"
        if line != lastReport { writeErrorLine(line) }
        lastReport = line
    }
}
