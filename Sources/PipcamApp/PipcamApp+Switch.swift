import CameraSource
import PipCore
import PipWindow

/// A switch under way: who asked, and when the new picture is up.
struct PendingSwitch {
    /// What the source was asked to become (`next`, or the spec as given).
    let target: String
    /// The source shown when the switch was asked for, for messages.
    let from: String
    let reply: (SwitchReply) -> Void
    /// The new source's first frame, once the capture side switched.
    var firstSequence: UInt64?
    var name: String?
}

/// `pipcam switch SOURCE|next` and the switch key (docs/BEHAVIOUR.md, "Switching the source"): the
/// new source is made and started on a thread of its own while the old one goes on, the capture
/// side replaces the old one at the new one's first frame (`SourceSwitcher`), and the asker is
/// answered once that frame is put to the window showing video — or with why not, the old source
/// still showing.
extension PipcamApp {
    /// The source shown now, as `status` names it.
    var currentSourceName: String { status.name ?? options.sourceName }

    /// Starts a switch to `text` (`next`, or any `--source` form with an absolute path) and calls
    /// `reply` once it is done or failed.
    func switchSource(to text: String, reply: @escaping (SwitchReply) -> Void) {
        if let pending = pendingSwitch { return reply(.failed("pipcam: a switch to \(pending.target) is under way")) }
        let target: SwitchJob.Target
        if text == "next" {
            target = .nextCamera(after: currentSourceName)
        } else {
            do {
                target = .spec(try SourceSpec.parse(text), name: text)
            } catch {
                return reply(.failed("pipcam: \(error)"))
            }
        }
        if let problem = SwitchJob.problem(with: target, sharing: pump.share?.device) { return reply(.failed("pipcam: \(problem)")) }
        pendingSwitch = PendingSwitch(target: text, from: currentSourceName, reply: reply)
        SwitchJob(target: target, request: sourceRequestNow, excluded: pump.share.map { [CameraCycle.resolved($0.device)] } ?? [], inbox: switcher.inbox,
            wake: pump.mailbox.toCapture).run()
    }

    /// Acts on what the capture side (or the starting thread) says became of the switch.
    func followSwitchOutcomes() {
        for outcome in switcher.inbox.takeOutcomes() {
            guard var pending = pendingSwitch else { continue }
            switch outcome {
            case .switched(let name, let firstSequence):
                stats.noteSwitch()
                pending.firstSequence = firstSequence
                pending.name = name
                pendingSwitch = pending
                // No window shows video (or the frame already went by): nothing more to wait for.
                if !pip.output.isShowingVideo || (lastPresentedSequence ?? 0) >= firstSequence && lastPresentedSequence != nil {
                    finishSwitch()
                }
            case .failed(_, let reason):
                pendingSwitch = nil
                pending.reply(.failed("pipcam: cannot switch to \(reason) (still showing \(pending.from))"))
            }
        }
    }

    /// A frame numbered `sequence` was put to the window showing video: the asker of a switch
    /// whose first frame it is (or follows) is answered.
    func notePresented(sequence: UInt64) {
        lastPresentedSequence = sequence
        if let first = pendingSwitch?.firstSequence, sequence >= first { finishSwitch() }
    }

    private func finishSwitch() {
        guard let pending = pendingSwitch else { return }
        pendingSwitch = nil
        pending.reply(.switched(source: pending.name ?? currentSourceName))
    }
}

/// Resolves and starts the source a switch goes to, off the display and capture threads (opening
/// a camera takes up to a second), then hands it to the capture side or reports why not.
struct SwitchJob: Sendable {
    enum Target: Sendable {
        /// The camera after the one shown (`CameraCycle`), among those plugged in now.
        case nextCamera(after: String)
        /// `name`: the spec as given, which `status` reports once switched.
        case spec(SourceSpec, name: String)
    }

    let target: Target
    let request: SourceRequest
    /// Nodes never switched to (the virtual camera pipcam feeds).
    let excluded: Set<String>
    let inbox: SwitchInbox
    let wake: WakeSignal

    /// Why `target` cannot be switched to at all, if it cannot: standard input (read once, at
    /// start) and the virtual camera pipcam itself feeds (`sharing`).
    static func problem(with target: Target, sharing: String?) -> String? {
        guard case .spec(let spec, let name) = target else { return nil }
        if spec.readsStandardInput { return "\(name): standard input can only be read as --source" }
        if case .camera(let path) = spec, let sharing, CameraCycle.resolved(path) == CameraCycle.resolved(sharing) {
            return "\(name): is the virtual camera this pipcam feeds (--share)"
        }
        return nil
    }

    func run() {
        ThreadSpawn.start(detached: true) { [self] in
            guard let (spec, name) = resolve() else { return }
            let source = SourceFactory.make(spec, request: request)
            do {
                try source.start()
            } catch {
                source.stop()
                return inbox.report(.failed(name: name, reason: "\(error)"))
            }
            // A camera another application holds starts waiting for it: for a switch that is a failure.
            if case .interrupted(let why) = source.cameraState, why != .pressure {
                source.stop()
                return inbox.report(.failed(name: name, reason: "\(name): \(why.reason)"))
            }
            inbox.propose(source, name: name)
            wake.signal()
        }
    }

    /// The spec and name to switch to; nil (reported) when `next` finds no other camera.
    private func resolve() -> (SourceSpec, String)? {
        switch target {
        case .spec(let spec, let name):
            return (spec, name)
        case .nextCamera(let current):
            let cameras = CameraDiscovery().captureCameraPaths(excluding: excluded)
            guard let path = CameraCycle.next(after: current, among: cameras) else {
                inbox.report(.failed(name: "next", reason: cameras.isEmpty ? "next: no camera found" : "next: no other camera found"))
                return nil
            }
            return (.camera(path: path), path)
        }
    }
}
