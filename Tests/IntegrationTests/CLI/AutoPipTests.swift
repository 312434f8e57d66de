import Foundation
import TestSupport
import Testing

/// PiP starts by itself when the main window is hidden in any way — minimized, left on another
/// desktop or workspace, sent to i3's scratchpad — and stops when it is shown again
/// (`--auto-pip hidden`, the default); `--auto-pip minimize` counts minimizing only, `never` nothing
/// (docs/BEHAVIOUR.md, "Automatic start").
@Suite(.timeLimit(.minutes(2))) struct AutoPipTests {
    /// pipcam with its main window up under `manager` (another window keeps i3's first workspace).
    func start(_ manager: WindowManager, _ extra: [String] = []) throws -> (XServer, main: XWindowID) {
        let x = try makeServer(manager)
        _ = try x.start(["xlogo", "-name", "bystander", "-geometry", "200x150+900+450"])
        _ = try x.waitForWindow(className: "bystander")
        _ = try x.startPipcam(["--source", "test"] + extra)
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        _ = try x.settledGeometry(of: main)
        return (x, main)
    }

    func expectState(_ x: XServer, _ state: String, after what: String) throws {
        try waitUntil("PiP \(state) after \(what)", timeout: .seconds(5)) { try x.pipcamStateAfterEarlierEvents() == state }
    }

    /// The state stays `state` (no automatic start) for a while after `what`.
    func expectStaysIdle(_ x: XServer, after what: String) throws {
        Thread.sleep(forTimeInterval: 1)
        #expect(try x.pipcamStateAfterEarlierEvents() == "idle", "PiP started after \(what)")
    }

    @Test func i3ScratchpadAndWorkspaceSwitchesStartAndStopPip() throws {
        let (x, main) = try start(.i3)
        try x.runChecked(["i3-msg", "[id=\(main.raw)] move scratchpad"])
        try expectState(x, "active", after: "the main window went to the scratchpad")
        try x.runChecked(["i3-msg", "[id=\(main.raw)] scratchpad show"])
        try expectState(x, "idle", after: "scratchpad show")
        try waitUntil("the main window is shown", timeout: .seconds(3)) { try x.isViewable(main) }

        // Hiding reports within half a second of PiP's own restore of the window are taken as its
        // echo (docs/BEHAVIOUR.md): the user's next move comes later. Without the pause the switch
        // below raced that window and PiP stayed idle in about half the runs.
        Thread.sleep(forTimeInterval: 1.2)
        try x.runChecked(["i3-msg", "[id=\(main.raw)] floating disable"])
        try x.runChecked(["i3-msg", "workspace", "2"])
        try expectState(x, "active", after: "a switch to workspace 2")
        try x.runChecked(["i3-msg", "workspace", "1"])
        try expectState(x, "idle", after: "the switch back to workspace 1")
    }

    @Test func openboxDesktopSwitchAndAWindowSentElsewhereStartAndStopPip() throws {
        let (x, main) = try start(.openbox)
        try x.runChecked(["xdotool", "set_desktop", "1"])
        try expectState(x, "active", after: "a switch to desktop 2")
        try x.runChecked(["xdotool", "set_desktop", "0"])
        try expectState(x, "idle", after: "the switch back")

        // Hiding reports that come within a second of PiP's own restore of the window are taken
        // as its echo: the user's next move comes later.
        Thread.sleep(forTimeInterval: 1.2)
        try x.runChecked(["xdotool", "set_desktop_for_window", "\(main.raw)", "2"])
        try expectState(x, "active", after: "the main window was sent to desktop 3")
        try x.runChecked(["xdotool", "set_desktop_for_window", "\(main.raw)", "0"])
        try expectState(x, "idle", after: "it was brought back")

        // openbox drops _NET_WM_DESKTOP and _NET_WM_STATE from a withdrawn window (EWMH says it
        // should): a PiP shown again asks for every desktop again, or it would be lost on the
        // desktop it last appeared on.
        try x.sendPipcam("toggle")
        try expectState(x, "active", after: "pipcam toggle")
        let pip = try x.waitForWindow(className: "pipcam", role: PipIdentity.role)
        #expect(try x.property("_NET_WM_DESKTOP", of: pip)?.integers == [0xFFFF_FFFF])
        #expect(try x.netWMState(of: pip).contains("_NET_WM_STATE_ABOVE"))
    }

    @Test func minimizeModeIgnoresTheScratchpadButNotMinimizing() throws {
        let (i3, main) = try start(.i3, ["--auto-pip", "minimize"])
        try i3.runChecked(["i3-msg", "[id=\(main.raw)] move scratchpad"])
        try expectStaysIdle(i3, after: "the scratchpad with --auto-pip minimize")

        let (openbox, window) = try start(.openbox, ["--auto-pip", "minimize"])
        try openbox.runChecked(["xdotool", "set_desktop", "1"])
        try expectStaysIdle(openbox, after: "a desktop switch with --auto-pip minimize")
        try openbox.runChecked(["xdotool", "set_desktop", "0"])
        try openbox.runChecked(["xdotool", "windowminimize", "\(window.raw)"])
        try expectState(openbox, "active", after: "minimizing with --auto-pip minimize")
    }

    @Test func neverModeStartsNothingButTheKeyStillWorks() throws {
        let (x, main) = try start(.openbox, ["--auto-pip", "never"])
        try x.runChecked(["xdotool", "windowminimize", "\(main.raw)"])
        try expectStaysIdle(x, after: "minimizing with --auto-pip never")
        try x.sendPipcam("toggle")
        try expectState(x, "active", after: "pipcam toggle")
    }
}
