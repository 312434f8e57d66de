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
    let ticket: SwitchTicket
    /// The timer that ends the wait (`openSeconds`, then `shownSeconds`).
    var timer: Int?
    /// The new source's first frame, once the capture side switched.
    var firstSequence: UInt64?
    var name: String?

    /// How long the new source may take to open before the switch fails (it gets
    /// `SourceSwitcher.firstFrameNanoseconds` for its first frame after that): a FIFO with no
    /// writer never opens.
    static let openSeconds: Int64 = 5
    /// How long after the switch the asker waits at most for the first frame to be put (no
    /// window may be able to take one): answered then all the same.
    static let shownSeconds: Int64 = 1
}

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
        // The camera shown already: nothing to do (opening it a second time would find it busy).
        if case .spec(.camera(let path), _) = target, CameraCycle.resolved(path) == CameraCycle.resolved(currentSourceName) {
            return reply(.switched(source: currentSourceName))
        }
        let ticket = SwitchTicket()
        pendingSwitch = PendingSwitch(target: text, from: currentSourceName, reply: reply, ticket: ticket)
        pendingSwitch?.timer = after(seconds: PendingSwitch.openSeconds) { [unowned self] in
            guard let pending = pendingSwitch, pending.ticket.cancel() else { return }
            pendingSwitch = nil
            pending.reply(.failed("pipcam: cannot switch to \(text): it did not open within \(PendingSwitch.openSeconds) s (still showing \(pending.from))"))
        }
        let excluded = pump.share.map { [CameraCycle.resolved($0.device)] } ?? []
        SwitchJob(target: target, request: sourceRequestNow, excluded: Set(excluded), inbox: switcher.inbox, wake: pump.mailbox.toCapture,
            ticket: ticket).run()
    }

    private func after(seconds: Int64, _ handler: @escaping () -> Void) -> Int {
        loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: seconds * 1_000_000_000), handler)
    }

    /// Acts on what the capture side (or the starting thread) says became of the switch.
    func followSwitchOutcomes() {
        for outcome in switcher.inbox.takeOutcomes() {
            if case .switched = outcome {
                stats.noteSwitch()
                // Unseen, no frame comes to replace the one kept for redraws: given back now, it
                // lets the old source go (a camera closes) instead of when a window shows video.
                if framesUnseen { releaseFrames() }
            }
            guard var pending = pendingSwitch else { continue }
            if let timer = pending.timer { loop.cancelTimer(timer) }
            switch outcome {
            case .switched(let name, let firstSequence):
                pending.firstSequence = firstSequence
                pending.name = name
                pending.timer = after(seconds: PendingSwitch.shownSeconds) { [unowned self] in finishSwitch() }
                pendingSwitch = pending
                // No window shows video (or the frame already went by): nothing more to wait for.
                if !pip.output.isShowingVideo || lastPresentedSequence.map({ $0 >= firstSequence }) == true { finishSwitch() }
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
        if let timer = pending.timer { loop.cancelTimer(timer) }
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
