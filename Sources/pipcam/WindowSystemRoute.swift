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

    /// `needsX11`: the option given that only X11 carries out (`x11Only`).
    static func choose(_ preference: WindowSystemPreference, needsX11: String?) -> WindowSystemRoute {
        let named = environment("WAYLAND_DISPLAY")
        // The compositor is asked only when its answer can change the choice.
        let asks = preference != .x11 && needsX11 == nil
        let session = named.map { name in
            WaylandSession.present(display: name, compositor: asks
                ? Result { () throws(WaylandError) in try offered(WaylandGlobals.read(display: name)) } : .success(WaylandGlobals([])))
        } ?? .absent
        return route(WindowSystemChoice.decide(preference, wayland: session, x11DisplaySet: environment("DISPLAY") != nil, needsX11: needsX11), display: named)
    }

    private static func route(_ choice: WindowSystemChoice, display named: String?) -> WindowSystemRoute {
        switch choice {
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

    /// The option that needs X11 windows, if `command` gives one: embedding (`--wid`, or
    /// `$XEMBED` from tabbed when not following) and following are X11 window ids.
    static func x11Only(_ command: PipcamCommand, environment: (String) -> String?) -> String? {
        if command.wid != nil { return "--wid" }
        if command.followWindow != nil { return "--follow-window" }
        return environment("XEMBED").map { $0.isEmpty ? nil : "$XEMBED" } ?? nil
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
