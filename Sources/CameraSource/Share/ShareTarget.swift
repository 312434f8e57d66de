#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Finds and opens the virtual camera `--share` writes to: a v4l2loopback device that no other
/// process writes, set to the shared stream's format.
///
/// Errors are one line each (docs/BEHAVIOUR.md, "Sharing the camera"): no v4l2loopback device or
/// a device that is not one is bad input (exit 2, with the command that loads the module);
/// a device another process already writes is a runtime failure (exit 1).
public struct ShareTarget {
    /// The command that makes a virtual camera call apps list as "pipcam".
    public static let loadCommand = "sudo modprobe v4l2loopback exclusive_caps=1 card_label=pipcam"

    public var nodePaths: () -> [String]
    public var openOutput: V4L2OutputOpener
    /// Whether the v4l2loopback module is loaded (`/sys/module/v4l2loopback`).
    public var moduleLoaded: () -> Bool
    /// Publishes a PipeWire node (`--share pipewire`, or `--share` alone without v4l2loopback).
    public var publish: (PipeWireNodeRequest) throws(SourceError) -> any ShareOutput

    public init(
        nodePaths: @escaping () -> [String] = CameraDiscovery.videoNodePaths,
        openOutput: @escaping V4L2OutputOpener = LibV4L2Output.open(path:),
        moduleLoaded: @escaping () -> Bool = { access("/sys/module/v4l2loopback", F_OK) == 0 },
        publish: @escaping (PipeWireNodeRequest) throws(SourceError) -> any ShareOutput = { node throws(SourceError) in
            try PipeWireShare(node: node)
        }
    ) {
        self.nodePaths = nodePaths
        self.openOutput = openOutput
        self.moduleLoaded = moduleLoaded
        self.publish = publish
    }

    /// Opens what `request` asks for. `--share` alone takes the first free v4l2loopback device,
    /// else a PipeWire node named "pipcam"; when neither can be had, the error names both ways.
    public func open(
        _ request: ShareRequest, format: PixelFormat, width: Int, height: Int, frameRate: Double?
    ) throws(SourceError) -> CameraShare {
        switch request {
        case .loopback(let device):
            return try open(path: device, format: format, width: width, height: height, frameRate: frameRate)
        case .pipeWire(let name):
            return try openNode(name, format: format, width: width, height: height, frameRate: frameRate)
        case .any:
            let loopbackError: SourceError
            do throws(SourceError) {
                return try open(path: nil, format: format, width: width, height: height, frameRate: frameRate)
            } catch { loopbackError = error }
            do throws(SourceError) {
                return try openNode(ShareRequest.standardNodeName, format: format, width: width, height: height, frameRate: frameRate)
            } catch {
                let reason = "\(Self.reason(loopbackError)); and PipeWire: \(Self.reason(error))"
                if case .runtime = loopbackError { throw .runtime(thing: "--share", reason: reason) }
                throw .badInput(thing: "--share", reason: reason)
            }
        }
    }

    private func openNode(_ name: String, format: PixelFormat, width: Int, height: Int, frameRate: Double?) throws(SourceError) -> CameraShare {
        let rate = Int((frameRate ?? 30).rounded())
        let node = PipeWireNodeRequest(name: name, format: format, width: width, height: height, frameRate: min(max(rate, 1), 240))
        let output = try publish(node)
        return CameraShare(route: .pipeWire(node: name), output: output, format: format, width: width, height: height, frameRate: frameRate)
    }

    private static func reason(_ error: SourceError) -> String {
        switch error {
        case .badInput(_, let reason), .runtime(_, let reason): return reason
        case .interrupted(_, let why): return why.reason
        }
    }

    /// Opens `path` (nil: the first v4l2loopback device no other process writes) and sets it to
    /// `format` at `width`×`height` and `frameRate`.
    public func open(
        path: String?, format: PixelFormat, width: Int, height: Int, frameRate: Double?
    ) throws(SourceError) -> CameraShare {
        let device: any V4L2OutputDevice, chosen: String
        if let path {
            (device, chosen) = (try openFree(path), path)
        } else {
            (device, chosen) = try firstFree()
        }
        do {
            try configure(device, path: chosen, format: format, width: width, height: height, frameRate: frameRate)
        } catch {
            device.close()
            throw error
        }
        return CameraShare(device: chosen, output: device, format: format, width: width, height: height, frameRate: frameRate)
    }

    private var notLoaded: String { "v4l2loopback is not loaded (load it: \(Self.loadCommand))" }

    /// Opens a given device and checks it is a loopback with no writer.
    private func openFree(_ path: String) throws(SourceError) -> any V4L2OutputDevice {
        let device: any V4L2OutputDevice
        do {
            device = try openOutput(path)
        } catch {
            switch error.errno {
            case ENOENT, ENODEV, ENXIO:
                throw .badInput(thing: path, reason: moduleLoaded() ? "no such device" : "no such device; \(notLoaded)")
            case EACCES, EPERM: throw .badInput(thing: path, reason: "permission denied (add yourself to the 'video' group)")
            case EBUSY: throw .runtime(thing: path, reason: "another process already writes to it")
            default: throw .badInput(thing: path, reason: "cannot open: \(Errno(error.errno))")
            }
        }
        let caps: V4L2Capabilities
        do { caps = try device.queryCapabilities() } catch {
            device.close()
            throw .badInput(thing: path, reason: "not a v4l2loopback output device")
        }
        guard caps.isLoopback else {
            device.close()
            throw .badInput(thing: path, reason: "not a v4l2loopback output device (it is '\(caps.card)', driver \(caps.driver))")
        }
        // With exclusive_caps=1 a loopback offers output only while nobody writes to it.
        guard caps.canOutput else {
            device.close()
            throw .runtime(thing: path, reason: "another process already writes to it")
        }
        return device
    }

    /// The first loopback device another process does not write.
    private func firstFree() throws(SourceError) -> (any V4L2OutputDevice, String) {
        var loopbacks = 0
        for path in nodePaths() {
            do {
                return (try openFree(path), path)
            } catch {
                if case .runtime = error { loopbacks += 1 }
            }
        }
        if loopbacks > 0 {
            throw .runtime(thing: "--share", reason: "every v4l2loopback device already has a writer (load more: sudo modprobe -r v4l2loopback && sudo modprobe v4l2loopback devices=2 exclusive_caps=1)")
        }
        throw .badInput(thing: "--share", reason: moduleLoaded() ? "no v4l2loopback device (load one: \(Self.loadCommand))" : "no virtual camera: \(notLoaded)")
    }

    private func configure(
        _ device: any V4L2OutputDevice, path: String, format: PixelFormat, width: Int, height: Int, frameRate: Double?
    ) throws(SourceError) {
        let fourcc: FourCC = format == .yuyv ? .yuyv : .yu12
        let layout = format.packedLayout(width: width, height: height)!
        let wanted = V4L2PixFormat(
            fourcc: fourcc, width: width, height: height, bytesPerLine: layout.strides.0, sizeImage: layout.byteCount)
        let set: V4L2PixFormat
        do { set = try device.setOutputFormat(wanted) } catch {
            if error.errno == EBUSY { throw .runtime(thing: path, reason: "another process already writes to it") }
            throw .runtime(thing: path, reason: "cannot set \(fourcc) \(width)x\(height): \(Errno(error.errno))")
        }
        // v4l2loopback keeps the format of a stream that still has readers (or a writer) open.
        guard set.fourcc == fourcc, set.width == width, set.height == height else {
            throw .runtime(thing: path, reason: "in use at \(set.fourcc) \(set.width)x\(set.height) by another process (close the programs that have it open)")
        }
        if let frameRate, frameRate >= 1 {
            // A file's header or a driver may give any rate: none faster than a camera's.
            device.setOutputFrameInterval(V4L2Fraction(1000, UInt32((min(frameRate, 240) * 1000).rounded())))
        }
    }
}
