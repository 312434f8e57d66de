import PipCore

/// Who holds the camera while another program has it (`interrupted:in-use`), as the status and
/// the window's notice name it: looked up when the camera becomes in use and again every 5 s
/// while it stays so (another program may take over), never while the camera streams. Pure:
/// the time and the lookup (a /proc scan) are passed in.
public struct HolderWatch: Sendable {
    /// How often the holder is looked up again while the camera stays in use.
    public static let refreshNanoseconds: Int64 = 5_000_000_000

    private var lookedAt: MonotonicInstant?
    private var device = ""
    private var holder: String?

    public init() {}

    /// The holder to report now for `camera` read from `device` (nil: a source that is no V4L2
    /// device opened directly), e.g. `firefox, pid 4242`; nil when nobody can be named.
    public mutating func update(
        camera: CameraState, device: String?, now: MonotonicInstant, lookUp: (String) -> String?
    ) -> String? {
        guard camera == .interrupted(.inUse), let device else {
            lookedAt = nil
            holder = nil
            return nil
        }
        if device != self.device || lookedAt.map({ now >= $0.advanced(byNanoseconds: Self.refreshNanoseconds) }) ?? true {
            self.device = device
            lookedAt = now
            holder = lookUp(device)
        }
        return holder
    }
}
