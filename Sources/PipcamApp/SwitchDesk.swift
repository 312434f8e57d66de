import CameraSource
import PipControl
import PipCore
import PipWindow

/// The display side of changing the source: `pipcam switch SOURCE|next` and the switch key
/// (docs/BEHAVIOUR.md, "Switching the source"), and the camera finder while the test pattern
/// stands in for a camera. Either way a new source is started on a thread of its own while the
/// old one goes on, and the capture side (`SourceSwitcher`) hands over at its first frame. The
/// asker of a switch is answered once that frame is put to the window showing video — or with
/// why not, the old source still showing.
final class SwitchDesk {
    private let loop: any EventLoop
    private let inbox: SwitchInbox
    private let wakeCapture: WakeSignal
    /// The virtual camera pipcam feeds (`--share`): never switched to, and the mode a source
    /// switched to opens in stays the shared stream's.
    private let policy: CapturePolicy
    /// What a source switched to opens for: the size the picture is shown at now, or with `--share`
    /// the shared stream's. Read by the threads that open sources.
    private let request: Locked<SourceRequest>
    private var tracker = SwitchTracker()
    /// Who asked for the switch under way, and its source's hand-over.
    private var asker: (reply: (PipReply) -> Void, ticket: SwitchTicket)?
    private lazy var wake = DeadlineWake(loop: loop) { [unowned self] in followDeadline() }
    private let finder: CameraFinder?

    /// The source shown now, as `status` names it.
    var current: () -> (spec: SourceSpec?, name: String) = { (nil, "") }
    /// Whether a window shows video now (a switch is answered at the first frame shown).
    var isShowingVideo: () -> Bool = { false }
    /// A switch the user asked for took over (counted, and frames held let go when unseen).
    var onSwitched: () -> Void = {}
    /// Asks the capture side to hold a file at its end (true) or let it end the stream (false).
    var holdFilesAtEnd: (Bool) -> Void = { _ in }
    /// The source a file switched to goes back to at its end (the one shown before it).
    private(set) var returnTo: SwitchTarget?
    /// The switch under way: the source it leaves, and whether it goes to a file.
    private var leaving: (back: SwitchTarget?, toFile: Bool)?
    /// A return is under way (asked once).
    private var returning = false

    /// - Parameter findCamera: how to look for a camera while the first source stands in for one.
    init(
        loop: any EventLoop, switcher: SourceSwitcher, wakeCapture: WakeSignal, policy: CapturePolicy, request: SourceRequest,
        findCamera: CameraFinder.Access?
    ) {
        self.loop = loop
        inbox = switcher.inbox
        self.wakeCapture = wakeCapture
        self.policy = policy
        let request = Locked(request)
        self.request = request
        finder = findCamera.map { CameraFinder(access: $0, inbox: switcher.inbox, wakeCapture: wakeCapture, request: { request.withLock { $0 } }) }
    }

    /// Listens for outcomes and starts the finder, if there is one.
    func start() {
        loop.addReader(inbox.outcomeSignal.fd) { [unowned self] in followOutcomes() }
        finder?.start()
    }

    /// Stops the finder (before the capture side stops: no camera is offered after).
    func stop() { finder?.stop() }

    /// The size the picture is shown at now, for a source switched to (when the policy says it
    /// follows the window).
    func noteDisplaySize(width: Int, height: Int) {
        guard policy.switchedToSourceFollowsDisplaySize else { return }
        request.withLock {
            $0.displayWidth = width
            $0.displayHeight = height
        }
    }

    /// Starts a switch to `asked` (a file's path absolute) and calls `reply` once it is done or failed.
    func switchSource(to asked: SwitchTarget, reply: @escaping (PipReply) -> Void) {
        if let refusal = tracker.refusal { return reply(.failed(refusal)) }
        let current = current()
        let target: SwitchJob.Target, text: String
        switch asked {
        case .next: (target, text) = (.nextCamera(after: current.spec), "next")
        case .source(let spec, let name): (target, text) = (.spec(spec, name: name), name)
        }
        if let problem = SwitchJob.problem(with: target, policy: policy) { return reply(.failed("pipcam: \(problem)")) }
        // The camera shown already: nothing to do (opening it a second time would find it busy).
        if case .spec(.camera(let path), _) = target, let shown = current.spec?.devicePath,
            CameraCycle.resolved(path) == CameraCycle.resolved(shown)
        {
            return reply(.done(""))
        }
        let ticket = SwitchTicket()
        let toFile: Bool = if case .spec(let spec, _) = target { spec.isFile } else { false }
        leaving = (current.spec.map { .source($0, text: current.name) }, toFile)
        // Held at its end from the start: the end must not end pipcam before the return.
        if toFile { holdFilesAtEnd(true) }
        tracker.begin(target: text, from: current.name, now: .now())
        asker = (reply, ticket)
        wake.set(tracker.nextDeadline)
        SwitchJob(
            target: target, request: request.withLock { $0 }, excluded: policy.camerasNeverSwitchedTo(), inbox: inbox, wake: wakeCapture, ticket: ticket
        ).run()
    }

    /// A frame numbered `sequence` was put to the window showing video: the asker of a switch
    /// whose first frame it is (or follows) is answered.
    func notePresented(sequence: UInt64) {
        answer(tracker.presented(sequence: sequence))
    }

    /// Acts on what the capture side (or the starting thread) says became of the switch.
    private func followOutcomes() {
        for outcome in inbox.takeOutcomes() {
            switch outcome {
            case .switched(let name, let firstSequence):
                // The stand-in is gone: no camera plugged in later replaces what the user chose.
                finder?.callOff()
                followSwitched()
                onSwitched()
                answer(tracker.switched(name: name, firstSequence: firstSequence, showingVideo: isShowingVideo(), now: .now()))
            case .failed(_, let reason):
                if let leaving, leaving.toFile, returnTo == nil { holdFilesAtEnd(false) }
                leaving = nil
                returning = false
                answer(tracker.failed(reason: reason))
            }
        }
    }

    /// A switch took over: a file switched to goes back at its end to the source it replaced (a
    /// file switched to from a file goes back to that file, from its start).
    private func followSwitched() {
        guard let leaving else { return }
        self.leaving = nil
        let wasReturn = returning
        returning = false
        // Back where it came from: the source there ends as it would have.
        returnTo = leaving.toFile && !wasReturn ? (returnTo ?? leaving.back) : nil
        if returnTo == nil { holdFilesAtEnd(false) }
    }

    /// The file shown stays on its last frame at its end (`ended`): back to the source before it.
    /// Without one to go back to, or when it cannot be opened, pipcam ends as at a file's end.
    func followEnd(ended: Bool, orElse end: @escaping () -> Void) {
        guard ended, !returning else { return }
        guard let back = returnTo else { return end() }
        returning = true
        switchSource(to: back) { reply in
            if case .failed(let line) = reply {
                writeErrorLine(line)
                end()
            }
        }
    }

    /// At the tracker's deadline: answered after the first frame's wait, or given up while opening.
    private func followDeadline() {
        switch tracker.tick(now: .now()) {
        case .answer(let answer)?: self.answer(answer)
        case .openTimedOut?:
            if asker?.ticket.cancel() == true { answer(tracker.giveUp()) } else { tracker.handedOver() }
        case nil: break
        }
        wake.set(tracker.nextDeadline)
    }

    private func answer(_ answer: SwitchTracker.Answer?) {
        wake.set(tracker.nextDeadline)
        guard let answer, let asker else { return }
        self.asker = nil
        switch answer {
        case .switched: asker.reply(.done(""))
        case .failed(let line): asker.reply(.failed(line))
        }
    }
}
