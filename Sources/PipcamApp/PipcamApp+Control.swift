import CameraSource
import PipCore
import PipWindow

/// `pipcam toggle|start|stop|status|switch|quit`, the global hotkey and the switch key, wired into
/// the running program.
extension PipcamApp {
    /// Answers control commands on the claimed selection and grabs the hotkey, as the options say.
    /// The server and grabber live as long as the loop's handlers that hold them.
    func installControl() {
        if let claim = options.control {
            let server = ControlServer(display: loop.display, claim: claim) { [unowned self] in statusSnapshot }
            server.onCommand = { [unowned self] in perform($0) }
            server.onSwitch = { [unowned self] in switches.switchSource(to: $0, reply: $1) }
            server.onCamera = { [unowned self] in cameras.answer($0) }
            server.onPlayback = { [unowned self] in playing.carryOut($0, reply: $1) }
            server.install(on: loop)
        }
        if let spec = options.hotkey { grab(spec, as: .toggle) { [unowned self] in perform(.toggle) } }
        if let spec = options.switchKey {
            grab(spec, as: .switchNext) { [unowned self] in
                // No one to answer but the user: a failure is said on standard error.
                switches.switchSource(to: "next") { reply in
                    if case .failed(let line) = reply { writeErrorLine(line) }
                }
            }
        }
    }

    private func grab(_ spec: HotkeySpec, as role: HotkeyGrabber.Role, onPress: @escaping () -> Void) {
        let grabber = HotkeyGrabber(display: loop.display, spec: spec, role: role)
        grabber.onPress = onPress
        loop.observeOtherEvents { grabber.handle($0) }
        grabber.grab()
    }

    /// Carries out a control command (the hotkey is `.toggle`).
    func perform(_ command: ControlCommand) {
        switch command {
        case .toggle: pip.toggle()
        case .start: pip.start()
        case .stop: pip.stop()
        case .quit: loop.stop(exitCode: 0)
        case .status: break
        }
    }

    /// What `pipcam status` reports now. `main` is the main window (embedded or not), or with
    /// `--follow-window` the followed window: the window PiP restores.
    var statusSnapshot: InstanceStatus {
        let window = main?.id ?? sourceWindow
        let fallback = main.map { Rect(x: 0, y: 0, width: $0.size.width, height: $0.size.height) } ?? Rect(x: 0, y: 0, width: 0, height: 0)
        let stats = frames.stats
        return InstanceStatus(
            state: pip.phase.statusName, source: frames.status.name ?? options.sourceName, camera: frames.status.camera.description,
            holder: frames.status.holder, shown: stats.shown, dropped: stats.dropped, unseen: stats.unseen, fps: stats.fps, pip: pip.pipFrame,
            main: (window != 0 ? loop.display.rootGeometry(of: window) : nil) ?? fallback,
            // Viewable, not just mapped: an embedded view stays mapped in a minimized embedder.
            mainVisible: window != 0 && loop.display.isViewable(window) == true, share: pump.share.map(SharedStreamStatus.init(share:)),
            framing: picture.framing, controls: cameras.changed, playback: playing.state)
    }
}
