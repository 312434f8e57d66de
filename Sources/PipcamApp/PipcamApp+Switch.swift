import CameraSource
import PipCore
import PipWindow

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
                    name: name, firstSequence: firstSequence, showingVideo: output.isShowingVideo, now: .now()))
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
