import PipCore

/// One `--stats` line (docs/BEHAVIOUR.md, "Stats line"):
/// `pipcam: state=active camera=streaming fps=29.97 shown=300 dropped=0 latency_p50_ms=0.61 latency_p99_ms=1.40 cpu_ms_per_frame=0.52`,
/// then `shared=` while a virtual camera is fed, `switches=` once the source was switched, and
/// `first_frame_ms=` at exit when asked for. The one place the line is written and read: pipcam
/// prints it, the tests, the VM tier and `make bench` parse it.
public struct StatsLine: Sendable, Equatable, CustomStringConvertible {
    /// The PiP's phase as the line names it.
    public static let states = ["idle", "starting", "active", "stopping"]

    public var state: String
    public var camera: CameraState
    public var fps: Double
    public var shown: Int
    public var dropped: Int
    public var latencyP50: Double
    public var latencyP99: Double
    public var cpuPerFrame: Double
    /// Frames written to the virtual camera (`--share`).
    public var shared: Int?
    /// Switches to another source; absent until the first.
    public var switches: Int?
    /// Milliseconds from start to the first shown frame (the line at exit).
    public var firstFrame: Double?

    public init(
        state: String, camera: CameraState, fps: Double, shown: Int, dropped: Int, latencyP50: Double,
        latencyP99: Double, cpuPerFrame: Double, shared: Int? = nil, switches: Int? = nil, firstFrame: Double? = nil
    ) {
        self.state = state
        self.camera = camera
        self.fps = fps
        self.shown = shown
        self.dropped = dropped
        self.latencyP50 = latencyP50
        self.latencyP99 = latencyP99
        self.cpuPerFrame = cpuPerFrame
        self.shared = shared
        self.switches = switches
        self.firstFrame = firstFrame
    }

    public var description: String {
        "pipcam: state=\(state) camera=\(camera) fps=\(Self.hundredths(fps)) shown=\(shown) dropped=\(dropped)"
            + " latency_p50_ms=\(Self.hundredths(latencyP50)) latency_p99_ms=\(Self.hundredths(latencyP99))"
            + " cpu_ms_per_frame=\(Self.hundredths(cpuPerFrame))"
            + (shared.map { " shared=\($0)" } ?? "")
            + (switches.map { " switches=\($0)" } ?? "")
            + (firstFrame.map { " first_frame_ms=\(Self.hundredths($0))" } ?? "")
    }

    /// Parses a whole line; nil unless it is one: every field in its order, values of their kind.
    public init?(_ text: some StringProtocol) {
        let line = String(text)
        guard line.hasPrefix("pipcam: ") else { return nil }
        var fields = line.dropFirst("pipcam: ".count).split(separator: " ", omittingEmptySubsequences: false)[...]
        func take(_ key: String) -> Substring? {
            guard let field = fields.first, field.hasPrefix(key + "=") else { return nil }
            fields = fields.dropFirst()
            return field.dropFirst(key.count + 1)
        }
        func number(_ key: String) -> Double? { take(key).flatMap(Self.decimal) }
        func count(_ key: String) -> Int? { take(key).flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } }
        guard let state = take("state"), Self.states.contains(String(state)),
            let camera = take("camera").flatMap(Self.cameraState),
            let fps = number("fps"), let shown = count("shown"), let dropped = count("dropped"),
            let p50 = number("latency_p50_ms"), let p99 = number("latency_p99_ms"), let cpu = number("cpu_ms_per_frame")
        else { return nil }
        self.init(
            state: String(state), camera: camera, fps: fps, shown: shown, dropped: dropped, latencyP50: p50,
            latencyP99: p99, cpuPerFrame: cpu)
        if fields.first?.hasPrefix("shared=") == true { guard let n = count("shared") else { return nil }; shared = n }
        if fields.first?.hasPrefix("switches=") == true { guard let n = count("switches") else { return nil }; switches = n }
        if fields.first?.hasPrefix("first_frame_ms=") == true {
            guard let ms = number("first_frame_ms") else { return nil }
            firstFrame = ms
        }
        guard fields.isEmpty else { return nil }
    }

    /// The last stats line in `text` (other lines — notices, errors — are passed over).
    public static func last(in text: some StringProtocol) -> StatsLine? {
        text.split(whereSeparator: \.isNewline).reversed().lazy.compactMap { StatsLine($0) }.first
    }

    /// `12.34`: two decimals, as the line writes every rate and time.
    static func hundredths(_ v: Double) -> String {
        let hundredths = Int((v * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Digits with at most one point, as `hundredths` writes them.
    private static func decimal(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            text.filter({ $0 == "." }).count <= 1, text.first != ".", text.last != "."
        else { return nil }
        return Double(text)
    }

    private static func cameraState(_ text: Substring) -> CameraState? {
        switch text {
        case "streaming": return .streaming
        case "waiting": return .waiting
        default:
            guard text.hasPrefix("interrupted:") else { return nil }
            return CameraInterruption(rawValue: String(text.dropFirst("interrupted:".count))).map { .interrupted($0) }
        }
    }
}
