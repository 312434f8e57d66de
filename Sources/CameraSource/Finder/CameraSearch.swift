import PipCore

/// When the camera finder looks for a camera while the test pattern stands in, and which cameras it
/// leaves out: a pure value (events in, what to do out, time passed in).
///
/// It looks at once, then every two seconds. Looking is cheap when nothing changed: cameras are
/// opened and asked only when the device nodes differ from the last look, or a camera that failed
/// is due again. A camera that fails (to start, or to give its first frame) is said once and tried
/// again after 2, 4, … up to 64 s, the other cameras meanwhile; a node that goes is forgotten, so a
/// camera plugged in again is tried at once.
public struct CameraSearch: Sendable, Equatable {
    /// How often to look for a camera.
    public static let lookNanoseconds: Int64 = 2_000_000_000
    /// The longest wait before a camera that failed is tried again.
    public static let longestRetryNanoseconds: Int64 = 64_000_000_000

    public enum Phase: Sendable, Equatable {
        /// Looking every `lookNanoseconds`.
        case looking
        /// A camera found is on its way to the capture side: no look until it is known what became of it.
        case offered(path: String)
        /// A camera took over, or the search was called off: it never looks again.
        case over
    }

    private struct Retry: Sendable, Equatable {
        var at: MonotonicInstant
        var backoff: Int64
    }

    public private(set) var phase = Phase.looking
    private var nextLook: MonotonicInstant
    /// The nodes at the last look; nil before the first.
    private var knownNodes: [String]?
    private var failed: [String: Retry] = [:]
    /// Cameras whose failure was said (once per node, until it goes).
    private var said: Set<String> = []

    /// A search whose first look is at `now`.
    public init(now: MonotonicInstant) { nextLook = now }

    /// When to look next (`look(nodes:now:)`); nil while a camera is on its way, or once over.
    public var nextDeadline: MonotonicInstant? { phase == .looking ? nextLook : nil }

    /// At `nextDeadline`, with the device nodes there are now: the cameras to leave out when the
    /// cameras are to be opened and asked, nil when nothing can have changed.
    public mutating func look(nodes: [String], now: MonotonicInstant) -> Set<String>? {
        guard phase == .looking, now >= nextLook else { return nil }
        nextLook = now.advanced(byNanoseconds: Self.lookNanoseconds)
        let changed = nodes != knownNodes
        knownNodes = nodes
        if changed {
            failed = failed.filter { nodes.contains($0.key) }
            said = said.filter { nodes.contains($0) }
        }
        guard changed || failed.values.contains(where: { now >= $0.at }) else { return nil }
        return waitingOut(at: now)
    }

    /// A camera found was started and offered to the capture side.
    public mutating func offered(_ path: String) {
        if phase == .looking { phase = .offered(path: path) }
    }

    /// `path` failed to start, or to give its first frame, at `now`. Whether to say so (the first
    /// time for this node), and the cameras to leave out when looking for another one at once:
    /// nothing else may come to look for it sooner.
    public mutating func failed(_ path: String, now: MonotonicInstant) -> (say: Bool, excluding: Set<String>) {
        if phase == .offered(path: path) { phase = .looking }
        let backoff = min(2 * (failed[path]?.backoff ?? Self.lookNanoseconds / 2), Self.longestRetryNanoseconds)
        failed[path] = Retry(at: now.advanced(byNanoseconds: backoff), backoff: backoff)
        return (said.insert(path).inserted, waitingOut(at: now))
    }

    /// A camera took over, or another source replaced the stand-in: nothing more to look for.
    public mutating func end() { phase = .over }

    /// The cameras that failed and are not due again at `now`.
    private func waitingOut(at now: MonotonicInstant) -> Set<String> {
        Set(failed.filter { now < $0.value.at }.keys)
    }
}
