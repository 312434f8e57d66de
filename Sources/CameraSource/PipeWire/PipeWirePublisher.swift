import PipCore

/// What pipcam's own camera node is published as (`--share pipewire[:NAME]`).
public struct PipeWireNodeRequest: Sendable, Equatable {
    /// `node.name`, which readers name as their target; also its description.
    public var name: String
    /// `.yuyv` or `.i420`.
    public var format: PixelFormat
    public var width: Int
    public var height: Int
    /// Frames per second readers are told.
    public var frameRate: Int

    public init(name: String, format: PixelFormat, width: Int, height: Int, frameRate: Int) {
        self.name = name
        self.format = format
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }
}

/// One connection to the PipeWire daemon that publishes a camera node: the seam between
/// `PipeWireShare` and libpipewire (`LibPipeWire`) or a test's fake.
///
/// Used from one thread at a time: the thread that connected, until `releaseThread()`; then the
/// one that calls `claimThread()`.
public protocol PipeWirePublisher: AnyObject {
    /// Readable when `serve()` has work.
    var pollDescriptor: Int32 { get }
    /// Handles what is waiting, without blocking; false once the daemon is gone.
    func serve() -> Bool
    /// Publishes the node (at most one per connection).
    func publish(_ node: PipeWireNodeRequest) throws(SourceError)
    /// The node's id once the daemon has given it one.
    var publishedNodeID: UInt32? { get }
    /// Links from the node to readers.
    var readers: Int { get }
    /// Sends one whole frame to the readers: false when there is none, or none has a free buffer.
    func push(_ bytes: UnsafeRawBufferPointer, timestamp: MonotonicInstant) -> Bool
    /// Tells every reader the stream ended (they stop instead of waiting); how many were told.
    func endReaders(_ message: String) -> Int
    func releaseThread()
    func claimThread()
    /// Removes the node and closes the connection.
    func disconnect()
}

/// Makes a connection that can publish a node, or says why there is none.
public typealias PipeWirePublisherConnector = @Sendable () throws(SourceError) -> PipeWirePublisher
