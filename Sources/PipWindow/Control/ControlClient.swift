import PipCore

/// The client side of `pipcam toggle|start|stop|status|quit`: finds the instance that owns the
/// selection, sends the command, and waits for the instance to have done it.
///
/// A command is a ClientMessage followed by a `status` conversion: the instance handles its
/// events in order, so the status reply means the command was carried out. `quit` waits for the
/// instance's control window to be destroyed instead (its connection closes when it has exited).
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

    public init(display: XDisplay, displayName: String, name: String?) {
        self.display = display
        self.displayName = displayName
        self.name = name
    }

    private var who: String { "pipcam" + (name.map { " '\($0)'" } ?? "") + " on \(displayName)" }

    /// Sends `command` and waits for its result.
    public func send(_ command: ControlCommand) -> Outcome {
        let selection = display.intern(InstanceName.selection(screen: display.screen, name: name))
        guard let owner = display.selectionOwner(selection) else { return notRunning() }
        // Knowing when the owner goes away turns a crash mid-command into a clear answer, not a timeout.
        guard display.watch(owner, [.structureNotify]) else { return command == .quit ? done(nil) : notRunning() }
        let requestor = display.createWindow(rect: Rect(x: -10, y: -10, width: 1, height: 1), events: [], overrideRedirect: true)
        display.setClass(requestor, instance: "pipcam", className: "Pipcam")
        defer { display.destroy(requestor); display.sync() }
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
        return waitForReply(command, requestor: requestor, owner: owner, selection: selection)
    }

    private func waitForReply(_ command: ControlCommand, requestor: WindowID, owner: WindowID, selection: Atom) -> Outcome {
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(replyMilliseconds) * 1_000_000)
        while let event = display.nextEvent(withinMilliseconds: remaining(until: deadline)) {
            switch event {
            // Match the target too: another client's late request may name a window id that has since been
            // reused for ours, and its (refused) answer must not pass for the instance's.
            case .selectionNotify(let w, let s, let t, let property)
            where w == requestor && s == selection && t == display[._PIPCAM_STATUS]:
                guard property != .none, let bytes = display.takeProperty(requestor, property) else {
                    return failed("the \(who) refused the request")
                }
                return done(command == .status ? String(decoding: bytes, as: UTF8.self) : nil)
            case .destroyed(let w) where w == owner:
                return failed("the \(who) exited before answering")
            default:
                continue
            }
        }
        guard command == .status else { return unconfirmed(command, waited: replyMilliseconds) }
        return failed("no answer from the \(who) within \(seconds(replyMilliseconds))")
    }

    private func waitForExit(of owner: WindowID) -> Outcome {
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(quitMilliseconds) * 1_000_000)
        while let event = display.nextEvent(withinMilliseconds: remaining(until: deadline)) {
            if case .destroyed(let w) = event, w == owner { return done(nil) }
        }
        return unconfirmed(.quit, waited: quitMilliseconds)
    }

    /// The command went out but the instance did not answer in time (stopped, or far behind): it
    /// runs once the instance goes on, so this is no failure to carry it out (exit 1 all the same:
    /// the caller cannot count on it yet).
    private func unconfirmed(_ command: ControlCommand, waited milliseconds: Int) -> Outcome {
        failed("\(command.rawValue) sent, not yet confirmed (the \(who) did not answer within \(seconds(milliseconds)))")
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

    private func done(_ output: String?) -> Outcome { Outcome(exitCode: 0, output: output, error: nil) }
    private func failed(_ why: String) -> Outcome { Outcome(exitCode: 1, output: nil, error: "pipcam: \(why)") }
}
