import CameraSource
import PipCore
import PipWindow

/// Whether a switch's new source may still be handed to the capture side, or was given up on.
final class SwitchTicket: Sendable {
    private enum State { case opening, proposed, cancelled }
    private let state = Locked(State.opening)

    /// Runs `hand` (the source handed over, or why it cannot be) unless the switch was given up
    /// on; false when it was.
    func handOver(_ hand: () -> Void) -> Bool {
        state.withLock { s in
            guard s == .opening else { return false }
            hand()
            s = .proposed
            return true
        }
    }

    /// Gives the switch up unless its source was handed over already; false when it was.
    func cancel() -> Bool {
        state.withLock { s in
            guard s == .opening else { return false }
            s = .cancelled
            return true
        }
    }
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
        if let refusal = switches.refusal { return reply(.failed(refusal)) }
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
        // The camera shown already: nothing to do (opening it a second time would find it busy).
        if case .spec(.camera(let path), _) = target, CameraCycle.resolved(path) == CameraCycle.resolved(currentSourceName) {
            return reply(.switched(source: currentSourceName))
        }
        let ticket = SwitchTicket()
        switches.begin(target: text, from: currentSourceName, now: .now())
        switchAsker = (reply, ticket)
        switchWake.set(switches.nextDeadline)
        let excluded = pump.share.map { [CameraCycle.resolved($0.device)] } ?? []
        SwitchJob(target: target, request: sourceRequestNow, excluded: Set(excluded), inbox: switcher.inbox, wake: pump.mailbox.toCapture,
            ticket: ticket).run()
    }

    /// Acts on what the capture side (or the starting thread) says became of the switch.
    func followSwitchOutcomes() {
        for outcome in switcher.inbox.takeOutcomes() {
            switch outcome {
            case .switched(let name, let firstSequence):
                stats.noteSwitch()
                // Unseen, no frame comes to replace the one kept for redraws: given back now, it
                // lets the old source go (a camera closes) instead of when a window shows video.
                if viewing.framesUnseen { releaseFrames() }
                answerSwitch(switches.switched(
                    name: name, firstSequence: firstSequence, showingVideo: pip.output.isShowingVideo, now: .now()))
            case .failed(_, let reason):
                answerSwitch(switches.failed(reason: reason))
            }
        }
    }

    /// A frame numbered `sequence` was put to the window showing video: the asker of a switch
    /// whose first frame it is (or follows) is answered.
    func notePresented(sequence: UInt64) {
        answerSwitch(switches.presented(sequence: sequence))
    }

    /// At the tracker's deadline: answered after the first frame's wait, or given up while opening.
    func followSwitchDeadline() {
        switch switches.tick(now: .now()) {
        case .answer(let answer)?: answerSwitch(answer)
        case .openTimedOut?:
            if switchAsker?.ticket.cancel() == true { answerSwitch(switches.giveUp()) } else { switches.handedOver() }
        case nil: break
        }
        switchWake.set(switches.nextDeadline)
    }

    private func answerSwitch(_ answer: SwitchTracker.Answer?) {
        switchWake.set(switches.nextDeadline)
        guard let answer, let asker = switchAsker else { return }
        switchAsker = nil
        switch answer {
        case .switched(let name): asker.reply(.switched(source: name))
        case .failed(let line): asker.reply(.failed(line))
        }
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
    let ticket: SwitchTicket

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
                return fail(name, "\(error)")
            }
            // A camera another application holds starts waiting for it: for a switch that is a failure.
            if case .interrupted(let why) = source.cameraState, why != .pressure {
                source.stop()
                return fail(name, "\(name): \(why.reason)")
            }
            // Given up on meanwhile (it took too long to open): not shown after all.
            guard ticket.handOver({ inbox.propose(source, name: name) }) else { return source.stop() }
            wake.signal()
        }
    }

    /// Reports why the switch cannot be made, unless it was given up on meanwhile.
    private func fail(_ name: String, _ reason: String) {
        _ = ticket.handOver { inbox.report(.failed(name: name, reason: reason)) }
    }

    /// The spec and name to switch to; nil (reported) when `next` finds no other camera.
    private func resolve() -> (SourceSpec, String)? {
        switch target {
        case .spec(let spec, let name):
            return (spec, name)
        case .nextCamera(let current):
            let cameras = CameraDiscovery().captureCameraPaths(excluding: excluded)
            guard let path = CameraCycle.next(after: current, among: cameras) else {
                fail("next", cameras.isEmpty ? "next: no camera found" : "next: no other camera found")
                return nil
            }
            return (.camera(path: path), path)
        }
    }
}
