import PipCore

/// A node of the PipeWire graph that shows video, as the registry describes it.
public struct PipeWireNode: Sendable, Equatable {
    /// The registry's id: reused after the node goes.
    public var id: UInt32
    /// `object.serial`: never reused while the daemon runs.
    public var serial: UInt64
    /// `node.name`, e.g. `v4l2_input.pci-0000_00_14.0-usb-0_1_1.0`.
    public var name: String
    /// `node.description`, e.g. `Integrated Camera`.
    public var description: String
    /// `node.nick`.
    public var nick: String
    /// `media.class`: cameras are `Video/Source`.
    public var mediaClass: String
    /// `device.api`: `v4l2` or `libcamera` for a camera the daemon found, empty for a program's node.
    public var deviceAPI: String
    /// The device node behind it (`api.v4l2.path`, or libcamera's path), when there is one.
    public var devicePath: String
    /// A camera node a pipcam publishes for calls (`--share pipewire`): never taken as the camera
    /// unless named.
    public var isPipcamShare: Bool

    public init(
        id: UInt32, serial: UInt64, name: String, description: String = "", nick: String = "", mediaClass: String = "Video/Source",
        deviceAPI: String = "", devicePath: String = "", isPipcamShare: Bool = false
    ) {
        self.isPipcamShare = isPipcamShare
        self.id = id
        self.serial = serial
        self.name = name
        self.description = description
        self.nick = nick
        self.mediaClass = mediaClass
        self.deviceAPI = deviceAPI
        self.devicePath = devicePath
    }

    /// A camera: a video source (the daemon's own cameras, and programs that publish one).
    public var isCamera: Bool { mediaClass == "Video/Source" }
}

/// What a PipeWire stream from a camera agreed on.
public struct PipeWireStreamFormat: Sendable, Equatable {
    public var pixelFormat: PixelFormat
    public var width: Int
    public var height: Int
    /// Frames per second, when the format says.
    public var frameRate: Double?
    /// RGBx: `.bgra` frames with red and blue the other way round (turned as they are copied).
    public var redFirst: Bool
    public init(pixelFormat: PixelFormat, width: Int, height: Int, frameRate: Double?, redFirst: Bool = false) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.redFirst = redFirst
    }
}

/// What a stream asks of the camera node it reads.
public struct PipeWireStreamRequest: Sendable, Equatable {
    /// The node: its `node.name`, or its serial as digits.
    public var target: String
    /// The formats pipcam can show, in order of preference.
    public var formats: [PixelFormat]
    /// The mode asked for first; a camera that has no such mode gives its own default.
    public var width: Int, height: Int, frameRate: Int
    public init(target: String, formats: [PixelFormat], width: Int, height: Int, frameRate: Int) {
        self.target = target
        self.formats = formats
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}

/// Where a stream is.
public enum PipeWireStreamState: Sendable, Equatable {
    case error, unconnected, connecting, paused, streaming
}

/// What the daemon said since the last look.
public enum PipeWireEvent: Sendable, Equatable {
    /// The nodes there were at connection time are all known.
    case registryReady
    case nodeAdded(id: UInt32)
    /// A node's full description arrived, or its state changed.
    case nodeChanged(id: UInt32)
    case nodeRemoved(id: UInt32, name: String)
    /// The daemon went away.
    case disconnected(reason: String)
    case streamState(PipeWireStreamState, message: String)
    /// The stream agreed on a format (`PipeWireConnection.streamFormat`), or lost it.
    case streamFormat
    /// The link from the camera failed, e.g. no format both sides know.
    case linkFailed(message: String)
}

/// A filled buffer of the stream, lent until given back.
public struct PipeWireBuffer: @unchecked Sendable {
    public var base: UnsafeRawPointer
    public var byteCount: Int
    /// Bytes per row of the first plane as the producer set it; 0 when it did not.
    public var stride: Int
    /// The producer's frame number, or the connection's own count of buffers taken.
    public var sequence: UInt64
    /// When it was taken (`CLOCK_MONOTONIC`).
    public var timestamp: MonotonicInstant
    /// Older filled buffers given back unseen to hand out this newest one, when `sequence` does
    /// not count them already.
    public var skipped: Int
    /// The producer says the data is damaged.
    public var corrupted: Bool
    public var handle: UnsafeMutableRawPointer
    /// The same bytes through pipcam's own mapping of the daemon's memory, readable for as long
    /// as `PipeWireConnection.keepMemory` holds it (the buffer, the stream or the daemon may go
    /// meanwhile); nil when the buffer is not shared memory pipcam could map.
    public var ownBase: UnsafeRawPointer?
    public var ownMemory: UnsafeMutableRawPointer?
    /// The producer handed out again a buffer pipcam still holds: it writes into buffers lent out.
    public var redelivered: Bool
    /// Which stream of the connection it came from (a buffer of a closed stream is not given back).
    public var stream: Int
    public init(
        base: UnsafeRawPointer, byteCount: Int, stride: Int, sequence: UInt64, timestamp: MonotonicInstant, skipped: Int = 0,
        corrupted: Bool = false, handle: UnsafeMutableRawPointer, ownBase: UnsafeRawPointer? = nil,
        ownMemory: UnsafeMutableRawPointer? = nil, redelivered: Bool = false, stream: Int = 0
    ) {
        self.ownBase = ownBase
        self.ownMemory = ownMemory
        self.redelivered = redelivered
        self.stream = stream
        self.base = base
        self.byteCount = byteCount
        self.stride = stride
        self.sequence = sequence
        self.timestamp = timestamp
        self.skipped = skipped
        self.corrupted = corrupted
        self.handle = handle
    }
}

/// One connection to the PipeWire daemon with at most one stream: the seam between
/// `PipeWireCamera` and libpipewire (`LibPipeWire`) or a test's fake.
///
/// Used from one thread at a time: the thread that connected, until `releaseThread()`; then the
/// one that calls `claimThread()`.
public protocol PipeWireConnection: AnyObject {
    /// Readable when `dispatch()` has work.
    var pollDescriptor: Int32 { get }
    /// Handles what is waiting, without blocking; false once the daemon is gone.
    func dispatch() -> Bool
    /// The next event, oldest first.
    func nextEvent() -> PipeWireEvent?
    /// The video nodes known now.
    var nodes: [PipeWireNode] { get }
    /// Connects a stream to a camera node (a stream that starts paused gets no format).
    func openStream(_ request: PipeWireStreamRequest) throws(SourceError)
    var streamFormat: PipeWireStreamFormat? { get }
    /// The newest filled buffer (older ones go back at once), or nil.
    func takeNewestBuffer() -> PipeWireBuffer?
    /// Gives the buffer back to the stream it came from (nothing when that stream is closed).
    func giveBack(_ buffer: PipeWireBuffer)
    /// Keeps the buffer's own mapping (`ownBase`) readable until `dropMemory`, from any thread,
    /// also once the connection is closed.
    func keepMemory(of buffer: PipeWireBuffer)
    func dropMemory(of buffer: PipeWireBuffer)
    /// Starts or pauses the stream (paused, the daemon lets the camera go after a while).
    func setActive(_ active: Bool)
    func closeStream()
    /// Hands the connection to another thread, which calls `claimThread()`.
    func releaseThread()
    func claimThread()
    /// Closes the stream and the connection.
    func disconnect()
}

/// Makes a connection to the daemon, or says why there is none.
public typealias PipeWireConnector = @Sendable () throws(SourceError) -> PipeWireConnection
