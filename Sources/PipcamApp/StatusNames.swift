import CameraSource
import PipWindow

extension PipPhase {
    /// The PiP state as `pipcam status` and the stats line name it.
    var statusName: String {
        switch self {
        case .idle: return "idle"
        case .starting: return "starting"
        case .active: return "active"
        case .stopping, .restoring: return "stopping"
        }
    }
}

extension SharedStreamStatus {
    /// What `pipcam status` says of the virtual camera fed now (`--share`).
    init(share: CameraShare) {
        self.init(
            route: share.route.name, device: share.device, node: share.route.node, nodeID: share.nodeID, format: share.format.rawValue, width: share.width,
            height: share.height, written: share.written, placeholders: share.placeholders, readers: share.readers,
            latency: share.latencyMilliseconds)
    }
}
