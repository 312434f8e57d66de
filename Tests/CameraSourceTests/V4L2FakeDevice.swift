import CameraSource
import PipCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A scripted `V4L2Device` that records every call in `log`.
///
/// Capabilities, formats, sizes and intervals are data; failures are injected per call name
/// (`fail("S_FMT", EBUSY)`); DQBUF results come from `dequeueScript` in order, a `.frame` taking
/// the oldest queued buffer (as a driver does) and an empty script meaning EAGAIN.
final class FakeV4L2Device: V4L2Device {
    enum Step {
        case frame(sequence: UInt32, bytesUsed: Int? = nil, hasError: Bool = false, monotonic: Bool = true,
                   timestamp: MonotonicInstant = MonotonicInstant(nanoseconds: 1_000_000))
        case fail(V4L2DequeueError)
        /// Buffer `index`, whether it was queued or not (v4l2loopback hands out whichever buffer its
        /// writer filled last).
        case buffer(index: Int, sequence: UInt32)
    }

    let fileDescriptor: Int32 = 42
    var capabilities = V4L2Capabilities(
        driver: "uvcvideo", card: "Integrated Camera", busInfo: "usb-0000:00:14.0-8", canCapture: true, canStream: true)
    var formats: [V4L2FormatDescription] = []
    var sizes: [FourCC: V4L2FrameSizes] = [:]
    /// Intervals by format and size; anything not listed gets `defaultIntervals`.
    var intervals: [FourCC: [V4L2Size: V4L2FrameIntervals]] = [:]
    var defaultIntervals: V4L2FrameIntervals = .unknown
    /// What S_FMT makes of a request (default: takes it, tightly packed).
    var adjustFormat: (V4L2PixFormat) -> V4L2PixFormat = FakeV4L2Device.packed
    /// What G_FMT says when it differs from what S_FMT set (another process, a driver quirk).
    var formatOverride: V4L2PixFormat?
    /// What S_PARM sets (default: what was asked).
    var intervalResult: ((V4L2Fraction) -> V4L2Fraction?) = { $0 }
    var grantedBufferCount: Int?
    var dequeueScript: [Step] = []
    /// The camera's controls by ID, each with its current value, which a set changes.
    var controls: [UInt32: CameraControl] = [:]

    private(set) var log: [String] = []
    private(set) var queue: [Int] = []
    private(set) var currentFormat: V4L2PixFormat?
    private(set) var mapped: [Int: UnsafeMutableRawPointer] = [:]
    private(set) var isClosed = false
    private var failures: [String: (errno: Int32, times: Int)] = [:]

    /// Makes the next `times` calls named `call` (e.g. "S_FMT", "QBUF") fail with `code`.
    func fail(_ call: String, _ code: Int32, times: Int = 1) { failures[call] = (code, times) }

    /// An opener that hands out this device and logs the open.
    var opener: V4L2DeviceOpener {
        { path throws(V4L2Error) in
            self.log.append("open \(path)")
            return self
        }
    }

    private func enter(_ call: String, _ detail: String = "") throws(V4L2Error) {
        log.append(detail.isEmpty ? call : "\(call) \(detail)")
        guard let f = failures[call], f.times > 0 else { return }
        failures[call] = (f.errno, f.times - 1)
        throw V4L2Error(call: "VIDIOC_\(call)", errno: f.errno)
    }

    static func packed(_ f: V4L2PixFormat) -> V4L2PixFormat {
        var r = f
        if let layout = f.fourcc.pixelFormat?.packedLayout(width: f.width, height: f.height) {
            r.bytesPerLine = layout.strides.0
            r.sizeImage = layout.byteCount
        } else {
            r.bytesPerLine = 0
            r.sizeImage = f.width * f.height / 2
        }
        return r
    }

    func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities {
        try enter("QUERYCAP")
        return capabilities
    }

    func enumerateFormats() throws(V4L2Error) -> [V4L2FormatDescription] {
        try enter("ENUM_FMT")
        return formats
    }

    func enumerateFrameSizes(_ fourcc: FourCC) throws(V4L2Error) -> V4L2FrameSizes {
        try enter("ENUM_FRAMESIZES", "\(fourcc)")
        return sizes[fourcc] ?? .unknown
    }

    func enumerateFrameIntervals(_ fourcc: FourCC, size: V4L2Size) throws(V4L2Error) -> V4L2FrameIntervals {
        try enter("ENUM_FRAMEINTERVALS", "\(fourcc) \(size)")
        return intervals[fourcc]?[size] ?? defaultIntervals
    }

    func setFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat {
        try enter("S_FMT", "\(format.fourcc) \(format.width)x\(format.height)")
        let set = adjustFormat(format)
        currentFormat = set
        return set
    }

    func getFormat() throws(V4L2Error) -> V4L2PixFormat {
        try enter("G_FMT")
        return formatOverride ?? currentFormat!
    }

    func setFrameInterval(_ interval: V4L2Fraction) throws(V4L2Error) -> V4L2Fraction? {
        try enter("S_PARM", "\(interval)")
        return intervalResult(interval)
    }

    func requestBuffers(count: Int) throws(V4L2Error) -> Int {
        try enter("REQBUFS", "\(count)")
        return grantedBufferCount ?? count
    }

    func mapBuffer(index: Int) throws(V4L2Error) -> V4L2MappedBuffer {
        try enter("QUERYBUF", "\(index)")
        let f = formatOverride ?? currentFormat!
        let length = max(f.sizeImage, 1)
        let p = UnsafeMutableRawPointer.allocate(byteCount: length, alignment: 64)
        mapped[index] = p
        return V4L2MappedBuffer(index: index, base: p, length: length)
    }

    func unmapBuffer(_ buffer: V4L2MappedBuffer) {
        log.append("MUNMAP \(buffer.index)")
        buffer.base.deallocate()
        mapped[buffer.index] = nil
    }

    func queueBuffer(index: Int) throws(V4L2Error) {
        try enter("QBUF", "\(index)")
        precondition(!queue.contains(index), "buffer \(index) queued twice")
        queue.append(index)
    }

    func dequeueBuffer() throws(V4L2DequeueError) -> V4L2DequeuedBuffer {
        log.append("DQBUF")
        guard !dequeueScript.isEmpty else { throw .wouldBlock }
        switch dequeueScript.removeFirst() {
        case .fail(let error):
            throw error
        case .buffer(let index, let sequence):
            queue.removeAll { $0 == index }
            return V4L2DequeuedBuffer(
                index: index, bytesUsed: (formatOverride ?? currentFormat!).sizeImage, hasError: false,
                hasMonotonicTimestamp: true, timestamp: MonotonicInstant(nanoseconds: 1_000_000), sequence: sequence)
        case .frame(let sequence, let bytesUsed, let hasError, let monotonic, let timestamp):
            guard !queue.isEmpty else { throw .wouldBlock }
            let index = queue.removeFirst()
            return V4L2DequeuedBuffer(
                index: index, bytesUsed: bytesUsed ?? (formatOverride ?? currentFormat!).sizeImage,
                hasError: hasError, hasMonotonicTimestamp: monotonic, timestamp: timestamp, sequence: sequence)
        }
    }

    func streamOn() throws(V4L2Error) { try enter("STREAMON") }

    func streamOff() throws(V4L2Error) {
        try enter("STREAMOFF")
        queue.removeAll()
    }

    /// Logged "QUERYCTRL"; the controls in ID order.
    func queryControls() throws(V4L2Error) -> [CameraControl] {
        try enter("QUERYCTRL")
        return controls.values.sorted { $0.id < $1.id }
    }

    /// Logged "G_CTRL name"; EINVAL for a control it lacks, EACCES for a write-only one.
    func controlValue(_ id: UInt32) throws(V4L2Error) -> Int64 {
        try enter("G_CTRL", controls[id]?.name ?? CameraControl.hex(id))
        guard let control = controls[id] else { throw V4L2Error(call: "VIDIOC_G_CTRL", errno: EINVAL) }
        guard control.hasValue, let value = control.value else { throw V4L2Error(call: "VIDIOC_G_CTRL", errno: EACCES) }
        return value
    }

    /// Logged "S_CTRL name=value"; refuses as a driver does: EINVAL for a control it lacks, a
    /// disabled one or a value out of range, EACCES for a read-only one, EBUSY for a grabbed one.
    func setControl(_ id: UInt32, to value: Int64) throws(V4L2Error) {
        try enter("S_CTRL", "\(controls[id]?.name ?? CameraControl.hex(id))=\(value)")
        guard let control = controls[id], !control.flags.contains(.disabled) else {
            throw V4L2Error(call: "VIDIOC_S_CTRL", errno: EINVAL)
        }
        if control.flags.contains(.readOnly) { throw V4L2Error(call: "VIDIOC_S_CTRL", errno: EACCES) }
        if control.flags.contains(.grabbed) { throw V4L2Error(call: "VIDIOC_S_CTRL", errno: EBUSY) }
        guard control.kind == .button || (value >= control.minimum && value <= control.maximum) else {
            throw V4L2Error(call: "VIDIOC_S_CTRL", errno: EINVAL)
        }
        if control.kind != .button { controls[id]?.value = value }
    }

    func close() {
        log.append("CLOSE")
        isClosed = true
        queue.removeAll()  // closing the last descriptor frees the driver's queue
    }
}

/// Mode lists and controls of real kinds of cameras.
enum FakeCameras {
    /// A UVC webcam's controls, at their defaults (`WebcamControls`).
    static func uvcControls() -> [UInt32: CameraControl] { WebcamControls.uvc() }

    static let uvcYUYVSizes: [V4L2Size] = [V4L2Size(320, 240), V4L2Size(640, 480), V4L2Size(1280, 720)]
    static let uvcMJPGSizes: [V4L2Size] = [V4L2Size(640, 480), V4L2Size(1280, 720), V4L2Size(1920, 1080)]

    /// A USB 2 webcam: YUYV up to 720p (at 10 fps only), MJPEG up to 1080p at 30 fps.
    static func uvcWebcam() -> FakeV4L2Device {
        let d = FakeV4L2Device()
        d.formats = [
            V4L2FormatDescription(fourcc: .yuyv, description: "YUYV 4:2:2"),
            V4L2FormatDescription(fourcc: .mjpeg, description: "Motion-JPEG", isCompressed: true),
        ]
        d.sizes = [.yuyv: .discrete(uvcYUYVSizes), .mjpeg: .discrete(uvcMJPGSizes)]
        let fast: V4L2FrameIntervals = .discrete([.interval(fps: 30), .interval(fps: 15)])
        d.intervals = [
            .yuyv: [V4L2Size(320, 240): fast, V4L2Size(640, 480): fast, V4L2Size(1280, 720): .discrete([.interval(fps: 10)])],
            .mjpeg: [V4L2Size(640, 480): fast, V4L2Size(1280, 720): fast, V4L2Size(1920, 1080): fast],
        ]
        return d
    }

    /// vivid-like: raw formats in any size from 16x16 to 1920x1080 (step 2), 25/30/50/60 fps.
    static func stepwise() -> FakeV4L2Device {
        let d = FakeV4L2Device()
        d.capabilities = V4L2Capabilities(
            driver: "vivid", card: "vivid", busInfo: "platform:vivid-000", canCapture: true, canStream: true)
        d.formats = [.yuyv, .nv12, .yu12, .rgb24].map { V4L2FormatDescription(fourcc: $0, description: "\($0)") }
        for f in [FourCC.yuyv, .nv12, .yu12, .rgb24] {
            d.sizes[f] = .stepwise(min: V4L2Size(16, 16), max: V4L2Size(1920, 1080), step: V4L2Size(2, 2))
        }
        d.defaultIntervals = .discrete([.interval(fps: 60), .interval(fps: 50), .interval(fps: 30), .interval(fps: 25)])
        return d
    }

    /// A v4l2loopback device (`exclusive_caps=1`) another program writes YUYV 640x360 to, with
    /// the module's default two buffers; `writing: false` is the same device with no writer yet:
    /// an output device.
    static func loopback(writing: Bool = true) -> FakeV4L2Device {
        let d = FakeV4L2Device()
        d.capabilities = V4L2Capabilities(
            driver: "v4l2 loopback", card: "pipcam", busInfo: "platform:v4l2loopback-000", canCapture: writing,
            canStream: true, canOutput: !writing)
        d.formats = [V4L2FormatDescription(fourcc: .yuyv, description: "YUYV 4:2:2")]
        d.sizes = [.yuyv: .discrete([V4L2Size(640, 360)])]
        d.defaultIntervals = .discrete([.interval(fps: 30)])
        d.grantedBufferCount = 2
        return d
    }
}
