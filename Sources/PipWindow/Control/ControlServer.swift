import CameraSource

/// The instance side of `pipcam toggle|start|stop|status|quit`: commands arrive as ClientMessages
/// on the claim's control window, `status` as a conversion of the claimed selection to
/// `_PIPCAM_STATUS` (also `UTF8_STRING`, so `xclip -o -selection _PIPCAM_S0` shows it too).
///
/// Anything else — other message types, unknown codes, other targets, requests from before the
/// claim, requestors that vanish — is refused or ignored without side effects.
public final class ControlServer {
    public let claim: InstanceClaim
    /// Performs a command (never `.status`).
    public var onCommand: (ControlCommand) -> Void = { _ in }
    /// The current status, asked for each `status` request.
    public var status: () -> InstanceStatus?
    /// Whether another client has taken the selection away (commands then reach that client).
    public private(set) var lostClaim = false
    private let display: XDisplay

    public init(display: XDisplay, claim: InstanceClaim, status: @escaping () -> InstanceStatus?) {
        self.display = display
        self.claim = claim
        self.status = status
    }

    /// Sends the control window's events here.
    public func install(on loop: DisplayLoop) {
        loop.register(claim.window) { [self] in handle($0) }
    }

    /// Handles one event about the control window.
    public func handle(_ event: WindowEvent) {
        switch event {
        case .clientMessage(_, let type, let data) where type == display[._PIPCAM_COMMAND]:
            if let command = ControlCommand(code: data.0), command != .status { onCommand(command) }
        case .selectionRequest(let request):
            answer(request)
        case .selectionClear(_, let selection) where selection == claim.selection && !lostClaim:
            lostClaim = true
            writeErrorLine(
                "pipcam: another program took over \(InstanceName.selection(screen: display.screen, name: claim.name)); "
                    + "'pipcam toggle|start|stop|status|quit' no longer reach this pipcam")
        default:
            break
        }
    }

    private func answer(_ request: SelectionRequest) {
        guard request.requestor != 0 else { return }
        // ICCCM 2.2: refuse requests for a selection we do not own or from before we owned it.
        let current = request.selection == claim.selection && !lostClaim
            && (request.time == 0 || (request.time &- claim.since) & 0xffff_ffff < 1 << 31)
        let target = request.target
        if current && target == display[.TARGETS] {
            display.answer(request, atoms: [display[.TARGETS], display[._PIPCAM_STATUS], display[.UTF8_STRING]])
        } else if current && (target == display[._PIPCAM_STATUS] || target == display[.UTF8_STRING]),
            let snapshot = status()
        {
            display.answer(request, text: Array(snapshot.json.encoded.utf8), type: display[.UTF8_STRING])
        } else {
            display.answer(request, text: nil, type: 0)
        }
    }
}
