import Foundation
import Glibc
import PipWayland
import TestSupport
import Testing

/// What real compositors offer, read by `WaylandGlobals` as pipcam will read it, and the window
/// system the rule picks from it; and a layer-shell client (swaybg) shown by headless sway and
/// seen in a screenshot (grim): the harness the Wayland PiP's own tests will stand on.
@Suite(.timeLimit(.minutes(1)))
struct WaylandCompositorTests {
    static let swayMissing = HeadlessSway.missing
    static let screenshotToolsMissing = ["swaybg", "grim"].first { !HeadlessSway.onPath($0) }.map { "\($0) is not installed (scripts/bootstrap wayland)" }
    static let kwinMissing = HeadlessKWin.missing

    @Test(.enabled(if: swayMissing == nil, Comment(rawValue: swayMissing ?? "")))
    func swayOffersLayerShellAndTheRuleTakesIt() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let globals = try WaylandGlobals.read(display: sway.socket)
        // wl_seat for PiP's pointer; the virtual pointer for the tests that drive one.
        for interface in ["wl_compositor", "wl_shm", "xdg_wm_base", "zwlr_layer_shell_v1", "wl_seat", "zwlr_virtual_pointer_manager_v1"] {
            #expect(globals.offers(interface), "sway offers \(interface): \(globals.globals)")
        }
        #expect((globals.version(of: "zwlr_layer_shell_v1") ?? 0) >= 1)
        #expect(!globals.offers("xx_pip_shell_v1"), "only KWin offers xx-pip")
        #expect(!globals.offers("org_kde_plasma_shell"), "what tells KWin's held pointer from wlroots'")
        let session = WaylandSession.present(display: sway.socket, compositor: .success(globals))
        #expect(WindowSystemChoice.decide(.auto, wayland: session, x11DisplaySet: false) == .wayland(role: .layerShell))
        #expect(WindowSystemChoice.decide(.wayland, wayland: session, x11DisplaySet: true) == .wayland(role: .layerShell))
    }

    @Test(.enabled(if: swayMissing == nil, Comment(rawValue: swayMissing ?? "")))
    func aWrongDisplayNameGivesOneClearLine() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let wrong = "\(sway.runtimeDirectory)/wayland-99"
        #expect(throws: WaylandError(kind: .noCompositor, description: "no Wayland compositor at \(wrong) (No such file or directory)")) {
            try WaylandGlobals.read(display: wrong)
        }
        // The right name next to it still answers: the error was the name's.
        #expect(try WaylandGlobals.read(display: sway.socket).offers("wl_shm"))
    }

    @Test(.enabled(if: swayMissing == nil, Comment(rawValue: swayMissing ?? "")))
    func aCompositorThatHangsIsAnErrorInTime() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        sway.send(SIGSTOP)
        defer { sway.send(SIGCONT) }
        let start = ContinuousClock.now
        #expect(throws: WaylandError(
            kind: .noAnswer, description: "the Wayland compositor at \(sway.socket) did not answer within 300 ms")) {
            try WaylandGlobals.read(display: sway.socket, timeout: .milliseconds(300))
        }
        #expect(ContinuousClock.now - start < .seconds(3))
        sway.send(SIGCONT)
        #expect(try WaylandGlobals.read(display: sway.socket).offers("zwlr_layer_shell_v1"), "it answers once it runs again")
    }

    @Test(.enabled(if: swayMissing == nil && screenshotToolsMissing == nil,
                   Comment(rawValue: swayMissing ?? screenshotToolsMissing ?? "")))
    func swayShowsALayerShellClient() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let background = try sway.start(["swaybg", "--color", "#ff0000"])
        let red = RGB(255, 0, 0)
        var last: Screenshot?
        try waitUntil("swaybg's red on sway's output (swaybg: \(background.stderrText.suffix(300)); sway: \(sway.log.suffix(500)))",
                      timeout: .seconds(10)) {
            let shot = try sway.screenshot()
            last = shot
            return shot.pixel(shot.width / 2, shot.height / 2).distance(to: red) < 8
        }
        let shot = try #require(last)
        #expect(shot.width == sway.width && shot.height == sway.height)
        #expect(shot.meanColor().distance(to: red) < 8, "the whole output is red: \(shot.meanColor())")
    }

    @Test(.enabled(if: kwinMissing == nil, Comment(rawValue: kwinMissing ?? "")))
    func kwinOffersLayerShell() throws {
        let kwin = try HeadlessKWin()
        defer { kwin.stop() }
        let globals = try WaylandGlobals.read(display: kwin.socket)
        for interface in ["wl_compositor", "wl_shm", "xdg_wm_base", "zwlr_layer_shell_v1"] {
            #expect(globals.offers(interface), "kwin offers \(interface): \(globals.globals)")
        }
        #expect(globals.offers("org_kde_plasma_shell"), "what tells KWin's held pointer from wlroots'")
        // xx-pip from KWin 6.5 on; Debian 12's is 5.27.
        let role: WaylandPipRole = globals.offers("xx_pip_shell_v1") ? .xxPip : .layerShell
        let session = WaylandSession.present(display: kwin.socket, compositor: .success(globals))
        #expect(WindowSystemChoice.decide(.auto, wayland: session, x11DisplaySet: true) == .wayland(role: role))
    }
}
