import PipCore

/// The client's X door to a running instance: finds the instance that owns the selection, sends a
/// request (in the one form every door reads) as the parameter of a conversion to
/// `_PIPCAM_REQUEST`, and waits for the answer. What the answer means is the caller's to say.
public struct ControlClient {
    public let display: XDisplay
    /// The instance (`--name`), nil for the default one.
    public let name: String?

    public init(display: XDisplay, name: String?) {
        self.display = display
        self.name = name
    }

    /// Sends `request` and waits up to `milliseconds` for the answer; with `untilExit` (`quit`), also
    /// for the instance's control window to be destroyed (its connection closes when it has exited).
    public func exchange(_ request: [UInt8], within milliseconds: Int, untilExit: Bool) -> ControlWire.Exchange {
        let selection = display.intern(InstanceName.selection(screen: display.screen, name: name))
        guard let owner = display.selectionOwner(selection) else { return .notRunning }
        // Knowing when the owner goes away turns a crash mid-request into a clear answer, not a timeout.
        guard display.watch(owner, [.structureNotify]) else { return .notRunning }
        let requestor = display.createWindow(rect: Rect(x: -10, y: -10, width: 1, height: 1), events: [.propertyChange], overrideRedirect: true)
        display.setClass(requestor, instance: "pipcam", className: "Pipcam")
        defer { display.destroy(requestor); display.sync() }
        let target = display[._PIPCAM_REQUEST]
        // The request's own server time, which its answer carries back: a late answer to another
        // client's request, whose window id the server has since reused for ours, carries that
        // client's time and is not taken for ours.
        let stamp = display.serverTime(requestor)
        // ICCCM 2.2: a conversion's parameter is in its property before the request.
        display.setProperty(requestor, atom: display[._PIPCAM_REPLY], bytes: request)
        display.convertSelection(selection, target: target, property: display[._PIPCAM_REPLY], requestor: requestor, time: stamp)
        display.flush()
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(milliseconds) * 1_000_000)
        var answer: [UInt8]?
        while let event = display.nextEvent(withinMilliseconds: remaining(until: deadline)) {
            switch event {
            case .selectionNotify(let w, let s, let t, let property, let time)
            where w == requestor && s == selection && t == target && time == stamp && answer == nil:
                guard property != .none, let bytes = display.takeProperty(requestor, property) else { return .refused }
                guard untilExit else { return .answered(bytes) }
                answer = bytes
            case .destroyed(let w) where w == owner:
                return answer.map { .answered($0) } ?? .exitedBeforeAnswering
            default:
                continue
            }
        }
        return .timedOut
    }

    private func remaining(until deadline: MonotonicInstant) -> Int {
        let now = MonotonicInstant.now()
        return deadline > now ? Int((deadline.nanoseconds - now.nanoseconds) / 1_000_000) : 0
    }
}
