import PipControl
import PipCore
import PipWindow

/// The instance's doors for control requests: the socket in the runtime directory (no X needed)
/// and the X selection it claimed (the one-instance rule on its display, and the door for a client
/// that reaches it only through the display). Both read requests in the one form and hand them to
/// whoever runs the instance now: the source's start, then the program.
public final class ControlDoors {
    /// The X claim: a new one after the selection healed; nil on Wayland, where the socket's
    /// lock is the one-instance rule.
    public private(set) var claim: InstanceClaim?
    /// nil without a runtime directory, or when another instance holds the place.
    public let socket: ControlSocketServer?
    private var server: ControlServer?

    public init(claim: InstanceClaim?, socket: ControlSocketServer?) {
        self.claim = claim
        self.socket = socket
    }

    /// Answers requests on `loop` through `carryOut`, which replies once (at once or later); `status`
    /// answers the X selection's plain status conversion (`xclip`).
    public func install(
        on loop: any EventLoop, status: @escaping () -> InstanceStatus?, carryOut: @escaping (PipRequest, @escaping (PipReply) -> Void) -> Void
    ) {
        if let claim, let loop = loop as? DisplayLoop {
            let server = ControlServer(display: loop.display, claim: claim, status: status)
            server.onRequest = { received, reply in Self.hand(received, to: carryOut) { reply($0.encoded) } }
            server.otherDoor = socket?.place.socketPath
            server.install(on: loop)
            self.server = server
        }
        socket?.onRequest = { received, reply in
            Self.hand(received, to: carryOut) { answer in
                // `quit` is answered, and the connection closes as the process ends.
                reply(answer.encoded, Self.isQuit(received) && answer.exitCode == 0)
            }
        }
        socket?.install(on: loop)
    }

    /// Stops answering on this loop (the claim, healed or not, stays for the next one).
    public func uninstall() {
        if let server {
            server.uninstall()
            claim = server.claim
        }
        server = nil
        socket?.uninstall()
        socket?.onRequest = nil
    }

    private static func hand(
        _ received: ControlWire.Received, to carryOut: (PipRequest, @escaping (PipReply) -> Void) -> Void, reply: @escaping (PipReply) -> Void
    ) {
        switch PipRequest.decode(received) {
        case .request(let request): carryOut(request, reply)
        case .refused(let answer): reply(answer)
        }
    }

    private static func isQuit(_ received: ControlWire.Received) -> Bool { received == .request(PipRequest.quit.encoded) }
}
