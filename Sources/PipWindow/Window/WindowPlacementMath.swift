import PipCore

/// Geometry the PiP window's interactions need, as pure functions (tested without X).
public enum WindowPlacementMath {
    /// How near a work-area edge a move must end to snap flush to it. Less than the margin a new
    /// PiP keeps from the edges (`Placement.margin`, 24 px): a PiP dragged away and dropped back
    /// where it started stays there instead of jumping into the corner.
    public static let snapDistance = 16

    /// A rectangle moved flush against every work-area edge it ended within `threshold` pixels of
    /// (so a corner snaps when both of its edges are near). Outside the area, it is pulled back in.
    public static func snapped(_ r: Rect, to area: Rect, threshold: Int = snapDistance) -> Rect {
        var out = r
        if abs(r.x - area.x) <= threshold || r.x < area.x { out.x = area.x }
        if abs(area.maxX - r.maxX) <= threshold || r.maxX > area.maxX { out.x = area.maxX - r.width }
        if abs(r.y - area.y) <= threshold || r.y < area.y { out.y = area.y }
        if abs(area.maxY - r.maxY) <= threshold || r.maxY > area.maxY { out.y = area.maxY - r.height }
        // A window wider or taller than the area keeps its left/top edge visible.
        out.x = max(area.x, out.x)
        out.y = max(area.y, out.y)
        return out
    }

    /// `r` scaled by `factor` around the point (`px`, `py`) (root coordinates), keeping `aspect`
    /// (width / height), no narrower than `minWidth` and fitting inside `area`.
    public static func scaled(
        _ r: Rect, by factor: Double, around px: Int, _ py: Int, aspect: Double, minWidth: Int, area: Rect
    ) -> Rect {
        let maxWidth = max(minWidth, min(area.width, Int(Double(area.height) * aspect)))
        let width = min(max(Int((Double(r.width) * factor).rounded()), minWidth), maxWidth)
        let height = max(1, Int((Double(width) / aspect).rounded()))
        // The point under the pointer stays under it.
        let fx = r.width > 0 ? Double(px - r.x) / Double(r.width) : 0.5
        let fy = r.height > 0 ? Double(py - r.y) / Double(r.height) : 0.5
        let x = px - Int((fx * Double(width)).rounded())
        let y = py - Int((fy * Double(height)).rounded())
        return clamped(Rect(x: x, y: y, width: width, height: height), into: area)
    }

    /// `r` scaled by `factor` around the exact point `centre` (as `scaled`), placed so that point
    /// stays its centre; with the centre it keeps (nil when the area pushed the window aside).
    /// Zooms in and out again around a remembered centre come back to the same rectangle, where an
    /// integer centre drifts a pixel per zoom.
    public static func scaled(
        _ r: Rect, by factor: Double, aroundCentre centre: (x: Double, y: Double), aspect: Double, minWidth: Int, area: Rect
    ) -> (rect: Rect, centre: (x: Double, y: Double)?) {
        let size = scaled(r, by: factor, around: r.x, r.y, aspect: aspect, minWidth: minWidth, area: area)
        let placed = Rect(
            x: Int((centre.x - Double(size.width) / 2).rounded()), y: Int((centre.y - Double(size.height) / 2).rounded()),
            width: size.width, height: size.height)
        let inside = clamped(placed, into: area)
        return (inside, inside == placed ? centre : nil)
    }

    /// `width`×`height` shrunk as a whole (its shape kept) to fit `area`; unchanged when it fits.
    public static func sizeFitting(width: Int, height: Int, into area: Rect) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (max(1, width), max(1, height)) }
        let scale = min(1, Double(area.width) / Double(width), Double(area.height) / Double(height))
        return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }

    /// `r` in the shape `aspect` (width / height) with about the same area, the corner of it nearest
    /// a corner of `area` staying where it is, fitted onto `area`.
    public static func reshaped(_ r: Rect, toAspect aspect: Double, in area: Rect) -> Rect {
        let (width, height) = sizeKeepingArea(width: r.width, height: r.height, aspect: aspect)
        let x = r.x - area.x <= area.maxX - r.maxX ? r.x : r.maxX - width
        let y = r.y - area.y <= area.maxY - r.maxY ? r.y : r.maxY - height
        return fitted(Rect(x: x, y: y, width: width, height: height), into: area)
    }

    /// The size of the shape `aspect` (width / height) with about the area of `width`×`height`.
    public static func sizeKeepingArea(width: Int, height: Int, aspect: Double) -> (width: Int, height: Int) {
        let w = max(1, Int((Double(width * height) * aspect).squareRoot().rounded()))
        return (w, max(1, Int((Double(w) / aspect).rounded())))
    }

    /// Whether `width`×`height` has the shape `aspect` (width / height), within 2 %.
    public static func hasShape(width: Int, height: Int, aspect: Double) -> Bool {
        height > 0 && abs(Double(width) / Double(height) / aspect - 1) < 0.02
    }

    /// `r` shrunk as a whole if it is larger than `area`, then moved onto it.
    public static func fitted(_ r: Rect, into area: Rect) -> Rect {
        let size = sizeFitting(width: r.width, height: r.height, into: area)
        return clamped(Rect(x: r.x, y: r.y, width: size.width, height: size.height), into: area)
    }

    /// `r` moved (not resized) so it lies inside `area` as far as its size allows.
    public static func clamped(_ r: Rect, into area: Rect) -> Rect {
        var out = r
        out.x = min(max(out.x, area.x), max(area.x, area.maxX - out.width))
        out.y = min(max(out.y, area.y), max(area.y, area.maxY - out.height))
        return out
    }
}
