import PipWindow

/// The global keys (`--hotkey`, `--switch-key`): X key grabs, each pressed key handed to its request.
enum HotkeyGrabs {
    /// Grabs `spec` (nothing for nil) on `loop`'s display; `onPress` runs at each press.
    static func grab(_ spec: HotkeySpec?, as role: HotkeyGrabber.Role, on loop: DisplayLoop, onPress: @escaping () -> Void) {
        guard let spec else { return }
        let grabber = HotkeyGrabber(display: loop.display, spec: spec, role: role)
        grabber.onPress = onPress
        loop.observeOtherEvents { grabber.handle($0) }
        grabber.grab()
    }
}
