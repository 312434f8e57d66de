import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// A scripted source standing in for the test pattern or a camera: hands out frames from `buffers`
/// buffers (or waits until `waitUntil` when set), and logs what was asked of it.
final class StubSource: FrameSource {
    let name: String
    var spec: SourceSpec { .camera(path: name) }
    var isLive: Bool { live }
    var live = true
    let mirroredByDefault: Bool
    var frameWidth: Int { 4 }
    var frameHeight: Int { 2 }
    var frameRate: Double? { 30 }
    var pollDescriptor: Int32?
    var cameraState: CameraState = .streaming
    var startError: SourceError?
    /// When set, `nextFrame` waits until then instead of handing out a frame.
    var waitUntil: MonotonicInstant?
    /// When set, `nextFrame` throws it.
    var nextError: SourceError?
    /// When set, `nextFrame` says the source ended.
    var ended = false
    private(set) var log: [String] = []
    private(set) var throttle = 0
    private var free: [Int]
    private var sequence: UInt64 = 0
    private let storage = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)

    init(name: String, buffers: Int = 3, mirrored: Bool = false) {
        self.name = name
        mirroredByDefault = mirrored
        free = Array((0..<buffers).reversed())
    }
    deinit { storage.deallocate() }

    var started: Bool { log.contains("start") }
    var stopped: Bool { log.contains("stop") }
    var frameRequests: Int { log.filter { $0 == "next" }.count }

    func start() throws {
        log.append("start")
        if let startError { throw startError }
    }

    func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        log.append("next")
        if let nextError { throw nextError }
        if ended { return .end }
        if let waitUntil { return .wait(deadline: waitUntil) }
        guard let index = free.popLast() else { return .wait(deadline: nil) }
        defer { sequence += 1 }
        return .frame(VideoFrame(
            packed: .gray, width: 4, height: 2, base: storage, byteCount: 8, colorimetry: .jpeg,
            timestamp: now, sequence: sequence, bufferIndex: index))
    }

    func recycle(bufferIndex: Int) {
        log.append("recycle \(bufferIndex)")
        free.append(bufferIndex)
    }

    func stop() { log.append("stop") }

    /// Logs the display size and throttle level as they change.
    func apply(_ controls: SourceControls) {
        defer { applied = controls }
        if let size = controls.displaySize, size != applied.displaySize { log.append("display \(size.width)x\(size.height)") }
        if controls.throttle != applied.throttle {
            log.append("throttle \(controls.throttle)")
            throttle = controls.throttle
        }
    }
    private var applied = SourceControls()
}
