#if canImport(Glibc)
import Glibc
#endif
import PipCore
import Synchronization

/// Feeds a virtual camera (`--share`): every frame the camera captures goes to a v4l2loopback
/// output device or a PipeWire camera node of pipcam's own (`ShareOutput`), so that a call app
/// can read the camera while pipcam shows it.
///
/// Driven by the capture thread (`FramePump`): `offer` for each captured frame, before the display
/// sees it, and `tick` whenever the pump wakes. The windows play no part, so nothing they do
/// (PiP closed, main window minimized, resized) holds up the call's picture. While the camera
/// gives no frames (unplugged, in use, stalled), `tick` writes a placeholder of the same size and
/// format at the camera's rate: the call shows a dark picture, never a frozen face.
///
/// Raw frames are converted and written on the capture thread (a copy); MJPEG frames are decoded
/// at full size on a thread of their own (`ShareJPEGWorker`), the second core.
public final class CameraShare: @unchecked Sendable {
    /// Where the frames go.
    public let route: ShareRoute
    /// The device path, or `pipewire:NAME`.
    public var device: String { route.target }
    /// The v4l2loopback device written, which is never read back as a camera.
    public var loopbackDevice: String? {
        if case .loopback(let device) = route { return device }
        return nil
    }
    /// The format, size and rate of the shared stream.
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    /// Frames written so far, placeholders included (for a PipeWire node: those a reader took).
    public var written: Int { counters.written.load(ordering: .relaxed) }
    /// Placeholder frames written so far.
    public var placeholders: Int { counters.placeholders.load(ordering: .relaxed) }
    /// Frames that could not be written (write(2) failed) or decoded.
    public var failures: Int { counters.failures.load(ordering: .relaxed) }

    private let output: any ShareOutput
    private let converter: ShareFrameConverter
    private let counters = Counters()
    private let writeLock = Locked(())
    private let latencies: ShareLatencies
    private var jpeg: ShareJPEGWorker?
    /// Nanoseconds between frames: the camera's nominal rate.
    private var interval: Int64
    private var lastFrameAt: MonotonicInstant?
    private var nextPlaceholderAt: MonotonicInstant
    private let clock: @Sendable () -> MonotonicInstant
    private let framingNow = Locked(Framing.full)

    /// The part of the picture readers get: the window's digital zoom and pan, or the whole
    /// picture (`--share-full-frame`). Set from the display thread, read for each frame.
    public var framing: Framing {
        get { framingNow.withLock { $0 } }
        set { framingNow.withLock { $0 = newValue } }
    }

    /// How long after the last frame the first placeholder goes out: a few frames' time, but
    /// not less than `placeholderDelayNanoseconds`, so a camera's jitter never shows one.
    public static let placeholderDelayNanoseconds: Int64 = 400_000_000
    static let standardInterval: Int64 = 33_333_333

    final class Counters: Sendable {
        let written = Atomic<Int>(0)
        let placeholders = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
    }

    /// A share to the v4l2loopback `output` (format already set: `ShareTarget.open`).
    public convenience init(
        device: String, output: any V4L2OutputDevice, format: PixelFormat, width: Int, height: Int, frameRate: Double?,
        now: @escaping @Sendable () -> MonotonicInstant = MonotonicInstant.now
    ) {
        self.init(
            route: .loopback(device: device), output: LoopbackOutput(output, path: device), format: format, width: width, height: height,
            frameRate: frameRate, now: now)
    }

    /// A share to `output` by `route`, in `format` (YUYV or I420) at `width`×`height`, at
    /// `frameRate` frames per second until the camera says otherwise.
    public init(
        route: ShareRoute, output: any ShareOutput, format: PixelFormat, width: Int, height: Int, frameRate: Double?,
        now: @escaping @Sendable () -> MonotonicInstant = MonotonicInstant.now
    ) {
        self.route = route
        self.output = output
        self.format = format
        self.width = width
        self.height = height
        converter = ShareFrameConverter(format: format, width: width, height: height)
        latencies = ShareLatencies()
        interval = Self.interval(frameRate)
        clock = now
        nextPlaceholderAt = now().advanced(byNanoseconds: Self.placeholderDelayNanoseconds)
    }

    deinit { close() }

    private static func interval(_ rate: Double?) -> Int64 {
        guard let rate, rate >= 1, rate <= 240 else { return standardInterval }
        return Int64(1_000_000_000 / rate)
    }

    /// The camera's nominal rate changed (it reopened in another mode): placeholders follow it.
    public func frameRateChanged(_ rate: Double?) { interval = Self.interval(rate) }

    /// Writes `frame` (capture thread; the frame must stay valid until this returns).
    public func offer(_ frame: VideoFrame, now: MonotonicInstant) {
        lastFrameAt = now
        nextPlaceholderAt = now.advanced(byNanoseconds: max(3 * interval, Self.placeholderDelayNanoseconds))
        if frame.format == .mjpeg {
            // Its own converter: the JPEG thread converts while this thread may convert a raw frame.
            if jpeg == nil { jpeg = ShareJPEGWorker(converter: ShareFrameConverter(format: format, width: width, height: height), share: self) }
            jpeg?.submit(frame)
            return
        }
        guard let bytes = converter.convert(frame, framing: framing) else { return }
        write(bytes, placeholder: false, capturedAt: frame.timestamp)
    }

    /// Writes a placeholder when the camera has been quiet too long; returns when to call again.
    @discardableResult
    public func tick(now: MonotonicInstant) -> MonotonicInstant {
        if now >= nextPlaceholderAt {
            write(converter.placeholder, placeholder: true, capturedAt: nil)
            let next = nextPlaceholderAt.advanced(byNanoseconds: interval)
            // After a long sleep (the machine suspended) do not write the missed ones in a burst.
            nextPlaceholderAt = next > now ? next : now.advanced(byNanoseconds: interval)
        }
        return nextPlaceholderAt
    }

    /// One whole frame to the output. Called from the capture thread and the JPEG thread.
    func write(_ bytes: UnsafeRawBufferPointer, placeholder: Bool, capturedAt: MonotonicInstant?) {
        let sent: Bool? = writeLock.withLock { _ in try? output.send(bytes, capturedAt: capturedAt) }
        guard let sent else {
            counters.failures.add(1, ordering: .relaxed)
            return
        }
        guard sent else { return }
        counters.written.add(1, ordering: .relaxed)
        if placeholder { counters.placeholders.add(1, ordering: .relaxed) }
        if let capturedAt { latencies.record(Int64(clamping: clock().nanoseconds) - Int64(clamping: capturedAt.nanoseconds)) }
    }

    /// A frame the JPEG thread could not decode.
    func noteFailure() { counters.failures.add(1, ordering: .relaxed) }

    /// Programs reading the shared camera now, as far as they can be seen.
    public var readers: Int? { output.readers }

    /// The PipeWire node's id, while it is published.
    public var nodeID: UInt32? { output.nodeID }

    /// Camera capture → written to the output, in milliseconds: (median, 99th percentile) of
    /// the last frames, nil before any.
    public var latencyMilliseconds: (p50: Double, p99: Double)? { latencies.percentiles() }

    /// Stops the JPEG thread and closes the output (readers then see no more frames). Idempotent.
    public func close() {
        jpeg?.stop()
        jpeg = nil
        writeLock.withLock { _ in output.close() }
    }
}

/// The last 256 capture-to-write latencies, in a ring allocated once.
final class ShareLatencies: @unchecked Sendable {
    private let ring = Locked((values: [Int64](repeating: 0, count: 256), count: 0))

    func record(_ nanoseconds: Int64) {
        ring.withLock { r in
            r.values[r.count % r.values.count] = max(0, nanoseconds)
            r.count += 1
        }
    }

    func percentiles() -> (p50: Double, p99: Double)? {
        let sorted: [Int64] = ring.withLock { r in Array(r.values.prefix(min(r.count, r.values.count))) }.sorted()
        guard !sorted.isEmpty else { return nil }
        func at(_ q: Double) -> Double { Double(sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))]) / 1e6 }
        return (at(0.5), at(0.99))
    }
}
