import Foundation
import Glibc
import TestSupport
import Testing

/// The global hotkey under openbox: it toggles PiP whatever the lock keys, follows keyboard
/// remapping, and a key another client holds is reported while pipcam keeps running.
@Suite struct ControlHotkeyTests {
    /// Presses `combination` as xdotool does without touching lock state (`--clearmodifiers` would turn CapsLock off).
    func press(_ x: XServer, _ combination: String) throws {
        try x.runChecked(["xdotool", "key", combination])
    }

    /// pipcam with the test source and `hotkey` under openbox, its main window up; and its PiP window.
    func startWithHotkey(_ hotkey: String) throws -> (XServer, XWindowID) {
        let x = try XServer(windowManager: .openbox)
        _ = try x.startPipcam(["--source", "test", "--hotkey", hotkey])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        return (x, try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false))
    }

    func lockState(_ x: XServer) throws -> String {
        try x.runChecked(["xset", "q"]).stdoutText.split(whereSeparator: \.isNewline).first { $0.contains("Num Lock") }
            .map(String.init) ?? ""
    }

    @Test func theHotkeyTogglesPip() throws {
        let x = try XServer(windowManager: .openbox)
        _ = try x.startPipcam(["--source", "test", "--hotkey", "super+shift+p"])
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
        let before = try x.waitForStableGeometry(of: main)

        // Five rounds: press → PiP viewable (its window maps when the 250 ms grow animation ends),
        // press → PiP gone and the main window back where it was.
        let clock = ContinuousClock()
        var latencies: [Double] = []
        for _ in 0..<5 {
            let pressed = clock.now
            try press(x, "super+shift+p")
            try waitUntil("the hotkey starts PiP", timeout: .seconds(5)) { try x.isViewable(pip) }
            latencies.append((clock.now - pressed).seconds * 1000)
            try waitUntil("PiP is active", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "active" }

            try press(x, "super+shift+p")
            try waitUntil("the hotkey stops PiP", timeout: .seconds(5)) { try !x.isViewable(pip) }
            try waitUntil("the main window is back", timeout: .seconds(5)) { try x.isViewable(main) }
            try waitUntil("PiP is idle", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "idle" }
        }
        latencies.sort()
        print(String(format: "hotkey press (xdotool run) to PiP viewable: median %.0f ms, max %.0f ms of 5", latencies[2], latencies[4]))
        #expect(try x.waitForStableGeometry(of: main) == before)
    }

    /// `--switch-key` does `pipcam switch next`, beside the toggle key: with no camera here the
    /// switch fails, said on pipcam's stderr, the test pattern still shown; the toggle key still
    /// toggles.
    @Test func theSwitchKeySwitchesToTheNextCamera() throws {
        let x = try XServer(windowManager: .openbox)
        let pipcam = try x.startPipcam(["--source", "test", "--hotkey", "super+shift+p", "--switch-key", "super+shift+n"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
        _ = try x.pipcamStatus()
        try press(x, "super+shift+n")
        try waitUntil("the switch key's failure on stderr", timeout: .seconds(5)) {
            pipcam.stderrText.contains("pipcam: cannot switch to next: no camera found (still showing test)\n")
        }
        #expect(try x.pipcamStatus().object["source"] as? String == "test")
        try press(x, "super+shift+p")
        try waitUntil("the toggle key still starts PiP", timeout: .seconds(5)) { try x.isViewable(pip) }
        #expect(lines(of: pipcam.stderrText).count == 1, "\(pipcam.stderrText)")
    }

    /// Held past the key-repeat delay (the server's default is 660 ms), the hotkey still toggles
    /// once: the repeated presses are not new ones.
    @Test func aHeldHotkeyTogglesOnce() throws {
        let (x, pip) = try startWithHotkey("super+shift+p")
        // The server repeats a held key (else this test would prove nothing).
        #expect(try x.runChecked(["xset", "q"]).stdoutText.contains("auto repeat:  on"))
        let hold = try x.start(["xdotool", "keydown", "super+shift+p", "sleep", "1.5", "keyup", "super+shift+p"])
        // Watched while held: once PiP is on its way up, it never turns back (each repeat taken
        // as a press would stop and start it again, about 20 times).
        var states: [String] = []
        while hold.isRunning {
            if let state = try x.pipcamStatus().object["state"] as? String, state != states.last { states.append(state) }
            Thread.sleep(forTimeInterval: 0.03)
        }
        #expect(hold.termination == .exited(0))
        try waitUntil("PiP is up", timeout: .seconds(5)) { try x.isViewable(pip) }
        #expect(try x.pipcamStatus().object["state"] as? String == "active")
        let turned = states.drop { $0 == "idle" }
        #expect(!turned.contains("stopping") && !turned.contains("idle"), "states while held: \(states)")
    }

    /// A key whose keysym needs Shift (`plus` is Shift+equal on a US keyboard) works as typed.
    @Test func aHotkeyOnAShiftedKeysymWorks() throws {
        let (x, pip) = try startWithHotkey("super+plus")
        try press(x, "super+plus")
        try waitUntil("the hotkey starts PiP", timeout: .seconds(5)) { try x.isViewable(pip) }
    }

    // Not ctrl+alt+F9 here: in X's default keymap that combination switches virtual terminals, and
    // the server consumes it (Xvfb too) before any client sees a key.
    @Test func theHotkeyWorksWithNumLockAndCapsLockOn() throws {
        let (x, pip) = try startWithHotkey("ctrl+alt+k")

        try press(x, "Num_Lock")
        let numOn = try lockState(x)
        #expect(numOn.contains("Num Lock:    on"), "\(numOn)")
        try press(x, "ctrl+alt+k")
        try waitUntil("PiP starts with NumLock on", timeout: .seconds(5)) { try x.isViewable(pip) }
        try waitUntil("PiP is active", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "active" }

        try press(x, "Caps_Lock")
        let capsOn = try lockState(x)
        #expect(capsOn.contains("Caps Lock:   on"), "\(capsOn)")
        try press(x, "ctrl+alt+k")
        try waitUntil("PiP stops with NumLock and CapsLock on", timeout: .seconds(5)) { try !x.isViewable(pip) }
        try waitUntil("PiP is idle", timeout: .seconds(5)) { try x.pipcamStatus().object["state"] as? String == "idle" }

        try press(x, "Num_Lock")  // CapsLock alone
        try press(x, "ctrl+alt+k")
        try waitUntil("PiP starts with CapsLock on", timeout: .seconds(5)) { try x.isViewable(pip) }
    }

    @Test func theHotkeyFollowsAKeyboardRemapping() throws {
        let x = try XServer(windowManager: .openbox)
        _ = try x.startPipcam(["--source", "test", "--hotkey", "super+shift+p"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
        // Move p to a spare keycode: only a grab renewed on MappingNotify sees the new key.
        let map = try x.runChecked(["xmodmap", "-pke"]).stdoutText.split(whereSeparator: \.isNewline)
        let oldCode = try #require(map.first { $0.hasSuffix("= p P p P") || $0.contains("= p P") }?
            .split(separator: " ").dropFirst().first.flatMap { Int($0) })
        let spare = try #require(map.first { $0.trimmingCharacters(in: .whitespaces).hasSuffix("=") && !$0.hasSuffix(" 8 =") }?
            .split(separator: " ").dropFirst().first.flatMap { Int($0) })
        try x.runChecked(["xmodmap", "-e", "keycode \(oldCode) = NoSymbol", "-e", "keycode \(spare) = p P"])
        _ = try x.pipcamStateAfterEarlierEvents()  // the MappingNotify handled: the grab renewed
        try press(x, "super+shift+p")
        try waitUntil("the hotkey works on its new keycode", timeout: .seconds(5)) { try x.isViewable(pip) }
    }

    @Test func aKeyAnotherClientHoldsIsReportedAndPipcamRunsOn() throws {
        let x = try XServer(windowManager: .openbox)
        let a = try x.startPipcam(["--source", "test", "--name", "a", "--hotkey", "ctrl+alt+k"])
        try waitUntil("a is up", timeout: .seconds(10)) { try !x.windows(role: "main", pid: a.pid).isEmpty }
        try waitUntil("a answers", timeout: .seconds(5)) { try x.runPipcam(["status", "--name", "a"]).succeeded }
        let b = try x.startPipcam(["--source", "test", "--name", "b", "--hotkey", "Ctrl+Alt+K"])
        let said = try b.waitForOutput(containing: "--hotkey Ctrl+Alt+K: another program already uses this key")
        #expect(said.contains("pipcam toggle"), "it says what to do instead: \(said)")
        #expect(said.filter { $0 == "\n" }.count == 1, "one line: \(said)")
        try waitUntil("b answers", timeout: .seconds(5)) { try x.runPipcam(["status", "--name", "b"]).succeeded }
        #expect(b.termination == nil)

        try press(x, "ctrl+alt+k")
        var last = ""
        do {
            try waitUntil("a's hotkey works", timeout: .seconds(5)) {
                last = try x.pipcamStatus(name: "a").text
                return last.contains(#""state":"active""#)
            }
        } catch {
            Issue.record("\(error); a: \(last); a's stderr: \(a.stderrText.suffix(500)); b's stderr: \(b.stderrText.suffix(500))")
        }
        #expect(try x.pipcamStatus(name: "b").object["state"] as? String == "idle")
        #expect(!a.stderrText.contains("--hotkey"), "a got its key: \(a.stderrText)")
    }
}
