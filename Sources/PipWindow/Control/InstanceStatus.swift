import PipCore

/// What `pipcam status` reports about a running instance (docs/BEHAVIOUR.md, "`pipcam status`").
public struct InstanceStatus: Sendable, Equatable {
    /// `idle`, `starting`, `active` or `stopping`.
    public var state: String
    /// The source as given, e.g. `/dev/video0` or `test`.
    public var source: String
    /// `streaming`, `waiting` or `interrupted:<reason>`.
    public var camera: String
    /// Who holds the camera while it is `interrupted:in-use`, when that can be seen
    /// (`firefox, pid 4242`).
    public var holder: String?
    public var shown: Int
    public var dropped: Int
    /// Frames given back unshown while no window showed video.
    public var unseen: Int
    public var fps: Double
    /// The PiP window's frame in root coordinates (where it is or will be).
    public var pip: Rect
    /// The main window's frame in root coordinates and whether it is mapped.
    public var main: Rect
    public var mainVisible: Bool
    /// The virtual camera fed with `--share`, if any.
    public var share: SharedStreamStatus?
    /// The digital zoom and the middle of the part shown (fractions of the picture).
    public var framing = Framing.full
    /// The camera's controls changed from their defaults (remembered for it), by name, in ID order.
    public var controls: [(name: String, value: String)] = []
    /// A file's playback; nil for live sources.
    public var playback: PlaybackState?
    /// The window system the windows are on: `x11` (also through XWayland) or `wayland`.
    public var windowSystem = "x11"
    /// What PiP's window is to it: `window` (an X11 window), `layer-shell` or `xx-pip`.
    public var pipRole = "window"

    public init(
        state: String, source: String, camera: String, holder: String? = nil, shown: Int, dropped: Int, unseen: Int = 0,
        fps: Double, pip: Rect, main: Rect, mainVisible: Bool, share: SharedStreamStatus? = nil, framing: Framing = .full,
        controls: [(name: String, value: String)] = [], playback: PlaybackState? = nil
    ) {
        self.playback = playback
        self.framing = framing
        self.controls = controls
        self.holder = holder
        self.share = share
        self.state = state
        self.source = source
        self.camera = camera
        self.shown = shown
        self.dropped = dropped
        self.unseen = unseen
        self.fps = fps
        self.pip = pip
        self.main = main
        self.mainVisible = mainVisible
    }

    public static func == (a: InstanceStatus, b: InstanceStatus) -> Bool { a.json == b.json }

    /// The JSON object, fields in the order docs/BEHAVIOUR.md gives them.
    public var json: JSONText {
        func frame(_ r: Rect) -> [(String, JSONText)] {
            [("x", .integer(r.x)), ("y", .integer(r.y)), ("width", .integer(r.width)), ("height", .integer(r.height))]
        }
        return .object([
            ("state", .string(state)), ("source", .string(source)), ("camera", .string(camera)),
        ] + (holder.map { [("holder", .string($0))] } ?? []) + [
            ("shown", .integer(shown)), ("dropped", .integer(dropped)), ("unseen", .integer(unseen)),
            ("fps", .number(fps, decimals: 2)),
            ("pip", .object(frame(pip))), ("main", .object(frame(main) + [("visible", .bool(mainVisible))])),
            ("zoom", .number(framing.zoom, decimals: 2)),
            ("pan", .object([("x", .number(framing.centreX, decimals: 3)), ("y", .number(framing.centreY, decimals: 3))])),
            ("controls", .object(controls.map { ($0.name, .string($0.value)) })),
            ("window_system", .string(windowSystem)), ("pip_role", .string(pipRole)),
        ] + (playback.map { [("playback", $0.json)] } ?? []) + (share.map { [("share", $0.json)] } ?? []))
    }
}

/// The `"share"` object of `pipcam status`: the virtual camera pipcam writes (`--share`).
public struct SharedStreamStatus: Sendable, Equatable {
    /// `v4l2loopback` or `pipewire`.
    public var route: String
    /// The device path, or `pipewire:NAME`.
    public var device: String
    /// The PipeWire node's name (nil for a v4l2loopback device).
    public var node: String?
    /// The PipeWire node's id, while it is published.
    public var nodeID: UInt32?
    /// `yuyv` or `i420`.
    public var format: String
    public var width: Int
    public var height: Int
    /// Frames written, placeholders included.
    public var written: Int
    public var placeholders: Int
    /// Other processes that have the device open (readers), as far as /proc shows them.
    public var readers: Int?
    /// Capture → written, in milliseconds, over the last frames.
    public var latency: (p50: Double, p99: Double)?

    public init(
        route: String = "v4l2loopback", device: String, node: String? = nil, nodeID: UInt32? = nil, format: String, width: Int, height: Int, written: Int,
        placeholders: Int, readers: Int?, latency: (p50: Double, p99: Double)?
    ) {
        self.node = node
        self.route = route
        self.nodeID = nodeID
        self.device = device
        self.format = format
        self.width = width
        self.height = height
        self.written = written
        self.placeholders = placeholders
        self.readers = readers
        self.latency = latency
    }

    public static func == (a: SharedStreamStatus, b: SharedStreamStatus) -> Bool { a.json == b.json }

    var json: JSONText {
        var fields: [(String, JSONText)] = [("route", .string(route)), ("device", .string(device))]
        if let node {
            fields += [("node", .string(node)), ("node_id", nodeID.map { .integer(Int($0)) } ?? .null)]
        }
        fields += [
            ("format", .string(format)), ("width", .integer(width)), ("height", .integer(height)),
            ("written", .integer(written)), ("placeholders", .integer(placeholders)),
            ("readers", readers.map { .integer($0) } ?? .null),
        ]
        if let latency {
            fields += [("latency_p50_ms", .number(latency.p50, decimals: 2)), ("latency_p99_ms", .number(latency.p99, decimals: 2))]
        }
        return .object(fields)
    }
}

/// The `"playback"` object of `pipcam status`: a file's playback.
public struct PlaybackState: Sendable, Equatable {
    public var playing: Bool
    /// Seconds from the start to the frame shown.
    public var position: Double
    /// The file's length in seconds, once known (nil: not yet).
    public var length: Double?
    /// The frame shown, counted from 0.
    public var frame: Int
    /// Whether it can seek (a regular file).
    public var seekable: Bool
    public var loops: Bool

    public init(playing: Bool, position: Double, length: Double?, frame: Int, seekable: Bool, loops: Bool) {
        self.playing = playing
        self.position = position
        self.length = length
        self.frame = frame
        self.seekable = seekable
        self.loops = loops
    }

    var json: JSONText {
        .object([
            ("playing", .bool(playing)), ("position", .number(position, decimals: 3)), ("length", length.map { .number($0, decimals: 3) } ?? .null),
            ("frame", .integer(frame)), ("seekable", .bool(seekable)), ("loop", .bool(loops)),
        ])
    }
}
