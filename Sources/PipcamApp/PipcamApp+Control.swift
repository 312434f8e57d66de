import CameraSource
import PipControl
import PipCore
import PipWindow

/// Every door's requests (`PipRequest`) carried out in one table: the subcommands through the
/// control doors, the keys, the windows' controls, the media player, the hotkey and the switch key.
extension PipcamApp {
    /// Answers control requests on the doors and grabs the hotkeys, as the options say.
    func installControl() {
        doors?.install(on: loop, status: { [unowned self] in statusSnapshot }, carryOut: { [unowned self] in carryOut($0, reply: $1) })
        // None on Wayland (the launcher said so), where a compositor's shortcut runs `pipcam toggle`.
        guard let loop = x11?.loop else { return }
        HotkeyGrabs.grab(options.hotkey, as: .toggle, on: loop) { [unowned self] in carryOut(.pip(.toggle)) }
        HotkeyGrabs.grab(options.switchKey, as: .switchNext, on: loop) { [unowned self] in carryOut(.switchSource(.next)) }
    }

    /// A request from a door with no one to answer but the user (a key, a control, the hotkey):
    /// a refusal is said on standard error, unless it is a playback refusal, which the keys of a
    /// camera's window meet all the time.
    func carryOut(_ request: PipRequest) {
        carryOut(request) { answer in
            if case .failed(let line) = answer, case .switchSource = request { writeErrorLine(line) }
        }
    }

    /// The dispatch table: `reply` is called once, at once or when the request is done (a switch
    /// once the new source shows, a seek once its frame does).
    func carryOut(_ request: PipRequest, reply: @escaping (PipReply) -> Void) {
        switch request {
        case .pip(.toggle): pip.toggle(); reply(.done(""))
        case .pip(.start): pip.start(); reply(.done(""))
        case .pip(.stop): pip.stop(); reply(.done(""))
        case .status: reply(.done(statusSnapshot.json.encoded))
        case .switchSource(let target): switches.switchSource(to: target, reply: reply)
        case .camera(let ask): reply(cameras.answer(ask))
        case .playback(let action): playing.carryOut(action, reply: reply)
        case .quit:
            reply(.done(""))
            loop.stop(exitCode: 0)
        }
    }

    /// What `pipcam status` reports now; `main` is the window PiP restores.
    var statusSnapshot: InstanceStatus {
        let (window, stats) = (windows.statusFrame, frames.stats)
        var status = InstanceStatus(
            state: pip.phase.statusName, source: frames.status.name ?? options.sourceName, camera: frames.status.camera.description,
            holder: frames.status.holder, shown: stats.shown, dropped: stats.dropped, unseen: stats.unseen, fps: stats.fps, pip: pip.pipFrame,
            main: window.rect, mainVisible: window.visible, share: pump.share.map(SharedStreamStatus.init(share:)),
            framing: picture.framing, controls: cameras.changed, playback: playing.state)
        (status.windowSystem, status.pipRole) = windowSystem.names
        return status
    }
}
