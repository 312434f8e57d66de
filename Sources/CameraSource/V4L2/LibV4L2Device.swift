import CV4L2
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// The real `V4L2Device`: a node opened through libv4l2 (which adds software conversions for
/// odd camera formats). This file is the only place that touches the V4L2 C API, ioctls and mmap
/// (`LibV4L2Output`, below, writes to output nodes).
public final class LibV4L2Device: V4L2Device {
    public let fileDescriptor: Int32
    private var isClosed = false
    /// The driver's own format after our S_FMT/S_PARM, to notice another process changing it.
    private var kernelFormat: V4L2PixFormat?
    /// Sends libv4l2's stderr chatter to /dev/null, once per process.
    private static let quietLog: Bool = CV4L2_quiet_log() != 0

    private init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// Opens `path` read-write and non-blocking (DQBUF must never block the loop).
    public static func open(path: String) throws(V4L2Error) -> any V4L2Device {
        assert(FourCC.yuyv.rawValue == CV4L2_PIX_FMT_YUYV && FourCC.mjpeg.rawValue == CV4L2_PIX_FMT_MJPEG
            && FourCC.yu12.rawValue == CV4L2_PIX_FMT_YUV420 && FourCC.nv12.rawValue == CV4L2_PIX_FMT_NV12
            && FourCC.jpeg.rawValue == CV4L2_PIX_FMT_JPEG && FourCC.rgb24.rawValue == CV4L2_PIX_FMT_RGB24
            && FourCC.bgr32.rawValue == CV4L2_PIX_FMT_BGR32 && FourCC.xbgr32.rawValue == CV4L2_PIX_FMT_XBGR32
            && FourCC.abgr32.rawValue == CV4L2_PIX_FMT_ABGR32 && FourCC.grey.rawValue == CV4L2_PIX_FMT_GREY)
        _ = quietLog
        // libv4l2's plugins print to stderr about non-V4L2 files before we could report it in one
        // line, so such files are turned away with a plain kernel QUERYCAP first.
        let probe = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard probe >= 0 else { throw V4L2Error(call: "open", errno: errno) }
        var probeCapability = v4l2_capability()
        let probeFailed = CV4L2_kernel_ioctl(probe, CV4L2_VIDIOC_QUERYCAP, &probeCapability) != 0
        let probeErrno = errno
        _ = Glibc.close(probe)
        if probeFailed { throw V4L2Error(call: "open", errno: probeErrno == EINVAL ? ENOTTY : probeErrno) }
        var fd: Int32
        repeat { fd = CV4L2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw V4L2Error(call: "open", errno: errno) }
        return LibV4L2Device(fileDescriptor: fd)
    }

    deinit { close() }

    /// The one funnel every ioctl goes through: retries EINTR, returns 0 or the errno.
    private func ioctl<T>(_ request: UInt, _ argument: inout T) -> Int32 {
        let fd = fileDescriptor
        while true {
            if withUnsafeMutablePointer(to: &argument, { CV4L2_ioctl(fd, request, $0) }) == 0 { return 0 }
            let code = errno
            if code != EINTR { return code }
        }
    }

    private func check<T>(_ name: String, _ request: UInt, _ argument: inout T) throws(V4L2Error) {
        let code = ioctl(request, &argument)
        if code != 0 { throw V4L2Error(call: name, errno: code) }
    }

    public func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities {
        var cap = v4l2_capability()
        try check("VIDIOC_QUERYCAP", CV4L2_VIDIOC_QUERYCAP, &cap)
        return Self.capabilities(&cap)
    }

    fileprivate static func capabilities(_ cap: inout v4l2_capability) -> V4L2Capabilities {
        let caps = cap.capabilities & CV4L2_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
        return V4L2Capabilities(
            driver: string(&cap.driver), card: string(&cap.card), busInfo: string(&cap.bus_info),
            canCapture: caps & CV4L2_CAP_VIDEO_CAPTURE != 0, canStream: caps & CV4L2_CAP_STREAMING != 0,
            isMediaControlled: caps & CV4L2_CAP_IO_MC != 0, canOutput: caps & CV4L2_CAP_VIDEO_OUTPUT != 0)
    }

    public func enumerateFormats() throws(V4L2Error) -> [V4L2FormatDescription] {
        var result: [V4L2FormatDescription] = []
        for index in 0..<UInt32(256) {
            var desc = v4l2_fmtdesc()
            desc.index = index
            desc.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            let code = ioctl(CV4L2_VIDIOC_ENUM_FMT, &desc)
            if code == EINVAL { break }  // past the last index
            if code != 0 { throw V4L2Error(call: "VIDIOC_ENUM_FMT", errno: code) }
            result.append(V4L2FormatDescription(
                fourcc: FourCC(rawValue: desc.pixelformat), description: Self.string(&desc.description),
                isCompressed: desc.flags & CV4L2_FMT_FLAG_COMPRESSED != 0,
                isEmulated: desc.flags & CV4L2_FMT_FLAG_EMULATED != 0))
        }
        return result
    }

    public func enumerateFrameSizes(_ fourcc: FourCC) throws(V4L2Error) -> V4L2FrameSizes {
        var sizes: [V4L2Size] = []
        for index in 0..<UInt32(1024) {
            var e = v4l2_frmsizeenum()
            e.index = index
            e.pixel_format = fourcc.rawValue
            let code = ioctl(CV4L2_VIDIOC_ENUM_FRAMESIZES, &e)
            if code == EINVAL || code == ENOTTY { break }
            if code != 0 { throw V4L2Error(call: "VIDIOC_ENUM_FRAMESIZES", errno: code) }
            if e.type == CV4L2_FRMSIZE_TYPE_DISCRETE {
                sizes.append(V4L2Size(Int(e.discrete.width), Int(e.discrete.height)))
                continue
            }
            // Stepwise and continuous come as the one and only entry (index 0).
            let s = e.stepwise
            let continuous = e.type == CV4L2_FRMSIZE_TYPE_CONTINUOUS
            return .stepwise(
                min: V4L2Size(Int(s.min_width), Int(s.min_height)),
                max: V4L2Size(Int(s.max_width), Int(s.max_height)),
                step: continuous ? V4L2Size(1, 1) : V4L2Size(max(1, Int(s.step_width)), max(1, Int(s.step_height))))
        }
        return sizes.isEmpty ? .unknown : .discrete(sizes)
    }

    public func enumerateFrameIntervals(_ fourcc: FourCC, size: V4L2Size) throws(V4L2Error) -> V4L2FrameIntervals {
        var intervals: [V4L2Fraction] = []
        for index in 0..<UInt32(256) {
            var e = v4l2_frmivalenum()
            e.index = index
            e.pixel_format = fourcc.rawValue
            e.width = UInt32(size.width)
            e.height = UInt32(size.height)
            let code = ioctl(CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, &e)
            if code == EINVAL || code == ENOTTY { break }
            if code != 0 { throw V4L2Error(call: "VIDIOC_ENUM_FRAMEINTERVALS", errno: code) }
            if e.type == CV4L2_FRMIVAL_TYPE_DISCRETE {
                intervals.append(V4L2Fraction(e.discrete.numerator, e.discrete.denominator))
                continue
            }
            let s = e.stepwise
            let step = e.type == CV4L2_FRMIVAL_TYPE_CONTINUOUS ? V4L2Fraction(0, 1) : Self.fraction(s.step)
            return .stepwise(min: Self.fraction(s.min), max: Self.fraction(s.max), step: step)
        }
        return intervals.isEmpty ? .unknown : .discrete(intervals)
    }

    public func setFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat {
        var f = v4l2_format()
        f.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        f.fmt.pix.width = UInt32(format.width)
        f.fmt.pix.height = UInt32(format.height)
        f.fmt.pix.pixelformat = format.fourcc.rawValue
        f.fmt.pix.field = CV4L2_FIELD_NONE
        try check("VIDIOC_S_FMT", CV4L2_VIDIOC_S_FMT, &f)
        kernelFormat = driverFormat()
        return Self.pixFormat(f.fmt.pix)
    }

    /// The format of the buffers we will get: libv4l2's (it may convert). libv4l2 answers G_FMT
    /// from its cache, so the driver is asked too: when its format changed since our S_FMT,
    /// another process reconfigured the device, reported as EBUSY (in use).
    public func getFormat() throws(V4L2Error) -> V4L2PixFormat {
        var f = v4l2_format()
        f.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        try check("VIDIOC_G_FMT", CV4L2_VIDIOC_G_FMT, &f)
        if let before = kernelFormat, let now = driverFormat(), now != before {
            throw V4L2Error(call: "VIDIOC_G_FMT", errno: EBUSY)
        }
        return Self.pixFormat(f.fmt.pix)
    }

    /// G_FMT from the driver itself, bypassing libv4l2; nil when it fails.
    private func driverFormat() -> V4L2PixFormat? {
        var f = v4l2_format()
        f.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        let ok = withUnsafeMutablePointer(to: &f) { CV4L2_kernel_ioctl(fileDescriptor, CV4L2_VIDIOC_G_FMT, $0) } == 0
        return ok ? Self.pixFormat(f.fmt.pix) : nil
    }

    public func setFrameInterval(_ interval: V4L2Fraction) throws(V4L2Error) -> V4L2Fraction? {
        var p = v4l2_streamparm()
        p.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        let code = ioctl(CV4L2_VIDIOC_G_PARM, &p)
        if code == EINVAL || code == ENOTTY { return nil }
        if code != 0 { throw V4L2Error(call: "VIDIOC_G_PARM", errno: code) }
        guard p.parm.capture.capability & CV4L2_CAP_TIMEPERFRAME != 0 else { return nil }
        p.parm.capture.timeperframe = v4l2_fract(numerator: interval.numerator, denominator: interval.denominator)
        try check("VIDIOC_S_PARM", CV4L2_VIDIOC_S_PARM, &p)
        // libv4l2 may pick another source format for the new rate when it converts.
        if kernelFormat != nil { kernelFormat = driverFormat() }
        let set = Self.fraction(p.parm.capture.timeperframe)
        return set.numerator == 0 || set.denominator == 0 ? nil : set
    }

    public func requestBuffers(count: Int) throws(V4L2Error) -> Int {
        var r = v4l2_requestbuffers()
        r.count = UInt32(count)
        r.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        r.memory = CV4L2_MEMORY_MMAP
        try check("VIDIOC_REQBUFS", CV4L2_VIDIOC_REQBUFS, &r)
        return Int(r.count)
    }

    public func mapBuffer(index: Int) throws(V4L2Error) -> V4L2MappedBuffer {
        var b = Self.buffer(index: index)
        try check("VIDIOC_QUERYBUF", CV4L2_VIDIOC_QUERYBUF, &b)
        let length = Int(b.length)
        let p = CV4L2_mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fileDescriptor, Int64(b.m.offset))
        guard let base = p, CV4L2_isMapFailed(p) == 0 else { throw V4L2Error(call: "mmap", errno: errno) }
        return V4L2MappedBuffer(index: index, base: base, length: length)
    }

    public func unmapBuffer(_ buffer: V4L2MappedBuffer) {
        _ = CV4L2_munmap(buffer.base, buffer.length)
    }

    public func queueBuffer(index: Int) throws(V4L2Error) {
        var b = Self.buffer(index: index)
        try check("VIDIOC_QBUF", CV4L2_VIDIOC_QBUF, &b)
    }

    public func dequeueBuffer() throws(V4L2DequeueError) -> V4L2DequeuedBuffer {
        var b = Self.buffer(index: 0)
        let code = ioctl(CV4L2_VIDIOC_DQBUF, &b)
        if code != 0 { throw V4L2DequeueError(errno: code) }
        let stamp = MonotonicInstant(
            seconds: max(0, Int(b.timestamp.tv_sec)), microseconds: max(0, Int(b.timestamp.tv_usec)))
        return V4L2DequeuedBuffer(
            index: Int(b.index), bytesUsed: Int(b.bytesused),
            hasError: b.flags & CV4L2_BUF_FLAG_ERROR != 0,
            hasMonotonicTimestamp: b.flags & CV4L2_BUF_FLAG_TIMESTAMP_MASK == CV4L2_BUF_FLAG_TIMESTAMP_MONOTONIC,
            timestamp: stamp, sequence: b.sequence)
    }

    public func streamOn() throws(V4L2Error) {
        var type = Int32(CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        try check("VIDIOC_STREAMON", CV4L2_VIDIOC_STREAMON, &type)
    }

    public func streamOff() throws(V4L2Error) {
        var type = Int32(CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        try check("VIDIOC_STREAMOFF", CV4L2_VIDIOC_STREAMOFF, &type)
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        // No EINTR retry: on Linux the descriptor is released even when close is interrupted.
        _ = CV4L2_close(fileDescriptor)
    }

    // MARK: - C to Swift

    private static func buffer(index: Int) -> v4l2_buffer {
        var b = v4l2_buffer()
        b.index = UInt32(index)
        b.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        b.memory = CV4L2_MEMORY_MMAP
        return b
    }

    private static func fraction(_ f: v4l2_fract) -> V4L2Fraction { V4L2Fraction(f.numerator, f.denominator) }

    /// A NUL-terminated fixed-size C char array (imported as a tuple) as a String.
    private static func string<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }

    fileprivate static func pixFormat(_ p: v4l2_pix_format) -> V4L2PixFormat {
        V4L2PixFormat(
            fourcc: FourCC(rawValue: p.pixelformat), width: Int(p.width), height: Int(p.height),
            bytesPerLine: Int(p.bytesperline), sizeImage: Int(p.sizeimage),
            colorspace: colorspace(p.colorspace), ycbcrEncoding: encoding(UInt32(p.ycbcr_enc)),
            quantization: quantization(UInt32(p.quantization)))
    }

    private static func colorspace(_ c: UInt32) -> V4L2Colorspace {
        switch c {
        case CV4L2_COLORSPACE_DEFAULT: return .default
        case CV4L2_COLORSPACE_SMPTE170M, CV4L2_COLORSPACE_470_SYSTEM_M, CV4L2_COLORSPACE_470_SYSTEM_BG:
            return .smpte170m
        case CV4L2_COLORSPACE_REC709: return .rec709
        case CV4L2_COLORSPACE_SRGB: return .srgb
        case CV4L2_COLORSPACE_JPEG: return .jpeg
        case CV4L2_COLORSPACE_BT2020: return .bt2020
        default: return .other
        }
    }

    private static func encoding(_ e: UInt32) -> V4L2YCbCrEncoding {
        switch e {
        case CV4L2_YCBCR_ENC_DEFAULT: return .default
        case CV4L2_YCBCR_ENC_601, CV4L2_YCBCR_ENC_XV601: return .bt601
        case CV4L2_YCBCR_ENC_709, CV4L2_YCBCR_ENC_XV709: return .bt709
        case CV4L2_YCBCR_ENC_BT2020: return .bt2020
        default: return .other
        }
    }

    private static func quantization(_ q: UInt32) -> V4L2Quantization {
        switch q {
        case CV4L2_QUANTIZATION_FULL_RANGE: return .fullRange
        case CV4L2_QUANTIZATION_LIM_RANGE: return .limitedRange
        default: return .default
        }
    }
}

/// The real `V4L2OutputDevice`: an output node (v4l2loopback) fed with streaming I/O — memory-mapped
/// buffers, QBUF, STREAMON — as camera programs write it. Not write(2): v4l2loopback (0.12) takes
/// a write(2) writer for one for good, and with `exclusive_caps=1` the device is then never again
/// an output device until the module is reloaded. Plain kernel ioctls: libv4l2 only wraps capture.
public final class LibV4L2Output: V4L2OutputDevice {
    public let fileDescriptor: Int32
    private var isClosed = false
    private var buffers: [(base: UnsafeMutableRawPointer, length: Int)] = []
    /// Frames queued so far.
    private var queued = 0
    private var isStreaming = false
    /// Buffers asked for (v4l2loopback's default `max_buffers` is 2).
    static let bufferCount = 2

    private init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    /// Opens `path` for writing frames (non-blocking: a frame must never hold up the capture thread).
    public static func open(path: String) throws(V4L2Error) -> any V4L2OutputDevice {
        var fd: Int32
        repeat { fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw V4L2Error(call: "open", errno: errno) }
        return LibV4L2Output(fileDescriptor: fd)
    }

    deinit { close() }

    private func check<T>(_ name: String, _ request: UInt, _ argument: inout T) throws(V4L2Error) {
        let fd = fileDescriptor
        while withUnsafeMutablePointer(to: &argument, { CV4L2_kernel_ioctl(fd, request, $0) }) != 0 {
            let code = errno
            if code != EINTR { throw V4L2Error(call: name, errno: code) }
        }
    }

    public func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities {
        var cap = v4l2_capability()
        try check("VIDIOC_QUERYCAP", CV4L2_VIDIOC_QUERYCAP, &cap)
        return LibV4L2Device.capabilities(&cap)
    }

    public func setOutputFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat {
        var f = v4l2_format()
        f.type = CV4L2_BUF_TYPE_VIDEO_OUTPUT
        f.fmt.pix.width = UInt32(format.width)
        f.fmt.pix.height = UInt32(format.height)
        f.fmt.pix.pixelformat = format.fourcc.rawValue
        f.fmt.pix.field = CV4L2_FIELD_NONE
        f.fmt.pix.bytesperline = UInt32(format.bytesPerLine)
        f.fmt.pix.sizeimage = UInt32(format.sizeImage)
        f.fmt.pix.colorspace = format.colorspace == .rec709 ? CV4L2_COLORSPACE_REC709 : CV4L2_COLORSPACE_SMPTE170M
        try check("VIDIOC_S_FMT", CV4L2_VIDIOC_S_FMT, &f)
        let set = LibV4L2Device.pixFormat(f.fmt.pix)
        // Another stream's format kept (readers still open): not ours to stream.
        if set.fourcc == format.fourcc && set.width == format.width && set.height == format.height { try startStreaming() }
        return set
    }

    public func setOutputFrameInterval(_ interval: V4L2Fraction) {
        var p = v4l2_streamparm()
        p.type = CV4L2_BUF_TYPE_VIDEO_OUTPUT
        p.parm.output.timeperframe = v4l2_fract(numerator: UInt32(interval.numerator), denominator: UInt32(interval.denominator))
        try? check("VIDIOC_S_PARM", CV4L2_VIDIOC_S_PARM, &p)
    }

    private static func buffer(index: Int) -> v4l2_buffer {
        var b = v4l2_buffer()
        b.index = UInt32(index)
        b.type = CV4L2_BUF_TYPE_VIDEO_OUTPUT
        b.memory = CV4L2_MEMORY_MMAP
        return b
    }

    /// REQBUFS → QUERYBUF + mmap each → STREAMON: the device is a camera to readers from here on.
    private func startStreaming() throws(V4L2Error) {
        guard !isStreaming else { return }
        var request = v4l2_requestbuffers()
        request.count = UInt32(Self.bufferCount)
        request.type = CV4L2_BUF_TYPE_VIDEO_OUTPUT
        request.memory = CV4L2_MEMORY_MMAP
        try check("VIDIOC_REQBUFS", CV4L2_VIDIOC_REQBUFS, &request)
        guard request.count > 0 else { throw V4L2Error(call: "VIDIOC_REQBUFS", errno: ENOMEM) }
        for index in 0..<Int(request.count) {
            var b = Self.buffer(index: index)
            try check("VIDIOC_QUERYBUF", CV4L2_VIDIOC_QUERYBUF, &b)
            let p = mmap(nil, Int(b.length), PROT_READ | PROT_WRITE, MAP_SHARED, fileDescriptor, off_t(b.m.offset))
            guard let base = p, base != MAP_FAILED else { throw V4L2Error(call: "mmap", errno: errno) }
            buffers.append((base, Int(b.length)))
        }
        var type = Int32(CV4L2_BUF_TYPE_VIDEO_OUTPUT)
        try check("VIDIOC_STREAMON", CV4L2_VIDIOC_STREAMON, &type)
        isStreaming = true
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(V4L2Error) {
        guard let source = bytes.baseAddress, !buffers.isEmpty else { return }
        // The buffers in turn, the oldest first: readers read the newest. (v4l2loopback's own
        // DQBUF would hand back the newest, which a reader may be reading; its QBUF takes a
        // buffer whether it was dequeued or not.)
        let index = queued % buffers.count
        let target = buffers[index]
        let count = min(bytes.count, target.length)
        target.base.copyMemory(from: source, byteCount: count)
        var q = Self.buffer(index: index)
        q.bytesused = UInt32(count)
        q.field = CV4L2_FIELD_NONE
        try check("VIDIOC_QBUF", CV4L2_VIDIOC_QBUF, &q)
        queued += 1
    }

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if isStreaming {
            var type = Int32(CV4L2_BUF_TYPE_VIDEO_OUTPUT)
            try? check("VIDIOC_STREAMOFF", CV4L2_VIDIOC_STREAMOFF, &type)
        }
        for buffer in buffers { munmap(buffer.base, buffer.length) }
        buffers = []
        _ = Glibc.close(fileDescriptor)
    }
}
