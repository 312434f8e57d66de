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
    init(share: LoopbackShare) {
        self.init(
            device: share.device, format: share.format.rawValue, width: share.width, height: share.height, written: share.written,
            placeholders: share.placeholders, readers: DeviceOpeners.others(of: share.device), latency: share.latencyMilliseconds)
    }
}
