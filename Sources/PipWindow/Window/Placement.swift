import PipCore

/// Where a new PiP window goes: a corner of the work area, with a margin.
public enum Placement {
    /// The margin between the PiP window and the work area's edges.
    public static let margin = 24

    /// The PiP rectangle for a source of `aspect` (width / height) in `corner` of `workArea`.
    /// Without an explicit `size` the width is about a quarter of the work area's.
    public static func initialRect(workArea: Rect, corner: Corner, aspect: Double, size: (Int, Int)? = nil) -> Rect {
        var width: Int, height: Int
        if let size {
            (width, height) = size
        } else {
            width = max(160, workArea.width / 4)
            height = Int((Double(width) / aspect).rounded())
        }
        let maxWidth = max(1, workArea.width - 2 * margin), maxHeight = max(1, workArea.height - 2 * margin)
        if width > maxWidth || height > maxHeight {
            let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
            width = max(1, Int(Double(width) * scale))
            height = max(1, Int(Double(height) * scale))
        }
        let left = workArea.x + margin, right = workArea.maxX - margin - width
        let top = workArea.y + margin, bottom = workArea.maxY - margin - height
        switch corner {
        case .topLeft: return Rect(x: left, y: top, width: width, height: height)
        case .topRight: return Rect(x: right, y: top, width: width, height: height)
        case .bottomLeft: return Rect(x: left, y: bottom, width: width, height: height)
        case .bottomRight: return Rect(x: right, y: bottom, width: width, height: height)
        }
    }

    /// A small whole-number ratio for `WM_NORMAL_HINTS` aspect fields.
    public static func aspectRatio(width: Int, height: Int) -> (Int, Int) {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let g = max(1, gcd(width, height))
        return (width / g, height / g)
    }
}
