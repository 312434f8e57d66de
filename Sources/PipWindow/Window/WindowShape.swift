import PipCore

/// The outline of the PiP window (`--shape`).
public enum WindowShape: String, Sendable, CaseIterable {
    case rect, rounded, circle

    /// The visible area of a `width`×`height` window as horizontal spans, one per row that is not
    /// fully shown (rows covering the full width are merged into one rectangle per run), in
    /// Y-X banded order as the SHAPE extension wants them. nil for `.rect` (no mask needed).
    public func spans(width: Int, height: Int) -> [Rect]? {
        guard self != .rect, width > 0, height > 0 else { return nil }
        var rects: [Rect] = []
        var fullRunStart: Int?
        func flushFullRun(before y: Int) {
            if let start = fullRunStart { rects.append(Rect(x: 0, y: start, width: width, height: y - start)) }
            fullRunStart = nil
        }
        for y in 0..<height {
            let inset = self.inset(row: y, width: width, height: height)
            if inset == 0 {
                if fullRunStart == nil { fullRunStart = y }
                continue
            }
            flushFullRun(before: y)
            if width - 2 * inset > 0 { rects.append(Rect(x: inset, y: y, width: width - 2 * inset, height: 1)) }
        }
        flushFullRun(before: height)
        return rects
    }

    /// How many pixels of row `y` are cut off on each side.
    private func inset(row y: Int, width: Int, height: Int) -> Int {
        switch self {
        case .rect:
            return 0
        case .rounded:
            let r = max(2, min(width, height) / 10)
            let dy = y < r ? r - y : (y >= height - r ? y - (height - r) + 1 : 0)
            guard dy > 0 else { return 0 }
            let d = Double(r) - (Double(r * r) - Double(dy * dy) + Double(dy)).squareRoot()
            return max(0, Int(d.rounded()))
        case .circle:
            // An ellipse filling the window (a circle when the window is square).
            let a = Double(width) / 2, b = Double(height) / 2
            let cy = (Double(y) + 0.5 - b) / b
            let half = a * max(0, 1 - cy * cy).squareRoot()
            return Int((a - half).rounded())
        }
    }
}
