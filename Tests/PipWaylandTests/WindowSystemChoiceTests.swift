import PipWayland
import Testing

/// The rule that picks PiP's window system: every branch, with its exact line.
struct WindowSystemChoiceTests {
    // What compositors offer, cut down to what the rule looks at (and what tells a desktop).
    static let sway = globals("wl_compositor", "wl_shm", "xdg_wm_base", "zwlr_layer_shell_v1@4")
    static let kwin65 = globals("wl_compositor", "wl_shm", "xdg_wm_base", "zwlr_layer_shell_v1@5", "xx_pip_shell_v1", "org_kde_plasma_shell@8")
    static let gnome = globals("wl_compositor", "wl_shm", "xdg_wm_base", "gtk_shell1@5")
    static let weston = globals("wl_compositor", "wl_shm", "xdg_wm_base")

    /// Globals from `name` (version 1) or `name@version`.
    static func globals(_ entries: String...) -> WaylandGlobals {
        WaylandGlobals(entries.map { entry in
            let parts = entry.split(separator: "@")
            return WaylandGlobals.Global(String(parts[0]), version: parts.count > 1 ? UInt32(parts[1])! : 1)
        })
    }

    static func at(_ globals: WaylandGlobals) -> WaylandSession { .present(display: "wayland-1", compositor: .success(globals)) }
    static let unreachable = WaylandSession.present(
        display: "wayland-1",
        compositor: .failure(WaylandError(kind: .noCompositor, description: "no Wayland compositor at wayland-1 (No such file or directory)")))

    func decide(_ preference: WindowSystemPreference, _ wayland: WaylandSession, x11: Bool) -> WindowSystemChoice {
        WindowSystemChoice.decide(preference, wayland: wayland, x11DisplaySet: x11)
    }

    // MARK: the preference as text

    @Test func preferenceParsesItsThreeWords() throws {
        #expect(try WindowSystemPreference(parsing: "auto") == .auto)
        #expect(try WindowSystemPreference(parsing: "x11") == .x11)
        #expect(try WindowSystemPreference(parsing: " Wayland ") == .wayland)
    }

    @Test(arguments: ["", "x", "X12", "wayland2", "xwayland"])
    func anythingElseIsRefusedInOneLine(text: String) {
        #expect(throws: WindowSystemPreferenceError(text: text)) { try WindowSystemPreference(parsing: text) }
        #expect(WindowSystemPreferenceError(text: text).description == "window system '\(text)' is not one of auto, x11, wayland")
    }

    // MARK: options only X11 carries out

    @Test func anOptionOnlyX11CarriesOutTakesX11UnderAutoSayingWhyBesideWayland() {
        #expect(WindowSystemChoice.decide(.auto, wayland: Self.at(Self.sway), x11DisplaySet: true, needsX11: "--wid")
            == .x11(note: "--wid needs X11: PiP goes through XWayland"))
        #expect(WindowSystemChoice.decide(.auto, wayland: .absent, x11DisplaySet: true, needsX11: "--wid") == .x11(note: nil))
        #expect(WindowSystemChoice.decide(.x11, wayland: Self.at(Self.sway), x11DisplaySet: true, needsX11: "--follow-window") == .x11(note: nil))
    }

    @Test func anOptionOnlyX11CarriesOutIsRefusedWithoutX11OrUnderWayland() {
        #expect(WindowSystemChoice.decide(.auto, wayland: Self.at(Self.sway), x11DisplaySet: false, needsX11: "--follow-window")
            == .refused("--follow-window needs X11, and DISPLAY is not set"))
        #expect(WindowSystemChoice.decide(.wayland, wayland: Self.at(Self.sway), x11DisplaySet: true, needsX11: "$XEMBED")
            == .refused("$XEMBED needs X11, not window system wayland"))
    }

    // MARK: auto

    @Test func autoTakesLayerShellOnSway() {
        #expect(decide(.auto, Self.at(Self.sway), x11: true) == .wayland(role: .layerShell))
        #expect(decide(.auto, Self.at(Self.sway), x11: false) == .wayland(role: .layerShell))
    }

    @Test func autoPrefersXXPipWhereOffered() {
        #expect(decide(.auto, Self.at(Self.kwin65), x11: true) == .wayland(role: .xxPip))
    }

    @Test func xxPipWithoutXdgShellFallsBackToLayerShell() {
        let odd = Self.globals("wl_compositor", "wl_shm", "zwlr_layer_shell_v1", "xx_pip_shell_v1")
        #expect(decide(.auto, Self.at(odd), x11: true) == .wayland(role: .layerShell))
    }

    @Test func autoOnGNOMEGoesThroughXWaylandSayingWhy() {
        #expect(decide(.auto, Self.at(Self.gnome), x11: true) == .x11(
            note: "the compositor at wayland-1 offers neither xx-pip nor layer-shell (GNOME): PiP goes through XWayland"))
    }

    @Test func kwinBeforeLayerShellIsNamedKDE() {
        let kwin519 = Self.globals("wl_compositor", "wl_shm", "xdg_wm_base", "org_kde_plasma_shell@6", "org_kde_kwin_idle")
        #expect(decide(.auto, Self.at(kwin519), x11: true) == .x11(
            note: "the compositor at wayland-1 offers neither xx-pip nor layer-shell (KDE): PiP goes through XWayland"))
    }

    /// wlroots compositors offer some org_kde_ globals too (sway: org_kde_kwin_idle): not named KDE for them.
    @Test func aCompositorOfNoKnownDesktopIsNotNamed() {
        let wlroots = Self.globals("wl_compositor", "wl_shm", "xdg_wm_base", "org_kde_kwin_idle", "org_kde_kwin_server_decoration_manager")
        #expect(decide(.auto, Self.at(wlroots), x11: true) == .x11(
            note: "the compositor at wayland-1 offers neither xx-pip nor layer-shell: PiP goes through XWayland"))
        #expect(decide(.auto, Self.at(Self.weston), x11: true) == .x11(
            note: "the compositor at wayland-1 offers neither xx-pip nor layer-shell: PiP goes through XWayland"))
    }

    @Test func autoWithoutXWaylandIsRefusedSayingBoth() {
        #expect(decide(.auto, Self.at(Self.gnome), x11: false) == .refused(
            "the compositor at wayland-1 offers neither xx-pip nor layer-shell (GNOME), and DISPLAY is not set for XWayland"))
    }

    @Test func anUnreachableCompositorSendsAutoToX11WithTheProbesLine() {
        #expect(decide(.auto, Self.unreachable, x11: true) == .x11(
            note: "no Wayland compositor at wayland-1 (No such file or directory): PiP goes through X11"))
        #expect(decide(.auto, Self.unreachable, x11: false) == .refused(
            "no Wayland compositor at wayland-1 (No such file or directory), and DISPLAY is not set for X11"))
        let noLibrary = WaylandSession.present(
            display: "wayland-1", compositor: .failure(WaylandError(kind: .libraryMissing, description: "libwayland-client.so.0 is not installed")))
        #expect(decide(.auto, noLibrary, x11: true) == .x11(note: "libwayland-client.so.0 is not installed: PiP goes through X11"))
    }

    @Test func autoWithX11AloneTakesX11WithoutANote() {
        #expect(decide(.auto, .absent, x11: true) == .x11(note: nil))
        #expect(decide(.auto, .present(display: "", compositor: .success(Self.sway)), x11: true) == .x11(note: nil))
    }

    @Test func autoWithNoDisplayIsRefused() {
        #expect(decide(.auto, .absent, x11: false) == .refused("no display: neither WAYLAND_DISPLAY nor DISPLAY is set"))
    }

    // MARK: what a role needs

    @Test func layerShellNeedsSharedMemory() {
        let noShm = Self.globals("wl_compositor", "xdg_wm_base", "zwlr_layer_shell_v1")
        #expect(decide(.auto, Self.at(noShm), x11: true) == .x11(
            note: "the compositor at wayland-1 offers layer-shell but not wl_shm: PiP goes through XWayland"))
    }

    @Test func layerShellNeedsVersionOne() {
        let zero = Self.globals("wl_compositor", "wl_shm", "zwlr_layer_shell_v1@0")
        #expect(decide(.wayland, Self.at(zero), x11: true) == .refused(
            "window system wayland: the compositor at wayland-1 offers layer-shell but not layer-shell version 1"))
    }

    @Test func xxPipNeedsXdgShellAndSurfaces() {
        let bare = Self.globals("wl_shm", "xx_pip_shell_v1")
        #expect(decide(.wayland, Self.at(bare), x11: true) == .refused(
            "window system wayland: the compositor at wayland-1 offers xx-pip but not wl_compositor, xdg_wm_base"))
    }

    @Test func bothRolesLackingNameWhatBothNeed() {
        let both = Self.globals("wl_compositor", "xdg_wm_base", "zwlr_layer_shell_v1", "xx_pip_shell_v1")
        #expect(decide(.wayland, Self.at(both), x11: true) == .refused(
            "window system wayland: the compositor at wayland-1 offers xx-pip and layer-shell but not wl_shm"))
    }

    // MARK: x11

    @Test func x11TakesX11WheneverDISPLAYIsSet() {
        #expect(decide(.x11, Self.at(Self.sway), x11: true) == .x11(note: nil))
        #expect(decide(.x11, .absent, x11: true) == .x11(note: nil))
    }

    @Test func x11WithoutDISPLAYIsRefused() {
        #expect(decide(.x11, Self.at(Self.sway), x11: false) == .refused("window system x11: DISPLAY is not set"))
    }

    // MARK: wayland

    @Test func waylandTakesTheRoleOffered() {
        #expect(decide(.wayland, Self.at(Self.sway), x11: true) == .wayland(role: .layerShell))
        #expect(decide(.wayland, Self.at(Self.kwin65), x11: false) == .wayland(role: .xxPip))
    }

    @Test func waylandWithoutWAYLAND_DISPLAYIsRefused() {
        #expect(decide(.wayland, .absent, x11: true) == .refused("window system wayland: WAYLAND_DISPLAY is not set"))
    }

    @Test func waylandWithAnUnreachableCompositorIsRefusedWithTheProbesLine() {
        #expect(decide(.wayland, Self.unreachable, x11: true) == .refused(
            "window system wayland: no Wayland compositor at wayland-1 (No such file or directory)"))
    }

    @Test func waylandWithoutARoleIsRefusedNamingWhatIsMissing() {
        #expect(decide(.wayland, Self.at(Self.gnome), x11: true) == .refused(
            "window system wayland: the compositor at wayland-1 offers neither xx-pip nor layer-shell (GNOME)"))
    }

    // MARK: the globals value

    @Test func globalsTellWhatIsOfferedAndTheHighestVersion() {
        let outputs = WaylandGlobals([.init("wl_output", version: 3), .init("wl_output", version: 4), .init("wl_shm", version: 1)])
        #expect(outputs.offers("wl_output"))
        #expect(!outputs.offers("wl_seat"))
        #expect(outputs.version(of: "wl_output") == 4)
        #expect(outputs.version(of: "wl_seat") == nil)
    }
}
