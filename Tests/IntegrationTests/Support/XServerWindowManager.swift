import Foundation
import Glibc
import TestSupport

/// The window managers the integration tests run under: the light ones every `make test` uses,
/// and the desktops' own (Xfce, GNOME, KDE Plasma, MATE, Cinnamon) that `make test-desktops` adds.
enum WindowManager: String, Sendable, CaseIterable, CustomStringConvertible {
    case none, openbox, i3, fluxbox
    /// Xfce's xfwm4, its compositor off (`--compositor=off`) or on.
    case xfwm4, xfwm4Compositing
    /// GNOME's mutter as an X11 window and compositing manager (it always composites).
    case mutter
    /// KDE Plasma's kwin_x11, compositing off (`KWIN_COMPOSE=N`) or on (OpenGL 2, in software).
    case kwin, kwinCompositing
    /// MATE's marco (`--no-composite`), GNOME Flashback's metacity, Cinnamon's muffin.
    case marco, metacity, muffin

    /// The name the WM publishes in `_NET_WM_NAME` on its `_NET_SUPPORTING_WM_CHECK` window.
    var advertisedName: String? {
        switch self {
        case .none: nil
        case .openbox: "Openbox"
        case .i3: "i3"
        case .fluxbox: "Fluxbox"
        case .xfwm4, .xfwm4Compositing: "Xfwm4"
        case .mutter: "Mutter"
        case .kwin, .kwinCompositing: "KWin"
        case .marco: "Metacity (Marco)"
        case .metacity: "Metacity"
        case .muffin: "Mutter (Muffin)"
        }
    }
    /// Whether the WM takes over from a running one by itself (`--replace`, the ICCCM `WM_S0`
    /// selection); fluxbox 1.3 cannot: the old WM has to go first.
    var canReplace: Bool { self != .fluxbox && self != .none }
    /// Whether the WM composites (draws windows itself, so `--opacity` can show).
    var composites: Bool { [.xfwm4Compositing, .mutter, .kwinCompositing, .muffin].contains(self) }
    /// Xvfb options the WM needs: GLX for the ones that composite with OpenGL (in software).
    var serverArguments: [String] { [.mutter, .muffin, .kwin, .kwinCompositing].contains(self) ? ["+iglx"] : [] }
    var description: String { rawValue }
}

/// An Xvfb with `manager`, ready to manage new windows.
///
/// The harness considers a WM up once it advertises itself in `_NET_SUPPORTING_WM_CHECK`, but
/// openbox does that before its event loop runs: a window mapped in that gap is occasionally
/// never managed (no frame, no WM_STATE, left unmapped: seen about 1 run in 12 on 2 busy cores).
/// So map a probe client first and wait until the WM has managed it (WM_STATE set).
/// `i3Config` lines are added to the harness's minimal i3 configuration.
func makeServer(
    _ manager: WindowManager = .none, width: Int = 1280, height: Int = 720, monitors: [XRect] = [], i3Config: String = ""
) throws -> XServer {
    let x = try XServer(
        width: width, height: height, monitors: monitors, windowManager: manager, i3Config: i3Config,
        serverArguments: manager.serverArguments)
    guard manager != .none else { return x }
    let probe = try x.start(["xlogo", "-geometry", "40x40+0+0"])
    defer { probe.terminate(grace: .milliseconds(500)) }
    let clock = ContinuousClock()
    var remapped = clock.now
    try waitUntil("\(manager) to manage a probe window", timeout: .seconds(10)) {
        guard let window = try x.windows(className: "xlogo").first else { return false }
        if try x.property("WM_STATE", of: window) != nil { return true }
        if clock.now - remapped > .seconds(1) {  // a lost MapRequest: ask again
            _ = try x.run(["xdotool", "windowmap", "\(window)"])
            remapped = clock.now
        }
        return false
    }
    return x
}

/// Starting, probing and replacing the window manager of an `XServer`.
extension XServer {
    /// The `_NET_WM_NAME` of the window manager managing the screen, if one is.
    func runningWindowManagerName() throws -> String? {
        // The check window may be gone (a WM that ended leaves the root property behind): BadWindow.
        guard let check = try rootProperty("_NET_SUPPORTING_WM_CHECK")?.windows.first,
            let own = (try? property("_NET_SUPPORTING_WM_CHECK", of: check))??.windows.first, own == check
        else { return nil }
        return (try? property("_NET_WM_NAME", of: check))??.strings.first ?? ""
    }

    /// Replaces the running window manager (or none) by `manager` (or none) and waits until the
    /// new one manages windows. With `usingReplaceFlag`, the new WM is started with `--replace`
    /// while the old one still runs (it must `canReplace`), and the old one must then exit by
    /// itself; otherwise the old one is terminated first (SIGTERM: it unmanages its windows).
    func replaceWindowManager(
        with manager: WindowManager, usingReplaceFlag: Bool = false, i3Config: String = "",
        timeout: Duration = .seconds(10)
    ) throws {
        let old = windowManagerProcess.withLock { $0 }
        if usingReplaceFlag {
            guard manager.canReplace, old != nil else {
                throw HarnessError("\(manager) cannot --replace \(windowManager)")
            }
        } else if let old {
            let name = windowManager
            let result = old.terminate(grace: .seconds(3))
            windowManagerProcess.withLock { $0 = nil }
            currentWindowManager.withLock { $0 = .none }
            // A clean shutdown, not SIGKILL: the WM handed its windows back (i3 exits 128 + SIGTERM).
            let clean: [Termination] = [.exited(0), .exited(128 + SIGTERM), .signaled(SIGTERM)]
            guard clean.contains(result.termination) else {
                throw HarnessError("\(name) ended with \(result.termination) on SIGTERM: \(result.stderrText.suffix(1000))")
            }
            try waitUntil("the old window manager's check window to go", timeout: timeout) {
                try runningWindowManagerName() == nil
            }
        }
        guard manager != .none else { return }
        try startWindowManager(manager, i3Config: i3Config, replacing: usingReplaceFlag, timeout: timeout)
        if usingReplaceFlag, let old {
            let ended = try old.wait(timeout: timeout)
            guard ended.succeeded else {
                throw HarnessError("the replaced window manager ended with \(ended.termination): \(ended.stderrText.suffix(1000))")
            }
        }
    }

    func startWindowManager(
        _ manager: WindowManager, i3Config: String, replacing: Bool = false, timeout: Duration
    ) throws {
        // A private config home: a developer's own ~/.config must not change how tests behave.
        let configHome = "\(directory)/config"
        try FileManager.default.createDirectory(atPath: configHome, withIntermediateDirectories: true)
        var wmEnvironment = ["XDG_CONFIG_HOME": configHome, "XDG_CACHE_HOME": "\(directory)/cache"]
        var command: [String]
        switch manager {
        case .none: return
        case .openbox: command = ["openbox", "--sm-disable"]
        case .i3:
            let path = "\(configHome)/i3.config"
            try (Self.minimalI3Config + i3Config + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            command = ["i3", "-c", path]
        case .fluxbox:
            // fluxbox keeps everything in ~/.fluxbox (keys, menu, apps, wallpaper) whatever -rc
            // says, and copies its default init over the -rc file when that directory is missing:
            // so a private HOME with the directory already made, and an init whose configVersion
            // is current (an older one makes fluxbox run fluxbox-update_configs, which rewrites it).
            let home = "\(directory)/fluxbox-home"
            try FileManager.default.createDirectory(atPath: "\(home)/.fluxbox", withIntermediateDirectories: true)
            let path = "\(home)/.fluxbox/init"
            try Self.minimalFluxboxInit.write(toFile: path, atomically: true, encoding: .utf8)
            try "background: none\n".write(toFile: "\(home)/.fluxbox/overlay", atomically: true, encoding: .utf8)
            wmEnvironment["HOME"] = home
            command = ["fluxbox", "-rc", path]
        default:
            let desktop = try desktopCommand(manager)
            command = desktop.command
            wmEnvironment.merge(desktop.environment) { $1 }
        }
        if replacing { command.append("--replace") }
        let process = try RunningProcess(
            command, environment: environment.merging(wmEnvironment) { $1 })
        windowManagerProcess.withLock { $0 = process }
        currentWindowManager.withLock { $0 = manager }
        let expected = manager.advertisedName
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        try waitUntil("\(manager) to claim \(display)", timeout: timeout) {
            try checkAlive(process, manager)
            return try runningWindowManagerName() == expected
        }
        // The check window is set before the WM handles events: openbox drops MapRequests
        // that arrive during its startup. Map probe windows until one is really managed.
        var attempt = 0
        while true {
            attempt += 1
            if try probeIsManaged(within: .milliseconds(min(500 * attempt, 2000))) { return }
            try checkAlive(process, manager)
            guard clock.now < deadline else {
                throw HarnessError.timedOut("\(manager) to manage a window on \(display)", after: timeout,
                    detail: "probe windows stayed unmanaged; \(manager) stderr: \(process.stderrText.suffix(1500))")
            }
        }
    }

    private func checkAlive(_ process: RunningProcess, _ manager: WindowManager) throws {
        if let ended = process.termination {
            throw HarnessError("\(manager) exited (\(ended)) on \(display): \(process.stderrText.suffix(1500))")
        }
    }

    /// Maps a small window and reports whether the WM reparents it within `limit`;
    /// the probe is gone again when this returns.
    private func probeIsManaged(within limit: Duration) throws -> Bool {
        let name = "pipcam-wm-probe"
        let probe = try RunningProcess(
            ["xlogo", "-name", name, "-geometry", "16x16+0+0"], environment: environment)
        defer {
            probe.terminate(grace: .seconds(1))
            try? waitUntil("the WM probe window to go", timeout: .seconds(2)) {
                try windows(className: name).isEmpty
            }
        }
        let root = try rootWindow()
        return (try? poll(timeout: limit, what: "the WM to manage its probe") { () -> Bool? in
            guard let window = try windows(className: name).first,
                let parent = try parent(of: window), parent != root,
                try info(of: window)?.isViewable == true
            else { return nil }
            return true
        }) ?? false
    }

    /// No bar, no focus following the mouse, no pointer warping: a quiet i3 for tests.
    static let minimalI3Config = """
        # i3 config file (v4)
        # pipcam integration tests: a bare i3. No bar {} block, so no i3bar.
        font fixed
        focus_follows_mouse no
        mouse_warping none
        focus_on_window_activation smart
        default_border normal 1
        default_floating_border normal 1
        floating_modifier Mod1
        workspace_auto_back_and_forth no

        """

    /// No toolbar (it would reserve a strip of the work area), click to focus; the style overlay
    /// (`background: none`) keeps fluxbox from running fbsetbg.
    static let minimalFluxboxInit = """
        session.configVersion: 13
        session.screen0.toolbar.visible: false
        session.screen0.slit.autoHide: true
        session.screen0.workspaces: 4
        session.screen0.focusModel: ClickFocus
        session.screen0.focusNewWindows: true
        session.styleOverlay: ~/.fluxbox/overlay

        """
}
