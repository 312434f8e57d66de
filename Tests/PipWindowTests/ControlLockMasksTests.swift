import Testing
@testable import PipWindow

@Suite struct ControlLockMasksTests {
    @Test func eightCombinationsWhenAllThreeLocksHaveModifiers() {
        let locks = LockMasks(numLock: .mod2, scrollLock: .mod5)
        let masks = locks.combinations
        #expect(masks.count == 8)
        #expect(Set(masks.map(\.rawValue)) == [0, 0x02, 0x10, 0x80, 0x12, 0x82, 0x90, 0x92])
    }

    @Test func numLockFoundAtRunTimeIsUsed() {
        // Some keymaps put NumLock on Mod3 or elsewhere: the grab must follow the server's mapping.
        let masks = LockMasks(numLock: .mod3, scrollLock: .mod5).grabMasks(for: [.mod4, .shift])
        #expect(masks.count == 8)
        #expect(masks.contains(KeyModifiers([.mod4, .shift, .mod3])))
        #expect(masks.contains(KeyModifiers([.mod4, .shift, .mod3, .lock, .mod5])))
        #expect(!masks.contains(KeyModifiers([.mod4, .shift, .mod2])))
    }

    @Test func missingLocksGiveNoDuplicates() {
        #expect(LockMasks(numLock: .mod2, scrollLock: []).combinations.count == 4)
        #expect(LockMasks(numLock: [], scrollLock: []).combinations == [[], .lock])
        #expect(LockMasks(numLock: .mod2, scrollLock: .mod2).combinations.count == 4)
    }

    @Test func aLockTheHotkeyUsesStaysFixed() {
        let masks = LockMasks(numLock: .mod2, scrollLock: .mod5).grabMasks(for: [.mod2])
        #expect(masks.count == 4 && masks.allSatisfy { $0.contains(.mod2) })
    }

    @Test func cleaningDropsLocksAndPointerButtons() {
        let locks = LockMasks(numLock: .mod2, scrollLock: .mod5)
        let button1: UInt32 = 1 << 8
        let state = KeyModifiers([.mod4, .shift, .lock, .mod2, .mod5]).rawValue | button1
        #expect(locks.clean(state) == [.mod4, .shift])
        #expect(locks.clean(KeyModifiers([.mod2, .control]).rawValue, keeping: [.mod2]) == [.mod2, .control])
    }
}
