import Foundation
import TestSupport

/// How the desktops' window managers start headless on an Xvfb (docs/TESTING.md, "The desktop
/// tier"): each in a private home (they write settings, caches and session files there) and with a
/// session bus of its own, which xfwm4 (xfconf), kwin and the mutter family expect and which ends
/// with the WM (`dbus-run-session` is the process-group leader the harness terminates).
extension XServer {
    func desktopCommand(_ manager: WindowManager) throws -> (command: [String], environment: [String: String]) {
        let home = "\(directory)/home-\(manager)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var environment = [
            "HOME": home, "XDG_DATA_HOME": "\(home)/.local/share",
            // Defaults, never the user's dconf database; nothing the WM changes outlives it.
            "GSETTINGS_BACKEND": "memory",
            "NO_AT_BRIDGE": "1",  // no accessibility bus to look for
        ]
        let command: [String]
        switch manager {
        case .xfwm4: command = ["xfwm4", "--compositor=off"]
        // No vertical blank to wait for on a virtual screen.
        case .xfwm4Compositing: command = ["xfwm4", "--compositor=on", "--vblank=off"]
        case .mutter: command = ["mutter", "--x11", "--sm-disable"]
        case .kwin, .kwinCompositing:
            environment["QT_QPA_PLATFORM"] = "xcb"
            environment["KWIN_COMPOSE"] = manager == .kwin ? "N" : "O2"
            environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
            command = ["kwin_x11"]
        case .marco: command = ["marco", "--no-composite"]
        case .metacity: command = ["metacity", "--sm-disable"]
        case .muffin: command = ["muffin", "--sm-disable"]
        case .none, .openbox, .i3, .fluxbox:
            throw HarnessError("\(manager) is not a desktop's window manager")
        }
        return (["dbus-run-session", "--"] + command, environment)
    }
}
