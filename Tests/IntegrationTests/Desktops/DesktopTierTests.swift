import Foundation
import TestSupport
import Testing

/// What a user meets, checked under each desktop's window manager (docs/WINDOW-MANAGERS.md):
/// every check of `DesktopCheck` for every `DesktopEnvironment`, each recorded in the matrix as
/// held, not applicable (with the reason) or failed. On only with `PIPCAM_DESKTOPS=1`
/// (`make test-desktops`). One environment at a time: the desktops' window managers are heavy,
/// and screenshots and drags stay trustworthy only on a machine that is not overloaded.
@Suite(.enabled(if: DesktopTier.enabled), .serialized, .timeLimit(.minutes(3)))
struct DesktopTierTests {
    /// A 16:9 PiP in the top-left corner of the work area.
    static let pipArguments = ["--source", "test", "--size", "320x180", "--corner", "top-left"]
    /// A drag as long as a hand's (half a second): a WM that composites in software on a busy
    /// machine can take longer to grab the pointer than a 150 ms drag lasts, and then misses it.
    static let dragSteps = 20
    static let dragStepDelay = Duration.milliseconds(25)

    @Test(arguments: DesktopEnvironment.allCases)
    func behaviour(_ environment: DesktopEnvironment) throws {
        guard DesktopTier.selected(environment.rawValue) else { return }
        let log = DesktopCheckLog(environment: environment.rawValue)
        defer { try? log.write() }
        do {
            try checkThePipWindow(environment, log)
            try checkTheMainWindow(environment, log)
            try checkOpacity(environment, log)
        } catch {
            log.failRemaining(error)
        }
    }

    /// A PiP started while another window has the focus: how it maps, stacks, follows desktops,
    /// moves and resizes.
    private func checkThePipWindow(_ environment: DesktopEnvironment, _ log: DesktopCheckLog) throws {
        let x = try environment.makeServer()
        let holder = try x.startFocusHolder()

        let (pipcam, window) = try x.startPip(Self.pipArguments)
        let start = try x.settledGeometry(of: window)

        log.check(.undecorated) {
            let outer = try x.outerGeometry(of: window)
            let extents = try x.property("_NET_FRAME_EXTENTS", of: window)?.integers
            try require(outer.width == start.width && outer.height == start.height,
                        "a frame around the PiP: frame \(outer), window \(start)")
            try require(extents == nil || extents == [0, 0, 0, 0], "_NET_FRAME_EXTENTS = \(extents ?? [])")
            try require(start.width == 320 && start.height == 180, "not at the size it asked for: \(start)")
            let area = try x.workArea()
            try require(start.x >= area.x && start.y >= area.y && start.maxX < area.x + area.width / 2
                        && start.maxY < area.y + area.height / 2, "not in the top-left of the work area \(area): \(start)")
            return .held("\(start.width)x\(start.height) at \(start.x),\(start.y), frame extents \(extents.map { "\($0)" } ?? "unset")")
        }

        log.check(.keepsFocus) {
            Thread.sleep(forTimeInterval: 1)  // the WM's focus-stealing prevention acts after the map
            let focused = try x.focusedWindow()
            let state = try x.netWMState(of: window)
            try require(focused == holder, "the focus moved from the other window to \(focused.map { "\($0)" } ?? "none")")
            try require(!state.contains("_NET_WM_STATE_DEMANDS_ATTENTION"), "left demanding attention: \(state)")
            return .held("state \(state.map { $0.replacingOccurrences(of: "_NET_WM_STATE_", with: "") }.joined(separator: ","))")
        }

        var moved = start
        log.check(.drag) {
            if let reason = environment.cannotDrag { return .notApplicable(reason) }
            try x.drag(from: start.center, to: XPoint(start.center.x + 300, start.center.y + 200), moving: window, steps: Self.dragSteps, stepDelay: Self.dragStepDelay)
            moved = try x.settledGeometry(of: window)
            let expected = start.offsetBy(dx: 300, dy: 200)
            try require(abs(moved.x - expected.x) <= 3 && abs(moved.y - expected.y) <= 3,
                        "dragged by (300, 200) from \(start): now \(moved)")
            try require(moved.width == start.width && moved.height == start.height, "a move resized it: \(moved)")
            return .held("moved by (\(moved.x - start.x), \(moved.y - start.y))")
        }

        log.check(.edgeResize) {
            if let reason = environment.cannotDrag { return .notApplicable(reason) }
            let grab = XPoint(moved.maxX - 3, moved.maxY - 3)
            try x.drag(from: grab, to: XPoint(grab.x + 200, grab.y + 40), moving: window, steps: Self.dragSteps, stepDelay: Self.dragStepDelay)
            let resized = try x.settledGeometry(of: window)
            try require(abs(resized.x - moved.x) <= 2 && abs(resized.y - moved.y) <= 2,
                        "the top-left corner moved in a resize: \(moved) → \(resized)")
            // Window managers that resize with the aspect hint follow the larger or the smaller of
            // the pointer's two moves (+200, +40): either way it grows.
            try require(resized.width >= moved.width + 60, "not enlarged: \(moved) → \(resized)")
            let ratio = Double(resized.width) / Double(resized.height)
            try require(abs(ratio / (16.0 / 9.0) - 1) <= 0.02, "aspect lost: \(resized)")
            return .held("\(moved.width)x\(moved.height) → \(resized.width)x\(resized.height)")
        }
        log.check(.above) {
            // The other window goes first: under i3 it would share the screen with the new one.
            try x.runChecked(["xdotool", "windowkill", "\(holder.raw)"])
            let pip = try x.settledGeometry(of: window)
            if let unreadable = environment.screenUnreadable {
                // Then the stacking order the compositor publishes tells.
                let logo = try x.mapAndActivateXlogo(covering: pip, lookingAtTheScreen: false)
                let stacking = try x.rootProperty("_NET_CLIENT_LIST_STACKING")?.integers ?? []
                guard let below = stacking.firstIndex(of: Int(logo.raw)), let above = stacking.firstIndex(of: Int(window.raw)) else {
                    throw CheckFailure("_NET_CLIENT_LIST_STACKING lacks the PiP or xlogo: \(stacking)")
                }
                try require(above > below, "the activated window is stacked above the PiP: \(stacking)")
                return .held("above in _NET_CLIENT_LIST_STACKING (\(unreadable))")
            }
            _ = try x.mapAndActivateXlogo(covering: pip)
            let fraction = try x.colourfulFraction(of: pip)
            try require(fraction > 0.4, "covered: only \(Int(fraction * 100)) % of the PiP's area shows the picture")
            return .held("\(Int(fraction * 100)) % of its area shows the picture")
        }

        log.check(.allDesktops) {
            let here = try x.settledGeometry(of: window)
            guard let count = try environment.showDesktop(1, on: x) else {
                return .notApplicable("one desktop only (_NET_NUMBER_OF_DESKTOPS stays 1)")
            }
            defer { _ = try? environment.showDesktop(0, on: x) }
            Thread.sleep(forTimeInterval: 0.3)
            try require(try x.isViewable(window), "hidden on the second desktop")
            let there = try x.geometry(of: window)
            try require(there == here, "moved when the desktop changed: \(here) → \(there)")
            let desktop = try x.property("_NET_WM_DESKTOP", of: window)?.integers.first
            let hint = "_NET_WM_DESKTOP = \(desktop.map { String(format: "0x%X", $0) } ?? "unset")"
            if let stale = environment.stalesAfterDesktopSwitch ?? environment.screenUnreadable {
                // Then only the window's own pixels (what pipcam drew) and its state can tell.
                let fraction = try x.windowContents(window).colourfulFraction
                let sticky = try x.netWMState(of: window).contains("_NET_WM_STATE_STICKY") || desktop == 0xFFFF_FFFF
                try require(fraction > 0.4 && sticky, "on desktop 2: drawn \(Int(fraction * 100)) %, \(hint)")
                return .held("mapped, drawn and sticky on desktop 2 of \(count), \(hint); not by the screen's pixels: \(stale)")
            }
            let fraction = try x.colourfulFraction(of: there)
            try require(fraction > 0.4, "not shown on the second desktop (\(Int(fraction * 100)) % coloured)")
            return .held("shown on desktop 2 of \(count); \(hint)")
        }

        try require(pipcam.isRunning, "pipcam ended: \(pipcam.stderrText.suffix(500))")
    }

    /// pipcam's main window: minimized it becomes PiP and comes back at its frame; the control
    /// command and the global hotkey toggle PiP.
    private func checkTheMainWindow(_ environment: DesktopEnvironment, _ log: DesktopCheckLog) throws {
        let x = try environment.makeServer()
        // A window of its own keeps i3's first workspace (and everyone's first desktop) in use.
        _ = try x.start(["xlogo", "-name", "bystander", "-geometry", "200x150+900+450"])
        _ = try x.waitForWindow(className: "bystander")
        let pipcam = try x.startPipcam(["--source", "test", "--hotkey", "super+shift+p"])
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        let pip = try x.waitForWindow(className: "pipcam", role: PipIdentity.role, viewable: false)
        let before = try x.waitForStableGeometry(of: main)

        /// PiP up or gone; the main window stays up (showing where the camera went) unless
        /// minimized: unmapped, or (compositing WMs keep it mapped for thumbnails) iconic.
        func expectPip(_ up: Bool, after what: String, mainShown: Bool = true) throws {
            func mainIsShown() throws -> Bool {
                try x.isViewable(main) && x.property("WM_STATE", of: main)?.text.contains("Iconic") != true
            }
            do {
                try waitUntil("PiP to be \(up ? "up" : "gone") after \(what)", timeout: .seconds(5)) {
                    try x.isViewable(pip) == up && mainIsShown() == mainShown
                }
            } catch {
                throw CheckFailure("\(error): PiP \(try x.isViewable(pip) ? "up" : "gone"), main window \(try mainIsShown() ? "shown" : "hidden") (WM_STATE \(try x.property("WM_STATE", of: main)?.text ?? "none")), pipcam \(try x.pipcamStateAfterEarlierEvents())")
            }
        }

        log.check(.minimizeToPip) {
            try environment.minimize(main, on: x)
            try expectPip(true, after: "the main window was minimized", mainShown: false)
            let state = try x.netWMState(of: main)
            try environment.restore(main, on: x)
            try expectPip(false, after: "the main window was activated")
            let after = try x.waitForStableGeometry(of: main)
            let states = state.map { $0.replacingOccurrences(of: "_NET_WM_STATE_", with: "") }
            if environment == .i3 {  // a window back from the scratchpad floats, centred
                return .held("by i3's scratchpad (i3 has no minimize): \(before) → \(after)")
            }
            try require(after == before, "the main window came back at \(after), not \(before)")
            return .held("main window state while minimized: \(states)")
        }

        log.check(.desktopSwitchToPip) {
            Thread.sleep(forTimeInterval: 1)  // past the 500 ms in which hiding reports echo PiP's own restore
            guard let count = try environment.showDesktop(1, on: x) else {
                return .notApplicable("one desktop only (_NET_NUMBER_OF_DESKTOPS stays 1)")
            }
            try waitUntil("PiP to start when another desktop is shown", timeout: .seconds(5)) {
                try x.isViewable(pip) && x.pipcamStateAfterEarlierEvents() == "active"
            }
            _ = try environment.showDesktop(0, on: x)
            try waitUntil("PiP to stop when the main window's desktop is back", timeout: .seconds(5)) {
                try !x.isViewable(pip) && x.pipcamStateAfterEarlierEvents() == "idle"
            }
            return .held("desktop 2 of \(count) and back")
        }

        log.check(.toggle) {
            try x.sendPipcam("toggle")
            try expectPip(true, after: "pipcam toggle")
            try x.sendPipcam("toggle")
            try expectPip(false, after: "a second pipcam toggle")
            return .held("up and back")
        }

        log.check(.hotkey) {
            try x.key("super+shift+p")
            try expectPip(true, after: "super+shift+p")
            try x.key("super+shift+p")
            try expectPip(false, after: "a second super+shift+p")
            if environment.compositor != nil {
                return .held("super+shift+p up and back, with an X11 window focused (an X key grab sees no key typed into a Wayland window)")
            }
            return .held("super+shift+p up and back")
        }
        try require(pipcam.isRunning, "pipcam ended: \(pipcam.stderrText.suffix(500))")
    }

    /// `--opacity 0.5` over a plain red window: the PiP's area is the even mix of its picture and red.
    private func checkOpacity(_ environment: DesktopEnvironment, _ log: DesktopCheckLog) throws {
        guard environment.composites else {
            log.check(.opacity) { .notApplicable("no compositor runs: X draws every window opaque") }
            return
        }
        if let unreadable = environment.screenUnreadable {
            log.check(.opacity) { .notApplicable(unreadable) }
            return
        }
        let x = try environment.makeServer()
        _ = try x.start(["xlogo", "-name", "red-backdrop", "-bg", "#ff0000", "-fg", "#ff0000", "-geometry", "600x500+0+0"])
        let backdrop = try x.waitForWindow(className: "red-backdrop")
        try x.runChecked(["xdotool", "windowactivate", "--sync", "\(backdrop.raw)"])
        log.check(.opacity) {
            var behind = RGB(0, 0, 0)
            _ = try? poll(timeout: .seconds(3), what: "the red backdrop on screen") { () -> Bool? in
                behind = try x.screenshot(x.geometry(of: backdrop).insetBy(4)).meanColor()
                return behind.distance(to: RGB(255, 0, 0)) < 40 ? true : nil
            }
            try require(behind.distance(to: RGB(255, 0, 0)) < 40, "the backdrop is not red on screen: \(behind)")
            let (_, window) = try x.startPip(Self.pipArguments + ["--opacity", "0.5"])
            let area = try x.settledGeometry(of: window)
            Thread.sleep(forTimeInterval: 0.3)
            // What pipcam drew (the window's own pixels), and what the screen shows of it.
            let inside = XRect(x: 4, y: 4, width: area.width - 8, height: area.height - 8)
            let picture = try x.windowContents(window).cropped(to: inside).meanColor()
            let mixed = try x.screenshot(area.insetBy(4)).meanColor()
            let expected = RGB((picture.red + 255) / 2, picture.green / 2, picture.blue / 2)
            try require(mixed.distance(to: expected) < 25,
                        "at opacity 0.5 the PiP shows \(mixed) on average; its picture \(picture) over red would mix to \(expected)")
            return .held("picture \(picture) over red: \(mixed), expected \(expected)")
        }
    }
}
