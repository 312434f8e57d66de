import CV4L2
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// The real `V4L2Device`: a node opened through libv4l2 (which adds software conversions for
/// odd camera formats). This file and `LibV4L2Output.swift` (output nodes) are the only places that
/// touch the V4L2 C API, ioctls and mmap; what both need of it is `V4L2Calls`, below.
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
        let (fd, code) = SystemCall.retryingInterrupts { CV4L2_open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw V4L2Error(call: "open", errno: code) }
        return LibV4L2Device(fileDescriptor: fd)
    }

    deinit { close() }

    private func ioctl<T>(_ request: UInt, _ argument: inout T) -> Int32 {
        V4L2Calls.ioctl(fileDescriptor, request, &argument, throughLibV4L2: true)
    }

    private func check<T>(_ name: String, _ request: UInt, _ argument: inout T) throws(V4L2Error) {
        try V4L2Calls.check(name, fileDescriptor, request, &argument, throughLibV4L2: true)
    }

    public func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities {
        try V4L2Calls.capabilities(of: fileDescriptor, throughLibV4L2: true)
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
                fourcc: FourCC(rawValue: desc.pixelformat), description: V4L2Calls.string(&desc.description),
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
            let step = e.type == CV4L2_FRMIVAL_TYPE_CONTINUOUS ? V4L2Fraction(0, 1) : V4L2Calls.fraction(s.step)
            return .stepwise(min: V4L2Calls.fraction(s.min), max: V4L2Calls.fraction(s.max), step: step)
        }
        return intervals.isEmpty ? .unknown : .discrete(intervals)
    }

    public func setFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat {
        var f = V4L2Calls.format(format, type: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        try check("VIDIOC_S_FMT", CV4L2_VIDIOC_S_FMT, &f)
        kernelFormat = driverFormat()
        return V4L2Calls.pixFormat(f.fmt.pix)
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
        return V4L2Calls.pixFormat(f.fmt.pix)
    }

    /// G_FMT from the driver itself, bypassing libv4l2; nil when it fails.
    private func driverFormat() -> V4L2PixFormat? {
        var f = v4l2_format()
        f.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        let ok = withUnsafeMutablePointer(to: &f) { CV4L2_kernel_ioctl(fileDescriptor, CV4L2_VIDIOC_G_FMT, $0) } == 0
        return ok ? V4L2Calls.pixFormat(f.fmt.pix) : nil
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
        let set = V4L2Calls.fraction(p.parm.capture.timeperframe)
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
        var b = V4L2Calls.buffer(index: index, type: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
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
        var b = V4L2Calls.buffer(index: index, type: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        try check("VIDIOC_QBUF", CV4L2_VIDIOC_QBUF, &b)
    }

    public func dequeueBuffer() throws(V4L2DequeueError) -> V4L2DequeuedBuffer {
        var b = V4L2Calls.buffer(index: 0, type: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        let code = ioctl(CV4L2_VIDIOC_DQBUF, &b)
        if code != 0 { throw V4L2DequeueError(errno: code) }
        let stamp = MonotonicInstant(seconds: Int(b.timestamp.tv_sec), microseconds: Int(b.timestamp.tv_usec))
        // A loopback device passes on whatever its writer stamped: a time no clock gives is no
        // capture time.
        let plausible = (0...Int(UInt32.max)).contains(Int(b.timestamp.tv_sec)) && (0..<1_000_000).contains(Int(b.timestamp.tv_usec))
        return V4L2DequeuedBuffer(
            index: Int(b.index), bytesUsed: Int(b.bytesused),
            hasError: b.flags & CV4L2_BUF_FLAG_ERROR != 0,
            hasMonotonicTimestamp: plausible && b.flags & CV4L2_BUF_FLAG_TIMESTAMP_MASK == CV4L2_BUF_FLAG_TIMESTAMP_MONOTONIC,
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
        // Not tried again when interrupted: on Linux the descriptor is released even when close is interrupted.
        _ = CV4L2_close(fileDescriptor)
    }
}

/// What both kinds of device need of the V4L2 C API: the ioctl funnel, the structures built
/// from Swift values and read back into them.
enum V4L2Calls {

    /// The one funnel every ioctl goes through, libv4l2's or the kernel's: retried when
    /// interrupted (`SystemCall`), returns 0 or the errno.
    static func ioctl<T>(_ fd: Int32, _ request: UInt, _ argument: inout T, throughLibV4L2: Bool) -> Int32 {
        SystemCall.retryingInterrupts {
            withUnsafeMutablePointer(to: &argument) {
                throughLibV4L2 ? CV4L2_ioctl(fd, request, $0) : CV4L2_kernel_ioctl(fd, request, $0)
            }
        }.errno
    }

    static func check<T>(
        _ name: String, _ fd: Int32, _ request: UInt, _ argument: inout T, throughLibV4L2: Bool
    ) throws(V4L2Error) {
        let code = ioctl(fd, request, &argument, throughLibV4L2: throughLibV4L2)
        if code != 0 { throw V4L2Error(call: name, errno: code) }
    }

    /// S_FMT's argument for `format` on a buffer `type`: size and fourcc, progressive; for an
    /// output also the packing and colorspace it writes.
    static func format(_ format: V4L2PixFormat, type: UInt32) -> v4l2_format {
        var f = v4l2_format()
        f.type = type
        f.fmt.pix.width = UInt32(format.width)
        f.fmt.pix.height = UInt32(format.height)
        f.fmt.pix.pixelformat = format.fourcc.rawValue
        f.fmt.pix.field = CV4L2_FIELD_NONE
        if type == CV4L2_BUF_TYPE_VIDEO_OUTPUT {
            f.fmt.pix.bytesperline = UInt32(format.bytesPerLine)
            f.fmt.pix.sizeimage = UInt32(format.sizeImage)
            f.fmt.pix.colorspace = format.colorspace == .rec709 ? CV4L2_COLORSPACE_REC709 : CV4L2_COLORSPACE_SMPTE170M
        }
        return f
    }

    static func buffer(index: Int, type: UInt32) -> v4l2_buffer {
        var b = v4l2_buffer()
        b.index = UInt32(index)
        b.type = type
        b.memory = CV4L2_MEMORY_MMAP
        return b
    }

    /// QUERYCAP on `fd`.
    static func capabilities(of fd: Int32, throughLibV4L2: Bool) throws(V4L2Error) -> V4L2Capabilities {
        var cap = v4l2_capability()
        try check("VIDIOC_QUERYCAP", fd, CV4L2_VIDIOC_QUERYCAP, &cap, throughLibV4L2: throughLibV4L2)
        let caps = cap.capabilities & CV4L2_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
        return V4L2Capabilities(
            driver: string(&cap.driver), card: string(&cap.card), busInfo: string(&cap.bus_info),
            canCapture: caps & CV4L2_CAP_VIDEO_CAPTURE != 0, canStream: caps & CV4L2_CAP_STREAMING != 0,
            isMediaControlled: caps & CV4L2_CAP_IO_MC != 0, canOutput: caps & CV4L2_CAP_VIDEO_OUTPUT != 0)
    }

    static func fraction(_ f: v4l2_fract) -> V4L2Fraction { V4L2Fraction(f.numerator, f.denominator) }

    /// A NUL-terminated fixed-size C char array (imported as a tuple) as a String.
    static func string<T>(_ tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }

    static func pixFormat(_ p: v4l2_pix_format) -> V4L2PixFormat {
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
