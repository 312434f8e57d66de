#if canImport(Glibc)
import Glibc
import PipCore
#endif

/// Where the PiP window was, remembered across runs in `$XDG_STATE_HOME/pipcam/geometry` as its size,
/// its offset from the nearest corner of its monitor's work area (so it stays in that corner on
/// another screen) and that monitor (so it comes back to it while it is there).
public struct GeometryMemory: Equatable, Sendable {
    public var corner: Corner
    /// Distance from the corner's two edges to the window's nearest edges.
    public var offsetX: Int
    public var offsetY: Int
    public var width: Int
    public var height: Int
    /// The monitor it was on; nil in files from before pipcam knew monitors.
    public var monitor: Rect?

    /// Remembers `rect` relative to the corner of its monitor's area it is nearest to.
    public init(rect: Rect, in layout: ScreenLayout) {
        let i = layout.monitorIndex(for: rect)
        self.init(rect: rect, in: layout.areas[i])
        monitor = layout.monitors[i]
    }

    /// Remembers `rect` relative to the corner of `area` it is nearest to.
    public init(rect: Rect, in area: Rect) {
        let left = rect.x - area.x, right = area.maxX - rect.maxX
        let top = rect.y - area.y, bottom = area.maxY - rect.maxY
        corner = left <= right ? (top <= bottom ? .topLeft : .bottomLeft) : (top <= bottom ? .topRight : .bottomRight)
        offsetX = min(left, right)
        offsetY = min(top, bottom)
        width = rect.width
        height = rect.height
    }

    /// The rectangle on the remembered monitor while `layout` has it, else in `otherwise` (the area
    /// a new window goes on).
    public func rect(in layout: ScreenLayout, otherwise: Rect) -> Rect {
        rect(in: monitor.flatMap { layout.monitors.firstIndex(of: $0) }.map { layout.areas[$0] } ?? otherwise)
    }

    /// The rectangle in `area`, shrunk (keeping its shape) and moved as needed to lie on it.
    public func rect(in area: Rect) -> Rect {
        let (w, h) = WindowPlacementMath.sizeFitting(width: width, height: height, into: area)
        let x = corner == .topLeft || corner == .bottomLeft ? area.x + offsetX : area.maxX - offsetX - w
        let y = corner == .topLeft || corner == .topRight ? area.y + offsetY : area.maxY - offsetY - h
        return WindowPlacementMath.clamped(Rect(x: x, y: y, width: w, height: h), into: area)
    }

    /// The same place, sized for a picture `aspect` (width / height) wide: the remembered width for
    /// the remembered shape, else the remembered area (a turned picture keeps its size, not its width).
    public func fitted(toAspect aspect: Double) -> GeometryMemory {
        var fitted = self
        if !WindowPlacementMath.hasShape(width: width, height: height, aspect: aspect) {
            fitted.width = max(16, WindowPlacementMath.sizeKeepingArea(width: width, height: height, aspect: aspect).width)
        }
        fitted.height = max(16, Int((Double(fitted.width) / aspect).rounded()))
        return fitted
    }

    /// One line: `bottom-right 24 24 320 180`, then the monitor's `x y width height` if known.
    public var line: String {
        let place = "\(corner.rawValue) \(offsetX) \(offsetY) \(width) \(height)"
        guard let m = monitor else { return place }
        return place + " \(m.x) \(m.y) \(m.width) \(m.height)"
    }

    /// Parses `line`; nil for anything malformed (a damaged file is ignored, never fatal).
    public init?(line: String) {
        let f = line.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard f.count == 5 || f.count == 9, let corner = Corner(rawValue: String(f[0])) else { return nil }
        let n = f.dropFirst().compactMap { Int($0) }
        // X coordinates reach 32767: a monitor may start past 16384 (a row of 4K screens).
        guard n.count == f.count - 1, n.prefix(4).allSatisfy({ $0.magnitude <= 16384 }),
            n.dropFirst(4).allSatisfy({ $0.magnitude <= 32767 })
        else { return nil }
        let (x, y, w, h) = (n[0], n[1], n[2], n[3])
        guard w >= 16, h >= 16 else { return nil }
        (self.corner, offsetX, offsetY, width, height) = (corner, x, y, w, h)
        if n.count == 8 {
            guard n[6] > 0, n[7] > 0 else { return nil }
            monitor = Rect(x: n[4], y: n[5], width: n[6], height: n[7])
        }
    }

    /// `$XDG_STATE_HOME/pipcam/geometry` (default `~/.local/state/pipcam/geometry`), or `geometry-NAME`
    /// for the instance started with `--name NAME`.
    public static func filePath(name: String? = nil) -> String? {
        filePath(name: name) { getenv($0).map { String(cString: $0) } }
    }

    /// `filePath(name:)` with the environment read through `variable`.
    static func filePath(name: String?, variable: (String) -> String?) -> String? {
        let base: String
        if let state = variable("XDG_STATE_HOME"), state.hasPrefix("/") {
            base = state
        } else if let home = variable("HOME"), !home.isEmpty {
            base = home + "/.local/state"
        } else {
            return nil
        }
        return base + "/pipcam/" + (name.map { "geometry-\($0)" } ?? "geometry")
    }

    /// Reads the remembered geometry, if any.
    public static func load(from path: String) -> GeometryMemory? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return nil }
        return GeometryMemory(line: String(decoding: buffer[0..<n], as: UTF8.self))
    }

    /// Writes it (creating the directories); failures are ignored — losing a window position is no error.
    public func save(to path: String) {
        var directory = ""
        for part in path.split(separator: "/").dropLast() {
            directory += "/" + part
            mkdir(directory, 0o755)
        }
        // Its own temporary file: two instances sharing the memory (pipcams on two displays)
        // saving at once would write over each other's in one of the same name.
        let temporary = path + ".tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let bytes = Array((line + "\n").utf8)
        let written = write(fd, bytes, bytes.count)
        close(fd)
        if written == bytes.count { rename(temporary, path) } else { unlink(temporary) }
    }
}
