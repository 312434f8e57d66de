import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// A v4l2loopback output device in memory: records the format set and every frame written.
public final class FakeOutputDevice: V4L2OutputDevice, @unchecked Sendable {
    public var capabilities = V4L2Capabilities(
        driver: "v4l2 loopback", card: "pipcam", busInfo: "platform:v4l2loopback-000", canCapture: false, canStream: true,
        canOutput: true)
    /// The format the device keeps whatever is asked (another program's stream), if any.
    public var keptFormat: V4L2PixFormat?
    public var writeErrno: Int32?
    public init() {}
    private let lock = Locked((frames: [[UInt8]](), format: V4L2PixFormat?.none, interval: V4L2Fraction?.none, closed: false))

    public var frames: [[UInt8]] { lock.withLock { $0.frames } }
    public var format: V4L2PixFormat? { lock.withLock { $0.format } }
    public var interval: V4L2Fraction? { lock.withLock { $0.interval } }
    public var isClosed: Bool { lock.withLock { $0.closed } }

    public func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities { capabilities }

    public func setOutputFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat {
        let set = keptFormat ?? format
        lock.withLock { $0.format = set }
        return set
    }

    public func setOutputFrameInterval(_ interval: V4L2Fraction) { lock.withLock { $0.interval = interval } }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(V4L2Error) {
        if let writeErrno { throw V4L2Error(call: "write", errno: writeErrno) }
        lock.withLock { $0.frames.append(Array(bytes)) }
    }

    public func close() { lock.withLock { $0.closed = true } }
}

/// Frames over bytes a test owns (kept alive by the array the caller holds).
public enum ShareFixture {
    /// A packed frame of `format` over `bytes`.
    public static func frame(
        _ format: PixelFormat, _ width: Int, _ height: Int, _ bytes: UnsafeRawBufferPointer,
        range: ColorRange = .limited, timestamp: MonotonicInstant = MonotonicInstant(nanoseconds: 1_000)
    ) -> VideoFrame {
        VideoFrame(
            packed: format, width: width, height: height, base: bytes.baseAddress!, byteCount: bytes.count,
            colorimetry: Colorimetry(matrix: .bt601, range: range), timestamp: timestamp, sequence: 0, bufferIndex: 0)
    }

    /// Y rising left to right (so a mirror would show), chroma constant, I420.
    public static func i420Ramp(_ width: Int, _ height: Int, u: UInt8 = 90, v: UInt8 = 170) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: width * height * 3 / 2)
        for y in 0..<height { for x in 0..<width { b[y * width + x] = UInt8(16 + x * 200 / max(1, width - 1)) } }
        for i in width * height..<width * height * 5 / 4 { b[i] = u }
        for i in width * height * 5 / 4..<b.count { b[i] = v }
        return b
    }
}
