import PipCore

/// The monitors the screen is made of and the part of each the window manager leaves free: where
/// PiP is placed, snapped, zoomed and fitted. `_NET_WORKAREA` alone is one rectangle over all
/// monitors, so on two monitors of different sizes it covers dead space no monitor shows, and a
/// panel on one monitor is taken off all of them.
public struct ScreenLayout: Equatable, Sendable {
    /// The monitors, the primary first, each once (mirrored outputs report the same rectangle).
    public let monitors: [Rect]
    /// Each monitor's usable rectangle: its part of the work area, in the order of `monitors`.
    public let areas: [Rect]

    /// - Parameters:
    ///   - monitors: the monitors' rectangles in root coordinates (Xinerama's order, the primary
    ///     first); none means the whole `workArea` is one monitor.
    ///   - workArea: `_NET_WORKAREA` (or the whole screen).
    ///   - monitorWorkAreas: per-monitor work areas (`_GTK_WORKAREAS_D<n>`), if the window manager
    ///     sets them: a monitor takes the largest that lies within it, else its part of `workArea`.
    public init(monitors: [Rect], workArea: Rect, monitorWorkAreas: [Rect] = []) {
        var unique: [Rect] = []
        for m in monitors where m.width > 0 && m.height > 0 && !unique.contains(m) { unique.append(m) }
        if unique.isEmpty { unique = [workArea] }
        self.monitors = unique
        // A work area that leaves a monitor nothing (a strut reported across all of them, or a
        // work area from before the monitor came) must not make PiP unplaceable there.
        // The largest that lies within the monitor: of overlapping monitors (one mirroring part of
        // another), the larger one also holds the smaller one's area.
        areas = unique.map { m in
            monitorWorkAreas.filter { m.intersection($0) == $0 }.max { $0.width * $0.height < $1.width * $1.height }
                ?? m.intersection(workArea) ?? m
        }
    }

    /// The usable area of the first (primary) monitor.
    public var primaryArea: Rect { areas[0] }

    /// The usable area of the monitor the point (`x`, `y`) is on, else of the one nearest it.
    public func area(containing x: Int, _ y: Int) -> Rect {
        areas[nearestMonitor(to: x, y)]
    }

    /// The usable area of the monitor that shows most of `r`; for `r` on no monitor (its monitor
    /// was unplugged), of the one nearest its centre.
    public func area(for r: Rect) -> Rect { areas[monitorIndex(for: r)] }

    /// The index in `monitors` of the monitor `area(for:)` chooses.
    func monitorIndex(for r: Rect) -> Int {
        var best = -1, bestOverlap = 0
        for (i, m) in monitors.enumerated() {
            let overlap = m.intersection(r).map { $0.width * $0.height } ?? 0
            if overlap > bestOverlap { (best, bestOverlap) = (i, overlap) }
        }
        return best >= 0 ? best : nearestMonitor(to: r.x + r.width / 2, r.y + r.height / 2)
    }

    /// Whether the centre of `r` is on a monitor: PiP left in dead space, or on a monitor that is
    /// gone, is not.
    public func shows(_ r: Rect) -> Bool {
        let cx = r.x + r.width / 2, cy = r.y + r.height / 2
        return monitors.contains { $0.contains(x: cx, y: cy) }
    }

    private func nearestMonitor(to x: Int, _ y: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for (i, m) in monitors.enumerated() {
            let dx = max(m.x - x, 0, x - (m.maxX - 1)), dy = max(m.y - y, 0, y - (m.maxY - 1))
            let distance = dx * dx + dy * dy
            if distance < bestDistance { (best, bestDistance) = (i, distance) }
        }
        return best
    }
}

extension Rect {
    /// The part of both rectangles, nil when they do not overlap.
    public func intersection(_ other: Rect) -> Rect? {
        let left = Swift.max(x, other.x), top = Swift.max(y, other.y)
        let right = Swift.min(maxX, other.maxX), bottom = Swift.min(maxY, other.maxY)
        return right > left && bottom > top ? Rect(x: left, y: top, width: right - left, height: bottom - top) : nil
    }
}
