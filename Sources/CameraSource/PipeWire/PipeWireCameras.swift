import PipCore

/// Which PipeWire nodes are cameras, and which one `--source pipewire[:NAME]` means: pure.
public enum PipeWireCameras {
    /// The camera nodes, each device once: a camera both the V4L2 and the libcamera monitor
    /// publish is taken through V4L2 (it offers the formats pipcam reads). The daemon's own
    /// cameras come first, then the nodes programs publish (a virtual camera, another pipcam's
    /// share), each in the registry's order.
    public static func cameras(among nodes: [PipeWireNode]) -> [PipeWireNode] {
        let cameras = nodes.filter(\.isCamera)
        let once = cameras.filter { node in
            guard node.deviceAPI == "libcamera", !node.devicePath.isEmpty else { return true }
            return !cameras.contains { $0.deviceAPI == "v4l2" && $0.devicePath == node.devicePath }
        }
        return once.filter { !$0.deviceAPI.isEmpty } + once.filter { $0.deviceAPI.isEmpty }
    }

    /// `cameras` without those whose device is among `excluding` (the virtual camera pipcam feeds:
    /// reading it back would show pipcam's own picture), compared as `resolve` gives the paths,
    /// and without the nodes pipcams publish for calls (`--share pipewire`), for the same reason.
    public static func usable(
        _ cameras: [PipeWireNode], excluding: Set<String>, resolve: (String) -> String = CameraCycle.resolved
    ) -> [PipeWireNode] {
        cameras.filter { !$0.isPipcamShare && ($0.devicePath.isEmpty || !excluding.contains(resolve($0.devicePath))) }
    }

    /// The camera `wanted` names (nil: the first camera): its `node.name`, its serial, its
    /// description, its nick or its device path, in that order; descriptions and nicks also
    /// without regard to case. Bad input names the cameras there are.
    public static func choose(_ wanted: String?, among nodes: [PipeWireNode]) throws(SourceError) -> PipeWireNode {
        let cameras = cameras(among: nodes)
        let thing = wanted.map { "pipewire:\($0)" } ?? "pipewire"
        guard let wanted else {
            guard let first = cameras.first(where: { !$0.isPipcamShare }) else { throw SourceError.badInput(thing: thing, reason: "no camera node in PipeWire") }
            return first
        }
        let tests: [(PipeWireNode) -> Bool] = [
            { $0.name == wanted },
            { String($0.serial) == wanted },
            { $0.description == wanted },
            { $0.nick == wanted },
            { !$0.devicePath.isEmpty && $0.devicePath == wanted },
            { $0.description.lowercased() == wanted.lowercased() || $0.nick.lowercased() == wanted.lowercased() },
        ]
        for test in tests {
            if let node = cameras.first(where: test) { return node }
        }
        if let other = nodes.first(where: { $0.name == wanted || String($0.serial) == wanted }) {
            throw SourceError.badInput(thing: thing, reason: "is not a camera (media.class \(other.mediaClass))")
        }
        throw SourceError.badInput(thing: thing, reason: "no such PipeWire node; \(list(cameras))")
    }

    /// "cameras: NAME (DESCRIPTION), …" or "no camera node".
    static func list(_ cameras: [PipeWireNode]) -> String {
        guard !cameras.isEmpty else { return "there is no camera node" }
        return "camera nodes: " + cameras.map { $0.description.isEmpty ? $0.name : "\($0.name) (\($0.description))" }.joined(separator: ", ")
    }

    /// The mode a stream asks for first, for frames shown at `request`'s size: the smallest common
    /// camera mode covering it (16:9 unless the picture is known to be squarer), at 30 fps. A camera
    /// without that mode gives its own default, which pipcam scales.
    public static func streamRequest(target: String, for request: SourceRequest) -> PipeWireStreamRequest {
        let wide: [(Int, Int)] = [(640, 360), (1280, 720), (1920, 1080), (3840, 2160)]
        let square: [(Int, Int)] = [(640, 480), (1280, 960), (1600, 1200), (2592, 1944)]
        let ladder = (request.aspect ?? 16.0 / 9.0) < 1.5 ? square : wide
        let mode = ladder.first { $0.0 >= request.displayWidth && $0.1 >= request.displayHeight } ?? ladder[ladder.count - 1]
        // Past 640 pixels wide, USB cameras send raw frames at a few per second only: JPEG first.
        let raw: [PixelFormat] = [.yuyv, .nv12, .i420, .bgra, .rgb24]
        return PipeWireStreamRequest(
            target: target, formats: mode.0 > 640 ? [.mjpeg] + raw : raw + [.mjpeg], width: mode.0, height: mode.1, frameRate: 30)
    }
}

extension PipeWireCameras {
    /// The `--list-cameras` lines of PipeWire camera nodes: `pipewire:NAME: DESCRIPTION (through
    /// PipeWire[, DEVICE])`, the form `--source` takes first.
    public static func listing(_ cameras: [PipeWireNode]) -> String {
        cameras.map { node in
            let device = node.devicePath.isEmpty ? "" : ", \(node.devicePath)"
            let share = node.isPipcamShare ? "; the picture a pipcam shares" : ""
            return "pipewire:\(node.name): \(node.description.isEmpty ? "(unnamed)" : node.description) (through PipeWire\(device)\(share))\n"
        }.joined()
    }
}

extension PipeWireCameras {
    /// The cameras `pipcam switch next` cycles through: the camera nodes (those
    /// whose device is among `excluding` left out), then the V4L2 `devices` no node stands for —
    /// a camera the daemon has is read through it, never opened beside it.
    public static func cycle(
        nodes: [PipeWireNode], devices: [String], excluding: Set<String> = [], resolve: (String) -> String = CameraCycle.resolved
    ) -> [SourceSpec] {
        let cameras = usable(cameras(among: nodes), excluding: excluding, resolve: resolve)
        let covered = Set(cameras.map(\.devicePath).filter { !$0.isEmpty }.map(resolve))
        return cameras.map { .pipewire(node: $0.name) } + devices.filter { !covered.contains(resolve($0)) }.map { .camera(path: $0) }
    }
}
