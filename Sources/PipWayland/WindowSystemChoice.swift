/// Which window system the user asks PiP to use: `auto` (the default), `x11` or `wayland`.
public enum WindowSystemPreference: String, Sendable, Equatable, CaseIterable {
    case auto, x11, wayland

    /// Parses the user's text (`auto`, `x11`, `wayland`; any case, spaces around ignored).
    public init(parsing text: String) throws(WindowSystemPreferenceError) {
        let word = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()).lowercased()
        guard let preference = Self(rawValue: word) else { throw WindowSystemPreferenceError(text: text) }
        self = preference
    }
}

/// Text that names no window system, in one line.
public struct WindowSystemPreferenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text as given.
    public let text: String
    public init(text: String) { self.text = text }
    public var description: String { "window system '\(text)' is not one of auto, x11, wayland" }
}

/// The Wayland surface role PiP's window would take.
public enum WaylandPipRole: Sendable, Equatable {
    /// `xx_pip_v1`, an xdg_surface role the compositor places and keeps above as PiP, made through
    /// the `xx_pip_shell_v1` global (KWin 6.5 and later).
    case xxPip
    /// A `zwlr_layer_shell_v1` overlay surface, placed by pipcam itself (wlroots compositors, KWin).
    case layerShell
}

/// What the session has of Wayland: nothing, or a compositor's name and what asking it gave.
public enum WaylandSession: Sendable, Equatable {
    /// `WAYLAND_DISPLAY` is not set (or empty).
    case absent
    /// `WAYLAND_DISPLAY` names `display`; `compositor` is what `WaylandGlobals.read` gave for it.
    case present(display: String, compositor: Result<WaylandGlobals, WaylandError>)
}

/// The window system PiP takes, decided from the user's preference, the session's displays and
/// what the compositor offers; a pure rule, every input passed in.
public enum WindowSystemChoice: Sendable, Equatable {
    /// X11 (on a Wayland desktop, through XWayland); `note` says why Wayland was not taken when
    /// the session has Wayland.
    case x11(note: String?)
    /// A native Wayland surface in `role`.
    case wayland(role: WaylandPipRole)
    /// No window system the preference allows is there; the line says what is missing.
    case refused(String)

    /// The rule:
    /// - `auto`: Wayland when the compositor offers a PiP role (xx-pip preferred, else
    ///   layer-shell, with what that role needs), else X11 when `DISPLAY` is set (with a note
    ///   saying why not Wayland when `WAYLAND_DISPLAY` is set), else refused;
    /// - `x11`: X11 when `DISPLAY` is set, else refused;
    /// - `wayland`: Wayland when the compositor offers a PiP role, else refused, naming what is missing.
    ///
    /// `needsX11` names an option given that only X11 can carry out (`--wid`: X11 window ids):
    /// then `auto` takes X11 (saying why when `WAYLAND_DISPLAY` is set), and `wayland` is refused.
    public static func decide(
        _ preference: WindowSystemPreference, wayland: WaylandSession, x11DisplaySet: Bool, needsX11: String? = nil
    ) -> WindowSystemChoice {
        if let needsX11, preference != .x11 {
            if preference == .wayland { return .refused("\(needsX11) needs X11, not window system wayland") }
            guard x11DisplaySet else { return .refused("\(needsX11) needs X11, and DISPLAY is not set") }
            if case .present(let display, _) = wayland, !display.isEmpty { return .x11(note: "\(needsX11) needs X11: PiP goes through XWayland") }
            return .x11(note: nil)
        }
        switch preference {
        case .x11:
            return x11DisplaySet ? .x11(note: nil) : .refused("window system x11: DISPLAY is not set")
        case .wayland:
            switch waylandRole(wayland) {
            case .success(let role): return .wayland(role: role)
            case .failure(let why): return .refused("window system wayland: \(why.line)")
            }
        case .auto:
            switch waylandRole(wayland) {
            case .success(let role):
                return .wayland(role: role)
            case .failure(.noWaylandDisplay):
                return x11DisplaySet ? .x11(note: nil) : .refused("no display: neither WAYLAND_DISPLAY nor DISPLAY is set")
            case .failure(let why):
                // DISPLAY beside a compositor that answered is its XWayland; beside one that did
                // not, whatever X server it names.
                let x = if case .lacking = why { "XWayland" } else { "X11" }
                return x11DisplaySet
                    ? .x11(note: "\(why.line): PiP goes through \(x)")
                    : .refused("\(why.line), and DISPLAY is not set for \(x)")
            }
        }
    }

    /// What a compositor lacks for a PiP role, in the words of the rule's lines.
    private struct Lack: Error {
        let what: String
        init(_ what: String) { self.what = what }
    }

    /// Why a session's compositor gives PiP no Wayland role.
    private enum NoRole: Error {
        case noWaylandDisplay
        case unreachable(WaylandError)
        case lacking(display: String, what: String)

        var line: String {
            switch self {
            case .noWaylandDisplay: "WAYLAND_DISPLAY is not set"
            case .unreachable(let error): error.description
            case .lacking(let display, let what): "the compositor at \(display) \(what)"
            }
        }
    }

    private static func waylandRole(_ session: WaylandSession) -> Result<WaylandPipRole, NoRole> {
        guard case .present(let display, let compositor) = session, !display.isEmpty else { return .failure(.noWaylandDisplay) }
        switch compositor {
        case .failure(let error): return .failure(.unreachable(error))
        case .success(let globals):
            return role(in: globals).mapError { .lacking(display: display, what: $0.what) }
        }
    }

    /// The role `globals` allow, or what the compositor lacks for one ("offers neither xx-pip nor
    /// layer-shell (GNOME)", "offers layer-shell but not wl_shm").
    private static func role(in globals: WaylandGlobals) -> Result<WaylandPipRole, Lack> {
        // Any surface needs wl_compositor, and pipcam draws into shared memory.
        let common = ["wl_compositor", "wl_shm"].filter { !globals.offers($0) }
        // xx-pip is an xdg_surface role; a layer surface needs no xdg_wm_base.
        let pipMissing = common + (globals.offers("xdg_wm_base") ? [] : ["xdg_wm_base"])
        let layerVersion = globals.version(of: "zwlr_layer_shell_v1")
        // Versions start at 1: a 0 is a compositor's mistake, and no surface can be asked of it.
        let layerMissing = common + (layerVersion == 0 ? ["layer-shell version 1"] : [])
        let offersPip = globals.offers("xx_pip_shell_v1"), offersLayer = layerVersion != nil

        if offersPip && pipMissing.isEmpty { return .success(.xxPip) }
        if offersLayer && layerMissing.isEmpty { return .success(.layerShell) }
        switch (offersPip, offersLayer) {
        case (false, false):
            return .failure(Lack("offers neither xx-pip nor layer-shell" + (desktop(of: globals).map { " (\($0))" } ?? "")))
        case (true, false):
            return .failure(Lack("offers xx-pip but not \(pipMissing.joined(separator: ", "))"))
        case (false, true):
            return .failure(Lack("offers layer-shell but not \(layerMissing.joined(separator: ", "))"))
        case (true, true):
            // What layer-shell lacks, xx-pip lacks too.
            return .failure(Lack("offers xx-pip and layer-shell but not \(layerMissing.joined(separator: ", "))"))
        }
    }

    /// The desktop a compositor belongs to, where one of its own globals tells, for the note.
    private static func desktop(of globals: WaylandGlobals) -> String? {
        if globals.offers("gtk_shell1") { return "GNOME" }
        // Not any org_kde_ global: wlroots compositors offer some of KWin's too.
        if globals.offers("org_kde_plasma_shell") { return "KDE" }
        return nil
    }
}
