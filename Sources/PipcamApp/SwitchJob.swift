import CameraSource
import PipCore

/// Resolves and starts the source a switch goes to, off the display and capture threads (opening
/// a camera takes up to a second), then hands it to the capture side or reports why not.
struct SwitchJob: Sendable {
    enum Target: Sendable {
        /// The camera after the one shown (`CameraCycle`), among those plugged in now: PipeWire's
        /// camera nodes, then the V4L2 devices no node stands for.
        case nextCamera(after: SourceSpec?)
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
    /// start) and the virtual camera pipcam itself feeds (`policy`).
    static func problem(with target: Target, policy: CapturePolicy) -> String? {
        guard case .spec(let spec, let name) = target else { return nil }
        if spec.readsStandardInput { return "\(name): standard input can only be read as --source" }
        if case .camera(let path) = spec, policy.feeds(camera: path) {
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
                let device = why == .inUse ? source.spec.devicePath : nil
                let reason = device.map { DeviceOpeners.inUseReason(of: $0) } ?? why.reason
                return fail(name, "\(name): \(reason)")
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
            let cameras = PipeWireCameras.cycle(
                nodes: PipeWireCameras.list() ?? [], devices: CameraDiscovery().captureCameraPaths(excluding: excluded), excluding: excluded)
            guard let next = CameraCycle.next(after: current, among: cameras) else {
                fail("next", cameras.isEmpty ? "next: no camera found" : "next: no other camera found")
                return nil
            }
            return (next, next.description)
        }
    }
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
