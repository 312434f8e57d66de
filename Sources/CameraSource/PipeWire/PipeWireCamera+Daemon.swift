import PipCore

// What the daemon says, and the camera following it: its node gone and back, the stream failed,
// the format agreed, the daemon itself gone (connected again after a growing wait).
extension PipeWireCamera {
    func follow(_ event: PipeWireEvent, on c: PipeWireConnection, now: MonotonicInstant) {
        switch event {
        case .nodeRemoved(let id, _) where id == node?.id:
            // Unplugged: the stream is let go (its buffers with it: none of them is pipcam's).
            c.closeStream()
            streamOpen = false
            interruption = .disconnected
        case .nodeAdded, .nodeChanged, .registryReady:
            if !streamOpen { reopen(on: c) }
        case .disconnected:
            lose(c, now: now, "the PipeWire daemon went away")
        case .streamState(.error, let message), .linkFailed(let message):
            say("pipcam: \(name): \(message)")
            c.closeStream()
            streamOpen = false
            interruption = .disconnected
        case .streamState(.unconnected, _) where streamOpen:
            c.closeStream()
            streamOpen = false
            interruption = .disconnected
        case .streamFormat:
            adopt(c.streamFormat)
            if c.streamFormat != nil { interruption = nil }
        default:
            break
        }
    }

    /// Opens the stream again once a camera node of the same name is there.
    private func reopen(on c: PipeWireConnection) {
        guard let name = node?.name, let back = PipeWireCameras.cameras(among: c.nodes).first(where: { $0.name == name }) else { return }
        do {
            let ask = PipeWireCameras.streamRequest(target: back.name, for: request)
            try c.openStream(ask)
            asked = ask
            node = back
            streamOpen = true
            c.setActive(!idle)
        } catch {
            say("pipcam: \(error)")
        }
    }

    func lose(_ c: PipeWireConnection, now: MonotonicInstant, _ why: String) {
        c.disconnect()
        connection = nil
        streamOpen = false
        interruption = .disconnected
        say("pipcam: \(name): \(why); trying again")
        reconnectAt = now.advanced(byNanoseconds: reconnectWait)
        reconnectWait = min(reconnectWait * 2, Self.longestReconnectNanoseconds)
    }

    func reconnect(now: MonotonicInstant) {
        reconnectAt = nil
        guard let c = try? connect() else {
            reconnectAt = now.advanced(byNanoseconds: reconnectWait)
            reconnectWait = min(reconnectWait * 2, Self.longestReconnectNanoseconds)
            return
        }
        // The connection is this thread's from the start; the stream opens once the node is listed.
        connection = c
        claimed = true
        reconnectWait = 1_000_000_000
    }
}
