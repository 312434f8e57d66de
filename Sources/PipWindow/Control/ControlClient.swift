import PipCore

/// The client side of `pipcam toggle|start|stop|status|switch|quit`: finds the instance that owns the
/// selection, sends the command, and waits for the instance to have done it.
///
/// A command is a ClientMessage followed by a `status` conversion: the instance handles its
/// events in order, so the status reply means the command was carried out. `quit` waits for the
/// instance's control window to be destroyed instead (its connection closes when it has exited);
/// `switch` is a conversion of its own, answered when the switch is done.
/// A command the instance does not confirm in time is still queued with it: the client says it
/// was sent, not yet confirmed (docs/BEHAVIOUR.md, "Exit status").
public struct ControlClient {
    /// What a command produced: the exit status, text for standard output, a line for standard error.
    public struct Outcome: Sendable, Equatable {
        public var exitCode: Int32
        public var output: String?
        public var error: String?
    }

    public let display: XDisplay
    /// The display's name, for messages (e.g. ":3").
    public let displayName: String
    /// The instance (`--name`), nil for the default one.
    public let name: String?
    /// How long to wait for a reply.
    public var replyMilliseconds = 1000
    /// How long `quit` waits for the instance to exit (it releases its camera first).
    public var quitMilliseconds = 3000
    /// How long `switch` waits: opening a camera takes up to a few seconds, and the instance
    /// itself gives a new source `SourceSwitcher.firstFrameNanoseconds` for its first frame.
    public var switchMilliseconds = 10_000

    public init(display: XDisplay, displayName: String, name: String?) {
        self.display = display
        self.displayName = displayName
        self.name = name
    }

    private var who: String { "pipcam" + (name.map { " '\($0)'" } ?? "") + " on \(displayName)" }

    /// Sends `command` and waits for its result.
    public func send(_ command: ControlCommand) -> Outcome {
        withInstance(orIfGone: command == .quit ? done(nil) : notRunning()) { owner, requestor, selection in
            if let code = command.code {
                guard display.sendClientMessage(to: owner, type: display[._PIPCAM_COMMAND], data: [code, Int(requestor.rawValue)]) else {
                    return command == .quit ? done(nil) : notRunning()
                }
            }
            if command == .quit {
                display.flush()
                return waitForExit(of: owner)
            }
            display.convertSelection(selection, target: display[._PIPCAM_STATUS], property: display[._PIPCAM_REPLY], requestor: requestor)
            display.flush()
            let reply = waitForReply(target: display[._PIPCAM_STATUS], requestor: requestor, owner: owner, selection: selection, within: replyMilliseconds)
            switch reply {
            case .answered(let bytes): return done(command == .status ? String(decoding: bytes, as: UTF8.self) : nil)
            case .failed(let outcome): return outcome
            case .timedOut:
                guard command == .status else { return unconfirmed(command.rawValue, waited: replyMilliseconds) }
                return failed("no answer from the \(who) within \(seconds(replyMilliseconds))")
            }
        }
    }

    /// `pipcam switch SOURCE`: asks the instance to show `source` (`next` or a `--source` form, a
    /// file's path absolute) and waits until it does or says why not (docs/BEHAVIOUR.md,
    /// "Switching the source").
    public func switchSource(to source: String) -> Outcome {
        if let refused = tooLong(Array(source.utf8)) { return refused }
        return withInstance(orIfGone: notRunning()) { owner, requestor, selection in
            // ICCCM 2.2: a conversion's parameter is in its property before the request.
            display.setProperty(requestor, atom: display[._PIPCAM_REPLY], bytes: Array(source.utf8))
            display.convertSelection(selection, target: display[._PIPCAM_SWITCH], property: display[._PIPCAM_REPLY], requestor: requestor)
            display.flush()
            let reply = waitForReply(target: display[._PIPCAM_SWITCH], requestor: requestor, owner: owner, selection: selection, within: switchMilliseconds)
            switch reply {
            case .answered(let bytes):
                switch SwitchReply(bytes) {
                case .switched?: return done(nil)
                case .failed(let line)?: return Outcome(exitCode: 1, output: nil, error: line)
                case nil: return failed("the \(who) gave an answer pipcam does not know")
                }
            case .failed(let outcome): return outcome
            case .timedOut: return unconfirmed("switch", waited: switchMilliseconds)
            }
        }
    }

    /// `pipcam controls|set`: asks the instance about its camera's controls.
    public func camera(_ request: CameraRequest) -> Outcome { ask(display[._PIPCAM_CAMERA], request.encoded, within: replyMilliseconds) }

    /// `pipcam play|pause|seek`: the instance's file playback.
    public func playback(_ command: PlaybackCommand) -> Outcome {
        ask(display[._PIPCAM_PLAYBACK], command.encoded, within: command.isSeek ? seekMilliseconds : replyMilliseconds)
    }

    /// How long `seek` waits: the instance answers once the frame sought shows, or gives up
    /// waiting for it after `SeekWaits.patienceNanoseconds` (1.5 s).
    public var seekMilliseconds = 4000

    /// Sends `bytes` as the parameter of a conversion to `target`, answered at once with a
    /// `done` or `failed` reply.
    private func ask(_ target: Atom, _ bytes: [UInt8], within milliseconds: Int) -> Outcome {
        if let refused = tooLong(bytes) { return refused }
        return withInstance(orIfGone: notRunning()) { owner, requestor, selection in
            display.setProperty(requestor, atom: display[._PIPCAM_REPLY], bytes: bytes)
            display.convertSelection(selection, target: target, property: display[._PIPCAM_REPLY], requestor: requestor)
            display.flush()
            switch waitForReply(target: target, requestor: requestor, owner: owner, selection: selection, within: milliseconds) {
            case .answered(let bytes):
                switch CameraReply(bytes) {
                case .done(let text)?: return done(text.isEmpty ? nil : text)
                case .failed(let line)?: return Outcome(exitCode: 1, output: nil, error: line)
                case nil: return failed("the \(who) gave an answer pipcam does not know")
                }
            case .failed(let outcome): return outcome
            case .timedOut: return failed("no answer from the \(who) within \(seconds(milliseconds))")
            }
        }
    }

    /// Runs `body` with the instance's control window, a window of ours to receive answers on, and
    /// the selection; `gone` when there is no instance (or it went while being looked at).
    private func withInstance(orIfGone gone: @autoclosure () -> Outcome, _ body: (WindowID, WindowID, Atom) -> Outcome) -> Outcome {
        let selection = display.intern(InstanceName.selection(screen: display.screen, name: name))
        guard let owner = display.selectionOwner(selection) else { return notRunning() }
        // Knowing when the owner goes away turns a crash mid-command into a clear answer, not a timeout.
        guard display.watch(owner, [.structureNotify]) else { return gone() }
        let requestor = display.createWindow(rect: Rect(x: -10, y: -10, width: 1, height: 1), events: [], overrideRedirect: true)
        display.setClass(requestor, instance: "pipcam", className: "Pipcam")
        defer { display.destroy(requestor); display.sync() }
        return body(owner, requestor, selection)
    }

    private enum Reply {
        case answered([UInt8])
        case failed(Outcome)
        case timedOut
    }

    private func waitForReply(target: Atom, requestor: WindowID, owner: WindowID, selection: Atom, within milliseconds: Int) -> Reply {
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(milliseconds) * 1_000_000)
        while let event = display.nextEvent(withinMilliseconds: remaining(until: deadline)) {
            switch event {
            // Match the target too: another client's late request may name a window id that has since been
            // reused for ours, and its (refused) answer must not pass for the instance's.
            case .selectionNotify(let w, let s, let t, let property) where w == requestor && s == selection && t == target:
                guard property != .none, let bytes = display.takeProperty(requestor, property) else {
                    return .failed(failed("the \(who) refused the request"))
                }
                return .answered(bytes)
            case .destroyed(let w) where w == owner:
                return .failed(failed("the \(who) exited before answering"))
            default:
                continue
            }
        }
        return .timedOut
    }

    private func waitForExit(of owner: WindowID) -> Outcome {
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(quitMilliseconds) * 1_000_000)
        while let event = display.nextEvent(withinMilliseconds: remaining(until: deadline)) {
            if case .destroyed(let w) = event, w == owner { return done(nil) }
        }
        return unconfirmed("quit", waited: quitMilliseconds)
    }

    /// The command went out but the instance did not answer in time (stopped, or far behind): it
    /// runs once the instance goes on, so this is no failure to carry it out (exit 1 all the same:
    /// the caller cannot count on it yet).
    private func unconfirmed(_ command: String, waited milliseconds: Int) -> Outcome {
        failed("\(command) sent, not yet confirmed (the \(who) did not answer within \(seconds(milliseconds)))")
    }

    private func remaining(until deadline: MonotonicInstant) -> Int {
        let now = MonotonicInstant.now()
        return deadline > now ? Int((deadline.nanoseconds - now.nanoseconds) / 1_000_000) : 0
    }

    private func seconds(_ milliseconds: Int) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }

    private func notRunning() -> Outcome {
        Outcome(exitCode: 3, output: nil, error: "pipcam: no pipcam" + (name.map { " '\($0)'" } ?? "") + " is running on \(displayName)")
    }

    /// A request longer than the instance reads is bad input, said before anything is sent.
    private func tooLong(_ bytes: [UInt8]) -> Outcome? {
        guard bytes.count > ControlServer.requestLimit else { return nil }
        return Outcome(
            exitCode: 2, output: nil,
            error: "pipcam: the request is \(bytes.count) bytes long; pipcam reads at most \(ControlServer.requestLimit) (a shorter path, or fewer settings at a time)")
    }

    private func done(_ output: String?) -> Outcome { Outcome(exitCode: 0, output: output, error: nil) }
    private func failed(_ why: String) -> Outcome { Outcome(exitCode: 1, output: nil, error: "pipcam: \(why)") }
}
