/// What `pipcam status` reports about a running instance (docs/BEHAVIOUR.md, "`pipcam status`").
public struct InstanceStatus: Sendable, Equatable {
    /// `idle`, `starting`, `active` or `stopping`.
    public var state: String
    /// The source as given, e.g. `/dev/video0` or `test`.
    public var source: String
    /// `streaming`, `waiting` or `interrupted:<reason>`.
    public var camera: String
    public var shown: Int
    public var dropped: Int
    public var fps: Double
    /// The PiP window's frame in root coordinates (where it is or will be).
    public var pip: Rect
    /// The main window's frame in root coordinates and whether it is mapped.
    public var main: Rect
    public var mainVisible: Bool

    public init(
        state: String, source: String, camera: String, shown: Int, dropped: Int, fps: Double, pip: Rect, main: Rect,
        mainVisible: Bool
    ) {
        self.state = state
        self.source = source
        self.camera = camera
        self.shown = shown
        self.dropped = dropped
        self.fps = fps
        self.pip = pip
        self.main = main
        self.mainVisible = mainVisible
    }

    /// The JSON object, fields in the order docs/BEHAVIOUR.md gives them.
    public var json: JSONText {
        func frame(_ r: Rect) -> [(String, JSONText)] {
            [("x", .integer(r.x)), ("y", .integer(r.y)), ("width", .integer(r.width)), ("height", .integer(r.height))]
        }
        return .object([
            ("state", .string(state)), ("source", .string(source)), ("camera", .string(camera)),
            ("shown", .integer(shown)), ("dropped", .integer(dropped)), ("fps", .number(fps, decimals: 2)),
            ("pip", .object(frame(pip))), ("main", .object(frame(main) + [("visible", .bool(mainVisible))])),
        ])
    }
}
