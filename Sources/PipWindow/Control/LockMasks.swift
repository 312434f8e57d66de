/// The lock modifiers (CapsLock, NumLock, ScrollLock) that must not stop a hotkey from working.
///
/// A passive grab matches the exact modifier state, so a hotkey is grabbed once per combination
/// of locks that may be on; a press matches when its state, locks removed, equals the hotkey's.
public struct LockMasks: Sendable, Equatable {
    /// NumLock's modifier bit on this server (found at run time; 0 if no modifier carries it).
    public var numLock: KeyModifiers
    /// ScrollLock's modifier bit (often 0: most keymaps bind it to no modifier).
    public var scrollLock: KeyModifiers

    public init(numLock: KeyModifiers, scrollLock: KeyModifiers) {
        self.numLock = numLock
        self.scrollLock = scrollLock
    }

    /// CapsLock, NumLock and ScrollLock together.
    public var all: KeyModifiers { [.lock, numLock, scrollLock] }

    /// Every combination of the lock bits, each once: 8 when all three are distinct modifiers,
    /// fewer when NumLock or ScrollLock has no modifier (or shares one).
    public var combinations: [KeyModifiers] {
        var result: [KeyModifiers] = []
        for caps in [KeyModifiers(), .lock] {
            for num in [KeyModifiers(), numLock] {
                for scroll in [KeyModifiers(), scrollLock] {
                    let mask = caps.union(num).union(scroll)
                    if !result.contains(mask) { result.append(mask) }
                }
            }
        }
        return result
    }

    /// The modifier state to grab for `modifiers` with each lock combination. Locks the hotkey
    /// itself uses (e.g. `mod2+x` where NumLock is Mod2) are left as the hotkey says.
    public func grabMasks(for modifiers: KeyModifiers) -> [KeyModifiers] {
        var result: [KeyModifiers] = []
        for locks in combinations {
            let mask = modifiers.union(locks)
            if !result.contains(mask) { result.append(mask) }
        }
        return result
    }

    /// A key event's state without lock bits and pointer buttons: what to compare with the hotkey's modifiers.
    public func clean(_ state: UInt32, keeping modifiers: KeyModifiers = []) -> KeyModifiers {
        let dropped = all.subtracting(modifiers)
        return KeyModifiers(rawValue: state & KeyModifiers.all.rawValue).subtracting(dropped)
    }
}
