import PipCore
import PipConvert

/// What the user did to the framing (digital zoom and pan) in a window showing the picture, in
/// that window's terms; `applied` turns it into the new `Framing`, which is kept in the picture's.
public enum FramingGesture: Sendable, Equatable {
    /// Zoom by `factor` (above 1: in) keeping the picture point under window point (`x`, `y`)
    /// where it is; nil: around the middle of the shown part.
    case zoom(by: Double, atX: Int?, y: Int?)
    /// The picture dragged by `dx`, `dy` window pixels.
    case pan(dx: Int, dy: Int)
    /// The whole picture again.
    case reset

    /// The framing after this gesture, for a picture drawn in `content` (window coordinates),
    /// turned by `rotation` and then mirrored if `mirror`.
    public func applied(to framing: Framing, content: Rect, rotation: Rotation, mirror: Bool) -> Framing {
        guard !content.isEmpty else { return framing }
        let view = FramingView(content: content, rotation: rotation, mirror: mirror)
        switch self {
        case .reset:
            return .full
        case .zoom(let factor, let x, let y):
            guard factor.isFinite, factor > 0 else { return framing }
            var point = (x: framing.centreX, y: framing.centreY)
            if let x, let y { point = view.picturePoint(x: x, y: y, framing: framing) }
            return framing.zoomed(to: framing.zoom * factor, keepingX: point.x, y: point.y)
        case .pan(let dx, let dy):
            // The picture follows the pointer, so the shown part moves the other way.
            let (px, py) = view.pictureDelta(dx: dx, dy: dy, framing: framing)
            return framing.panned(byX: -px, y: -py)
        }
    }
}

/// How window points map to picture points for a picture drawn in `content`, turned by `rotation`
/// (clockwise) and then mirrored if `mirror`. Picture points are fractions of the unturned
/// picture's width and height.
struct FramingView {
    let content: Rect
    let rotation: Rotation
    let mirror: Bool

    /// The picture point shown at window point (`x`, `y`) (clamped to the content).
    func picturePoint(x: Int, y: Int, framing: Framing) -> (x: Double, y: Double) {
        let u = min(max((Double(x - content.x) + 0.5) / Double(content.width), 0), 1)
        let v = min(max((Double(y - content.y) + 0.5) / Double(content.height), 0), 1)
        let (a, b) = unturned(mirror ? 1 - u : u, v)
        return (framing.originX + a * framing.span, framing.originY + b * framing.span)
    }

    /// The picture distance that `dx`, `dy` window pixels cover.
    func pictureDelta(dx: Int, dy: Int, framing: Framing) -> (x: Double, y: Double) {
        var du = Double(dx) / Double(content.width), dv = Double(dy) / Double(content.height)
        if mirror { du = -du }
        let (a, b) = unturned(du, dv, isDelta: true)
        return (a * framing.span, b * framing.span)
    }

    /// Where a point (`u`, `v`) across the turned picture (0…1, before mirroring) lies across the
    /// unturned one; for a delta, the direction only.
    private func unturned(_ u: Double, _ v: Double, isDelta: Bool = false) -> (Double, Double) {
        let one = isDelta ? 0.0 : 1.0
        switch rotation {
        case .deg0: return (u, v)
        // Turned 90° clockwise, the picture's left column is the top row, shown right to left.
        case .deg90: return (v, one - u)
        case .deg180: return (one - u, one - v)
        case .deg270: return (one - v, u)
        }
    }
}
