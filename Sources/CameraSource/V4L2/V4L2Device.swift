#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// A V4L2 call that failed: which one, and the errno it failed with.
public struct V4L2Error: Error, Equatable, CustomStringConvertible {
    /// The call, e.g. `"open"`, `"VIDIOC_S_FMT"`, `"mmap"`.
    public var call: String
    public var errno: Int32
    public init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }
    public var description: String { "\(call): \(Errno(errno))" }
}

/// Why `VIDIOC_DQBUF` gave no buffer.
public enum V4L2DequeueError: Error, Equatable {
    /// No filled buffer yet (EAGAIN): wait for the descriptor to become readable.
    case wouldBlock
    /// A signal arrived (EINTR): try again.
    case interrupted
    /// The device is gone (ENODEV): unplugged.
    case noDevice
    /// The driver had an I/O error (EIO), e.g. signal loss; the stream may have stalled.
    case io
    case other(Int32)

    /// The case for an errno from `VIDIOC_DQBUF`.
    public init(errno code: Int32) {
        switch code {
        case EAGAIN: self = .wouldBlock
        case EINTR: self = .interrupted
        case ENODEV: self = .noDevice
        case EIO: self = .io
        default: self = .other(code)
        }
    }
}

/// One opened V4L2 capture node, in Swift terms: the seam between `V4L2Camera`/`CameraDiscovery`
/// and the kernel (`LibV4L2Device`) or a test's scripted fake.
///
/// Calls mirror the V4L2 ioctls one to one and throw `V4L2Error` with the call's errno.
/// Single-planar video capture with memory-mapped buffers only. Its controls are those of
/// `CameraControlAccess`: remembered ones are set on it after open, before streaming.
public protocol V4L2Device: CameraControlAccess {
    /// The descriptor to poll for filled buffers.
    var fileDescriptor: Int32 { get }
    /// `VIDIOC_QUERYCAP`.
    func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities
    /// `VIDIOC_ENUM_FMT` for video capture, all indices.
    func enumerateFormats() throws(V4L2Error) -> [V4L2FormatDescription]
    /// `VIDIOC_ENUM_FRAMESIZES` for one format, all indices.
    func enumerateFrameSizes(_ fourcc: FourCC) throws(V4L2Error) -> V4L2FrameSizes
    /// `VIDIOC_ENUM_FRAMEINTERVALS` for one format and size, all indices.
    func enumerateFrameIntervals(_ fourcc: FourCC, size: V4L2Size) throws(V4L2Error) -> V4L2FrameIntervals
    /// `VIDIOC_S_FMT`: asks for a format and returns what the driver made of it.
    func setFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat
    /// `VIDIOC_G_FMT`: the format now in effect. Throws EBUSY when another process changed the
    /// device's format since `setFormat`.
    func getFormat() throws(V4L2Error) -> V4L2PixFormat
    /// `VIDIOC_S_PARM`: asks for a frame interval; returns the one set, or nil when the driver
    /// cannot set the rate (no `V4L2_CAP_TIMEPERFRAME`).
    func setFrameInterval(_ interval: V4L2Fraction) throws(V4L2Error) -> V4L2Fraction?
    /// `VIDIOC_REQBUFS` (memory-mapped); returns how many buffers the driver allocated.
    func requestBuffers(count: Int) throws(V4L2Error) -> Int
    /// `VIDIOC_QUERYBUF` + mmap of one buffer.
    func mapBuffer(index: Int) throws(V4L2Error) -> V4L2MappedBuffer
    /// munmap of a buffer from `mapBuffer`.
    func unmapBuffer(_ buffer: V4L2MappedBuffer)
    /// `VIDIOC_QBUF`.
    func queueBuffer(index: Int) throws(V4L2Error)
    /// `VIDIOC_DQBUF` (non-blocking).
    func dequeueBuffer() throws(V4L2DequeueError) -> V4L2DequeuedBuffer
    /// `VIDIOC_STREAMON`.
    func streamOn() throws(V4L2Error)
    /// `VIDIOC_STREAMOFF`; also takes back every queued buffer.
    func streamOff() throws(V4L2Error)
    /// Closes the descriptor; the device must not be used afterwards.
    func close()
}

/// Opens a device node for capture (non-blocking), e.g. `LibV4L2Device.open(path:)`.
public typealias V4L2DeviceOpener = (String) throws(V4L2Error) -> any V4L2Device

/// An opened V4L2 output node that frames are written to (`--share`: a v4l2loopback device):
/// the seam between `CameraShare` and the kernel (`LibV4L2Output`) or a test's fake.
public protocol V4L2OutputDevice: AnyObject {
    /// `VIDIOC_QUERYCAP`.
    func queryCapabilities() throws(V4L2Error) -> V4L2Capabilities
    /// `VIDIOC_S_FMT` for video output: asks for a format and returns what the driver made of it;
    /// then gets ready to stream frames of it.
    func setOutputFormat(_ format: V4L2PixFormat) throws(V4L2Error) -> V4L2PixFormat
    /// `VIDIOC_S_PARM` for video output: the frame interval readers are told. Best effort.
    func setOutputFrameInterval(_ interval: V4L2Fraction)
    /// Hands one whole frame to the driver (its readers see it at once).
    func write(_ bytes: UnsafeRawBufferPointer) throws(V4L2Error)
    /// Closes the descriptor; the device must not be used afterwards.
    func close()
}

/// Opens a device node for writing frames, e.g. `LibV4L2Output.open(path:)`.
public typealias V4L2OutputOpener = (String) throws(V4L2Error) -> any V4L2OutputDevice
