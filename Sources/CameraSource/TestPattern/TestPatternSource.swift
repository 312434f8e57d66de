import PipCore

/// The built-in moving test pattern (`--source test`): scrolling colour bars, a bouncing box and
/// the frame number, as a live 30 fps source.
///
/// Like a camera it runs on its own clock: frame k is due at `start + k/fps`. A consumer that
/// falls behind gets the current frame next (its `sequence` jumps, counting the frames skipped),
/// never a burst of stale ones.
public final class TestPatternSource: FrameSource {
    public let name = "test"
    public var spec: SourceSpec { .test }
    public var isLive: Bool { true }
    public var mirroredByDefault: Bool { false }
    public let frameWidth: Int
    public let frameHeight: Int
    public var frameRate: Double? { Double(fps) }
    public var pollDescriptor: Int32? { nil }

    /// Frames are I420 with BT.601 limited-range samples.
    public static let format = PixelFormat.i420
    public var frameFormat: PixelFormat? { Self.format }
    public static let colorimetry = Colorimetry(matrix: .bt601, range: .limited)

    private let fps: Int
    private var ring = BufferRing()
    private var painter: PatternPainter?
    private var origin: MonotonicInstant?
    private var nextIndex: UInt64 = 0
    /// Nothing shows the frames: they keep their rhythm unpainted (`SourceControls.unseen`).
    private var unseen = false

    /// Shown while no camera is there (`CameraFinder` looks for one): the camera is `.waiting`.
    private let standsIn: Bool
    public var cameraState: CameraState { standsIn ? .waiting : .streaming }

    /// A pattern of `width`×`height` pixels (each side clamped to 2…16384) at `fps` frames per
    /// second (1…1000); `standsInForCamera`: shown until a camera is found.
    public init(width: Int = 640, height: Int = 360, fps: Int = 30, standsInForCamera: Bool = false) {
        standsIn = standsInForCamera
        frameWidth = min(max(width, 2), FrameLimits.maxSide)
        frameHeight = min(max(height, 2), FrameLimits.maxSide)
        self.fps = min(max(fps, 1), 1000)
    }

    deinit { ring.deallocate() }

    public func start() {
        guard painter == nil else { return }
        let painter = PatternPainter(width: frameWidth, height: frameHeight)
        ring.allocate(count: 3, byteCount: painter.layout.byteCount)
        self.painter = painter
    }

    public func nextFrame(now: MonotonicInstant) -> SourceStep {
        guard let painter else { return .end }
        let origin = self.origin ?? now
        self.origin = origin
        let current = Self.frameIndex(at: now.nanoseconds &- origin.nanoseconds, fps: fps)
        if now < origin || current < nextIndex {
            return .wait(deadline: origin.advanced(byNanoseconds: Self.offset(frames: nextIndex, fps: fps)))
        }
        guard let index = ring.acquire() else { return .wait(deadline: nil) }
        if !unseen { painter.draw(frame: current, into: ring.bases[index]) }
        nextIndex = current + 1
        return .frame(
            VideoFrame(
                packed: Self.format, width: frameWidth, height: frameHeight, base: ring.bases[index],
                byteCount: painter.layout.byteCount, colorimetry: Self.colorimetry, timestamp: .now(),
                sequence: current, bufferIndex: index))
    }

    public func apply(_ controls: SourceControls) { unseen = controls.unseen }

    public func recycle(bufferIndex: Int) {
        ring.release(bufferIndex)
    }

    /// Stops the clock; buffers stay valid (frames may still be in use) until the source is released.
    public func stop() {
        origin = nil
        nextIndex = 0
    }

    /// The frame due at `elapsed` nanoseconds: floor(elapsed × fps / 1 s), without overflow.
    static func frameIndex(at elapsed: UInt64, fps: Int) -> UInt64 {
        let f = UInt64(fps)
        return elapsed / 1_000_000_000 * f + elapsed % 1_000_000_000 * f / 1_000_000_000
    }

    /// Nanoseconds from frame 0 to frame `frames`, rounded up so `frameIndex` at that instant is `frames`.
    static func offset(frames: UInt64, fps: Int) -> Int64 {
        let f = UInt64(fps)
        return Int64(frames / f * 1_000_000_000 + (frames % f * 1_000_000_000 + f - 1) / f)
    }
}
