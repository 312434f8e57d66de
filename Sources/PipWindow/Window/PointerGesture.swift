import PipCore

/// The part of a borderless window a press lands on: the body moves it, an edge band resizes it.
/// Raw values are `_NET_WM_MOVERESIZE` directions.
public enum DragKind: Int, Sendable, CaseIterable {
    case resizeTopLeft = 0, resizeTop, resizeTopRight, resizeRight
    case resizeBottomRight, resizeBottom, resizeBottomLeft, resizeLeft
    case move = 8

    /// Which part of a `width`×`height` window the point (`x`, `y`) in window coordinates is on.
    /// Corners get a larger band (twice `band`) so they are easy to hit on small windows.
    public static func hitTest(x: Int, y: Int, width: Int, height: Int, band: Int = 8) -> DragKind {
        let corner = min(2 * band, min(width, height) / 3)
        let left = x < band, right = x >= width - band, top = y < band, bottom = y >= height - band
        let nearLeft = x < corner, nearRight = x >= width - corner
        let nearTop = y < corner, nearBottom = y >= height - corner
        if (top && nearLeft) || (left && nearTop) { return .resizeTopLeft }
        if (top && nearRight) || (right && nearTop) { return .resizeTopRight }
        if (bottom && nearLeft) || (left && nearBottom) { return .resizeBottomLeft }
        if (bottom && nearRight) || (right && nearBottom) { return .resizeBottomRight }
        if top { return .resizeTop }
        if bottom { return .resizeBottom }
        if left { return .resizeLeft }
        if right { return .resizeRight }
        return .move
    }

    private var horizontalSign: Int {
        switch self {
        case .resizeTopLeft, .resizeBottomLeft, .resizeLeft: return -1
        case .resizeTopRight, .resizeBottomRight, .resizeRight: return 1
        default: return 0
        }
    }

    private var verticalSign: Int {
        switch self {
        case .resizeTopLeft, .resizeTopRight, .resizeTop: return -1
        case .resizeBottomLeft, .resizeBottomRight, .resizeBottom: return 1
        default: return 0
        }
    }

    /// The window rectangle after dragging this part of `start` by (`dx`, `dy`), keeping the aspect
    /// ratio `aspect` (width / height) and at least `minWidth` wide. The edge or corner opposite
    /// the dragged one stays put; a side drag keeps the perpendicular centre.
    public func apply(to start: Rect, dx: Int, dy: Int, aspect: Double, minWidth: Int, maxWidth: Int = 1 << 15) -> Rect {
        if self == .move { return Rect(x: start.x + dx, y: start.y + dy, width: start.width, height: start.height) }
        let hs = horizontalSign, vs = verticalSign
        let proposedWidth = Double(start.width + hs * dx)
        let proposedHeight = Double(start.height + vs * dy)
        var width: Double
        if hs != 0 && vs != 0 {
            // Corner: follow whichever axis the pointer moved further along (in width terms), so
            // a drag along one axis shrinks the window as well as grows it.
            let byWidth = Double(hs * dx), byHeight = Double(vs * dy) * aspect
            width = abs(byWidth) >= abs(byHeight) ? proposedWidth : proposedHeight * aspect
        } else if hs != 0 {
            width = proposedWidth
        } else {
            width = proposedHeight * aspect
        }
        let w = min(max(Int(width.rounded()), minWidth), maxWidth)
        let h = max(1, Int((Double(w) / aspect).rounded()))
        let x: Int
        switch hs {
        case -1: x = start.maxX - w
        case 1: x = start.x
        default: x = start.x + (start.width - w) / 2
        }
        let y: Int
        switch vs {
        case -1: y = start.maxY - h
        case 1: y = start.y
        default: y = start.y + (start.height - h) / 2
        }
        return Rect(x: x, y: y, width: w, height: h)
    }
}
