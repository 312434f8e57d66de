import CV4L2
import PipCore
#if canImport(Glibc)
import Glibc
#endif

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
        let (fd, code) = SystemCall.retryingInterrupts { Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw V4L2Error(call: "open", errno: code) }
        return LibV4L2Output(fileDescriptor: fd)
    }

    deinit { close() }

    private func check<T>(_ name: String, _ request: UInt, _ argument: inout T) throws(V4L2Error) {
        try V4L2Calls.check(name, fileDescriptor, request, &argument, throughLibV4L2: false)
    }

    public func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities {
        try V4L2Calls.capabilities(of: fileDescriptor, throughLibV4L2: false)
    }

    public func setOutputFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat {
        var f = V4L2Calls.format(format, type: CV4L2_BUF_TYPE_VIDEO_OUTPUT)
        try check("VIDIOC_S_FMT", CV4L2_VIDIOC_S_FMT, &f)
        let set = V4L2Calls.pixFormat(f.fmt.pix)
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
            var b = V4L2Calls.buffer(index: index, type: CV4L2_BUF_TYPE_VIDEO_OUTPUT)
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
        var q = V4L2Calls.buffer(index: index, type: CV4L2_BUF_TYPE_VIDEO_OUTPUT)
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
