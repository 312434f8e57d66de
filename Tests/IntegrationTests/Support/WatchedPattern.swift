import CameraSource
import PipCore

/// The test pattern under a name of the test's choosing (as a camera names itself by its device),
/// saying when it was stopped (from the capture thread).
final class WatchedPattern: FrameSource, @unchecked Sendable {
    private let pattern: TestPatternSource
    let name: String
    var spec: SourceSpec { .test }
    let mirroredByDefault: Bool
    let stopped = Locked(false)

    init(name: String = "test", width: Int = 320, height: Int = 180, mirrored: Bool = false) {
        pattern = TestPatternSource(width: width, height: height)
        self.name = name
        mirroredByDefault = mirrored
    }

    var isLive: Bool { true }
    var frameWidth: Int { pattern.frameWidth }
    var frameHeight: Int { pattern.frameHeight }
    var frameFormat: PixelFormat? { pattern.frameFormat }
    var frameRate: Double? { pattern.frameRate }
    var pollDescriptor: Int32? { nil }
    func start() throws { pattern.start() }
    func nextFrame(now: MonotonicInstant) throws -> SourceStep { pattern.nextFrame(now: now) }
    func recycle(bufferIndex: Int) { pattern.recycle(bufferIndex: bufferIndex) }
    func stop() {
        pattern.stop()
        stopped.withLock { $0 = true }
    }
    func apply(_ controls: SourceControls) { pattern.apply(controls) }
}
