import PipCore

/// Where `--share` sends the call's frames: a v4l2loopback device or a PipeWire node of pipcam's own.
public protocol ShareOutput: AnyObject {
    /// Hands one whole frame to the readers: false when nobody can take it now (a node with no
    /// reader, or readers still holding every buffer). Throws when the output failed.
    func send(_ bytes: UnsafeRawBufferPointer, capturedAt: MonotonicInstant?) throws -> Bool
    /// Programs reading it now, as far as they can be seen.
    var readers: Int? { get }
    /// A PipeWire node's id in the daemon, while it is published.
    var nodeID: UInt32? { get }
    /// Stops it; readers see no more frames. Must not be used afterwards.
    func close()
}

/// What `--share` asks for.
public enum ShareRequest: Sendable, Equatable {
    /// `--share` alone: the first v4l2loopback device no other program writes, else a PipeWire
    /// node when a daemon answers.
    case any
    /// `--share DEVICE`.
    case loopback(device: String)
    /// `--share pipewire[:NAME]`.
    case pipeWire(name: String)

    /// The node's name when none is given: what call apps list.
    public static let standardNodeName = "pipcam"

    /// The v4l2loopback device named, which is never read back as a camera.
    public var device: String? {
        if case .loopback(let device) = self { return device }
        return nil
    }
}

extension ShareOutput {
    public var nodeID: UInt32? { nil }
}

/// The route a share takes, as `pipcam status` names it.
public enum ShareRoute: Sendable, Equatable {
    /// A v4l2loopback output device, e.g. `/dev/video10`.
    case loopback(device: String)
    /// A PipeWire camera node, by its `node.name`.
    case pipeWire(node: String)

    /// `v4l2loopback` or `pipewire`.
    public var name: String {
        switch self {
        case .loopback: return "v4l2loopback"
        case .pipeWire: return "pipewire"
        }
    }

    /// The PipeWire node's name (nil for a v4l2loopback device).
    public var node: String? {
        if case .pipeWire(let node) = self { return node }
        return nil
    }

    /// The device path, or `pipewire:NAME`: what call apps list and `--share` takes again.
    public var target: String {
        switch self {
        case .loopback(let device): return device
        case .pipeWire(let node): return "pipewire:\(node)"
        }
    }
}

/// A v4l2loopback device as a share's output: every frame is written whether or not anyone reads.
final class LoopbackOutput: ShareOutput {
    private let device: any V4L2OutputDevice
    private let path: String

    init(_ device: any V4L2OutputDevice, path: String) {
        self.device = device
        self.path = path
    }

    func send(_ bytes: UnsafeRawBufferPointer, capturedAt: MonotonicInstant?) throws -> Bool {
        try device.write(bytes)
        return true
    }

    /// v4l2loopback does not count its readers: the other processes with the device open.
    var readers: Int? { DeviceOpeners.others(of: path) }

    func close() { device.close() }
}
