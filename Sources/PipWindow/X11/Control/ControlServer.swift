import PipCore

/// The instance's X door for control requests, for clients that reach it through the display (one
/// on another host of a shared display, or a session without a runtime directory): a request is the
/// parameter of a conversion of the claimed selection to `_PIPCAM_REQUEST`, in the one form every
/// door reads, and the answer is the converted property, sent when the handler replies (which may
/// be much later). `status` also answers conversions to `_PIPCAM_STATUS` and `UTF8_STRING`, so
/// `xclip -o -selection _PIPCAM_S0` shows it.
///
/// Anything else — other targets, requests from before the claim, requestors that vanish — is
/// refused or ignored without side effects.
public final class ControlServer {
    /// The claim commands arrive through: a new one after the channel healed.
    public private(set) var claim: InstanceClaim
    /// Another way requests reach this instance meanwhile (the control socket), for what is said
    /// when another client takes the selection.
    public var otherDoor: String?
    /// Carries out a request and replies with the answer's bytes, at once or later; nil: refused.
    public var onRequest: ((ControlWire.Received, @escaping ([UInt8]) -> Void) -> Void)?
    /// The current status, asked for each `status` request.
    public var status: () -> InstanceStatus?
    /// Whether another client holds the selection now (commands then reach that client).
    public private(set) var lostClaim = false
    /// How often the selection's owner is asked for while another client holds it: it may let go
    /// without a trace (set no owner, or hand it on), which no event reports.
    public static let lostClaimCheckInterval: Int64 = 1_000_000_000
    private let display: XDisplay
    // Weak: the loop's handlers hold this server, which lives as long as they do.
    private weak var loop: DisplayLoop?
    private var tokens: [Int] = []
    private var checkTimer: Int?
    /// The window of the client that took the selection, watched for its destruction.
    private var holder: WindowID?

    public init(display: XDisplay, claim: InstanceClaim, status: @escaping () -> InstanceStatus?) {
        self.display = display
        self.claim = claim
        self.status = status
    }

    /// Sends the control window's events here. A claim lost before (while another loop ran) is
    /// noticed now and healed like one lost later.
    public func install(on loop: DisplayLoop) {
        self.loop = loop
        tokens.append(loop.register(claim.window) { [self] in handle($0) })
        if display.selectionOwner(claim.selection) != claim.window { heal(destroyed: display.isMapped(claim.window) == nil) }
    }

    /// Stops handling events and timers (the loop goes on without this server).
    public func uninstall() {
        stopWatching()
        loop = nil
    }

    /// Ends the handlers of the control window and of a holder, and the owner check.
    private func stopWatching() {
        for token in tokens { loop?.unregister(token) }
        tokens.removeAll()
        if let checkTimer { loop?.cancelTimer(checkTimer) }
        checkTimer = nil
        holder = nil
    }

    /// Handles one event about the control window, or about the window of a client holding the selection.
    public func handle(_ event: WindowEvent) {
        switch event {
        case .selectionRequest(let request):
            answer(request)
        case .selectionClear(_, let selection) where selection == claim.selection && !lostClaim:
            heal(destroyed: false)
        case .destroyed(let w) where w == claim.window:
            heal(destroyed: true)
        case .destroyed(let w) where w == holder:
            holder = nil
            heal(destroyed: false)
        default:
            break
        }
    }

    /// The selection name, as messages say it.
    private var selectionName: String { InstanceName.selection(screen: display.screen, name: claim.name) }

    /// Takes the selection back when no client holds it, with a new control window if the old
    /// one is gone; else waits for the holder to let go (docs/BEHAVIOUR.md, "Control channel").
    private func heal(destroyed: Bool) {
        var owner = display.selectionOwner(claim.selection)
        if owner == nil {
            if reclaim(destroyed: destroyed) { return }
            owner = display.selectionOwner(claim.selection)  // another client was quicker
        }
        guard let owner, owner != claim.window else { return }
        if !lostClaim {
            lostClaim = true
            writeErrorLine(
                "pipcam: another program took over \(selectionName); control commands through X reach this pipcam again when it lets go"
                    + (otherDoor.map { " (through \($0) they still do)" } ?? ""))
        }
        watchHolder(owner)
    }

    /// Claims the selection anew for a new control window; false if another client got it first.
    private func reclaim(destroyed: Bool) -> Bool {
        guard let fresh = try? InstanceClaim.claim(display: display, name: claim.name) else { return false }
        stopWatching()
        if !destroyed { display.destroyIfPresent(claim.window) }
        claim = fresh
        if let loop { tokens.append(loop.register(fresh.window) { [self] in handle($0) }) }
        lostClaim = false
        writeErrorLine(
            destroyed
                ? "pipcam: another program destroyed the control window; \(selectionName) taken back with a new one"
                : "pipcam: took back \(selectionName); control commands reach this pipcam again")
        return true
    }

    /// Watches the window holding the selection for its end, and asks for the owner now and then.
    private func watchHolder(_ owner: WindowID) {
        guard let loop else { return }
        if owner != holder {
            holder = owner
            // Gone already (its client closed between the two questions): ask again soon.
            if display.watch(owner, [.structureNotify]) {
                tokens.append(loop.register(owner) { [self] in handle($0) })
            } else {
                holder = nil
            }
        }
        if checkTimer == nil {
            let delay = holder == nil ? Self.lostClaimCheckInterval / 10 : Self.lostClaimCheckInterval
            checkTimer = loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: delay)) { [self] in
                checkTimer = nil
                if lostClaim { heal(destroyed: false) }
            }
        }
    }

    /// A request: the parameter, read up to `ControlWire.requestLimit`, handed on; the answer is
    /// sent when the handler calls back.
    private func carryOut(_ request: SelectionRequest) {
        guard let bytes = display.parameter(of: request, limit: ControlWire.requestLimit), let onRequest else {
            display.answer(request, text: nil, type: .none)
            return
        }
        onRequest(bytes.count > ControlWire.requestLimit ? .tooLong : .request(bytes)) { [display] answer in
            display.answer(request, text: answer, type: display[.UTF8_STRING])
            display.flush()
        }
    }

    private func answer(_ request: SelectionRequest) {
        guard request.requestor != 0 else { return }
        // ICCCM 2.2: refuse requests for a selection we do not own or from before we owned it.
        let current = request.selection == claim.selection && !lostClaim
            && (request.time == 0 || (request.time &- claim.since) & 0xffff_ffff < 1 << 31)
        let target = request.target
        if current && target == display[.TARGETS] {
            display.answer(request, atoms: [display[.TARGETS], display[._PIPCAM_STATUS], display[._PIPCAM_REQUEST], display[.UTF8_STRING]])
        } else if current && target == display[._PIPCAM_REQUEST] {
            carryOut(request)
        } else if current && (target == display[._PIPCAM_STATUS] || target == display[.UTF8_STRING]),
            let snapshot = status()
        {
            display.answer(request, text: Array(snapshot.json.encoded.utf8), type: display[.UTF8_STRING])
        } else {
            display.answer(request, text: nil, type: .none)
        }
    }
}
