import Foundation
import TestSupport
import Testing

/// The environments of the desktop tier: the window managers of the desktops people run, each on
/// its own Xvfb, and the Wayland sessions' compositors with their Xwayland
/// (docs/WINDOW-MANAGERS.md has the matrix they produce).
enum DesktopEnvironment: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case xfwm4, xfwm4Compositing = "xfwm4+compositor"
    case mutter = "mutter-x11"
    case kwin = "kwin_x11", kwinCompositing = "kwin_x11+compositing"
    case marco, metacity, muffin
    case openbox, fluxbox, i3
    /// fluxbox with picom compositing, and the apps rule docs/WINDOW-MANAGERS.md gives for opacity.
    case fluxboxPicom = "fluxbox+picom"
    case mutterXWayland = "mutter-xwayland", kwinXWayland = "kwin_wayland-xwayland"

    /// The desktop it belongs to, for the matrix.
    var desktop: String {
        switch self {
        case .xfwm4, .xfwm4Compositing: "Xfce"
        case .mutter: "GNOME (X11 session)"
        case .kwin, .kwinCompositing: "KDE Plasma (X11 session)"
        case .marco: "MATE"
        case .metacity: "GNOME Flashback"
        case .muffin: "Cinnamon"
        case .openbox: "LXDE / LXQt"
        case .fluxbox, .fluxboxPicom: "fluxbox"
        case .i3: "i3"
        case .mutterXWayland: "GNOME (Wayland session)"
        case .kwinXWayland: "KDE Plasma (Wayland session)"
        }
    }

    /// The Wayland compositor whose Xwayland pipcam runs under, if it does.
    var compositor: WaylandCompositor? {
        switch self {
        case .mutterXWayland: .mutter
        case .kwinXWayland: .kwin
        default: nil
        }
    }

    var manager: WindowManager {
        switch self {
        case .xfwm4: .xfwm4
        case .xfwm4Compositing: .xfwm4Compositing
        case .mutter: .mutter
        case .kwin: .kwin
        case .kwinCompositing: .kwinCompositing
        case .marco: .marco
        case .metacity: .metacity
        case .muffin: .muffin
        case .openbox: .openbox
        case .fluxbox, .fluxboxPicom: .fluxbox
        case .i3: .i3
        case .mutterXWayland, .kwinXWayland: .none  // the compositor is the window manager
        }
    }

    /// Whether something composites, so that `--opacity` can show.
    var composites: Bool { compositor != nil || self == .fluxboxPicom || manager.composites }

    /// Why the screen's pixels cannot be read, if they cannot: Xwayland is rootless (its root
    /// window holds nothing; the compositor draws the screen).
    var screenUnreadable: String? {
        compositor.map { "Xwayland is rootless: no screen to read under \($0)" }
    }

    /// Why a drag cannot be driven here, if it cannot.
    var cannotDrag: String? {
        compositor.map { _ in
            "the compositor moves the window (pipcam hands the drag over by _NET_WM_MOVERESIZE) with its own pointer, which xdotool's XTEST pointer inside Xwayland does not move"
        }
    }

    /// Why the screen cannot be trusted after a desktop switch, if it cannot: muffin on Xvfb stops
    /// repainting then (every window, not only pipcam's: the screen keeps showing the old desktop's
    /// windows, which are mapped but not painted, and no new picture).
    var stalesAfterDesktopSwitch: String? {
        self == .muffin ? "muffin on Xvfb stops repainting the screen after a workspace switch (any window)" : nil
    }

    /// Minimizes `window` as a user would (`WM_CHANGE_STATE` Iconic); on i3, which has no
    /// minimize, sends it to the scratchpad.
    func minimize(_ window: XWindowID, on x: XServer) throws {
        try x.runChecked(self == .i3 ? ["i3-msg", "[id=\(window.raw)] move scratchpad"] : ["xdotool", "windowminimize", "\(window.raw)"])
    }

    /// Brings `window` back (`_NET_ACTIVE_WINDOW`; i3: `scratchpad show`).
    func restore(_ window: XWindowID, on x: XServer) throws {
        try x.runChecked(self == .i3 ? ["i3-msg", "[id=\(window.raw)] scratchpad show"] : ["xdotool", "windowactivate", "\(window.raw)"])
    }

    /// Shows desktop `index` (from 0) and waits until it is current: i3's workspace `index + 1`
    /// (made on demand); elsewhere `_NET_CURRENT_DESKTOP`, after asking for a second desktop where
    /// the WM has one only. The number of desktops then, or nil if there is only one.
    func showDesktop(_ index: Int, on x: XServer) throws -> Int? {
        if self == .i3 {
            try x.runChecked(["i3-msg", "workspace", "\(index + 1)"])
        } else {
            if try (x.rootProperty("_NET_NUMBER_OF_DESKTOPS")?.integers.first ?? 1) <= index {
                _ = try x.run(["xdotool", "set_num_desktops", "\(index + 1)"])
                _ = try? poll(timeout: .seconds(2), what: "desktop \(index + 1)") {
                    try (x.rootProperty("_NET_NUMBER_OF_DESKTOPS")?.integers.first ?? 1) > index ? true : nil
                }
            }
            guard try (x.rootProperty("_NET_NUMBER_OF_DESKTOPS")?.integers.first ?? 1) > index else { return nil }
            try x.runChecked(["xdotool", "set_desktop", "\(index)"])
        }
        try waitUntil("desktop \(index + 1) to be shown", timeout: .seconds(3)) {
            try x.rootProperty("_NET_CURRENT_DESKTOP")?.integers == [index]
        }
        return try x.rootProperty("_NET_NUMBER_OF_DESKTOPS")?.integers.first ?? 1
    }

    var testDescription: String { rawValue }

    func makeServer() throws -> XServer {
        if let compositor { return try makeXWaylandServer(compositor) }
        guard self == .fluxboxPicom else { return try IntegrationTests.makeServer(manager) }
        // The rule in place before fluxbox starts (it reads its apps file then), picom after.
        let x = try IntegrationTests.makeServer(.none)
        let home = "\(x.directory)/fluxbox-home/.fluxbox"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Self.documentedFluxboxRule().write(toFile: "\(home)/apps", atomically: true, encoding: .utf8)
        try x.replaceWindowManager(with: .fluxbox)
        _ = try x.start(["picom", "--backend", "xrender", "--no-fading-openclose"])
        Thread.sleep(forTimeInterval: 1)  // picom takes the screen over (_NET_WM_CM_S0)
        return x
    }

    /// The fluxbox apps rule docs/WINDOW-MANAGERS.md gives, exactly (between its markers).
    static func documentedFluxboxRule() throws -> String {
        let text = try String(contentsOfFile: Pipcam.packageRoot + "/docs/WINDOW-MANAGERS.md", encoding: .utf8)
        guard let start = text.range(of: "<!-- fluxbox-apps -->\n```\n"),
            let end = text.range(of: "```", range: start.upperBound..<text.endIndex)
        else { throw HarnessError("docs/WINDOW-MANAGERS.md has no fluxbox-apps block") }
        return String(text[start.upperBound..<end.lowerBound])
    }
}
