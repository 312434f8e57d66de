import PipCore

/// What a subcommand prints and exits with, from how its exchange with the instance ended
/// (docs/BEHAVIOUR.md, "Exit status": 0 done; 1 no answer, a bad one, one not yet confirmed, or
/// the instance saying why not; 3 no instance running).
public struct ControlOutcome: Sendable, Equatable {
    public var exitCode: Int32
    public var output: String?
    public var error: String?

    public init(exitCode: Int32, output: String? = nil, error: String? = nil) {
        self.exitCode = exitCode
        self.output = output
        self.error = error
    }

    /// `exchange`'s meaning for `request`, asked of the instance called `name` (nil: the unnamed
    /// one) on `display`, which was given `milliseconds` to answer.
    public init(_ exchange: ControlWire.Exchange, for request: PipRequest, name: String?, display: String, waited milliseconds: Int) {
        let called = "pipcam" + (name.map { " '\($0)'" } ?? "")
        let who = "\(called) on \(display)"
        switch exchange {
        case .answered(let bytes):
            switch PipReply(bytes) {
            case .done(let text)?: self.init(exitCode: 0, output: text.isEmpty ? nil : text)
            case .failed(let line)?: self.init(exitCode: 1, error: line)
            case nil: self.init(exitCode: 1, error: "pipcam: the \(who) gave an answer pipcam does not know")
            }
        case .notRunning:
            self.init(exitCode: 3, error: "pipcam: no \(called) is running on \(display)")
        case .refused:
            self.init(exitCode: 1, error: "pipcam: the \(who) refused the request")
        case .exitedBeforeAnswering:
            // Asked to exit, it did.
            self = request == .quit ? ControlOutcome(exitCode: 0) : ControlOutcome(exitCode: 1, error: "pipcam: the \(who) exited before answering")
        case .timedOut:
            let waited = milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
            // A command that changes something is still queued with a stopped or far-behind
            // instance: it runs once the instance goes on, so it was sent, not yet confirmed.
            switch request {
            case .pip, .quit, .switchSource:
                self.init(exitCode: 1, error: "pipcam: \(request.verb.name) sent, not yet confirmed (the \(who) did not answer within \(waited))")
            default:
                self.init(exitCode: 1, error: "pipcam: no answer from the \(who) within \(waited)")
            }
        }
    }

    /// A request longer than the instance reads is bad input, said before anything is sent.
    public static func tooLong(_ request: PipRequest) -> ControlOutcome? {
        let count = request.encoded.count
        guard count > ControlWire.requestLimit else { return nil }
        return ControlOutcome(
            exitCode: 2,
            error: "pipcam: the request is \(count) bytes long; pipcam reads at most \(ControlWire.requestLimit) (a shorter path, or fewer settings at a time)")
    }
}
