import PipWayland
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

/// The window system this run takes (docs/BEHAVIOUR.md, "Wayland"): `WindowSystemChoice`'s rule
/// over what the environment names and the compositor offers, asked only when the rule needs it.
enum WindowSystemRoute: Equatable {
    /// X11 (through XWayland on a Wayland desktop); `note` says why Wayland was not taken.
    case x11(note: String?)
    /// PiP as an overlay-layer surface of the compositor `WAYLAND_DISPLAY` names.
    case wayland(display: String)
    /// Neither; the line says why.
    case refused(String)

    static func choose(_ preference: WindowSystemPreference) -> WindowSystemRoute {
        let named = environment("WAYLAND_DISPLAY")
        let session: WaylandSession
        if let named, preference != .x11 {
            session = .present(display: named, compositor: Result { () throws(WaylandError) in try offered(WaylandGlobals.read(display: named)) })
        } else {
            session = .absent
        }
        switch WindowSystemChoice.decide(preference, wayland: session, x11DisplaySet: environment("DISPLAY") != nil) {
        case .x11(let note): return .x11(note: note)
        case .wayland: return .wayland(display: named ?? "")
        case .refused(let line): return .refused(line)
        }
    }

    /// What pipcam can use of `globals`: xx-pip is not built yet, so a compositor offering it
    /// and the overlay layer (KWin) gets the overlay layer.
    static func offered(_ globals: WaylandGlobals) -> WaylandGlobals {
        WaylandGlobals(globals.globals.filter { $0.interface != "xx_pip_shell_v1" })
    }

    /// The option that needs X11 windows, if `options` give one: embedding and following are
    /// X11 window ids.
    static func x11Only(_ command: PipcamCommand) -> String? {
        if command.wid != nil { return "--wid" }
        return command.followWindow != nil ? "--follow-window" : nil
    }

    /// The display's name in the control socket's (`wayland-1`; `WAYLAND_DISPLAY` may be a path).
    static func socketDisplay(_ display: String) -> String {
        display.split(separator: "/").last.map(String.init) ?? display
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }
}
