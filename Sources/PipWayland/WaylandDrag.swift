import PipCore
import PipWindow

/// One press-drag-release on PiP's Wayland surface, which pipcam moves and resizes itself (a
/// layer surface cannot be handed to the compositor to drag). Nothing moves until the pointer has
/// travelled more than `threshold` pixels, so a click stays a click. Pure: positions in output
/// coordinates in, rectangles out.
struct WaylandDrag {
    /// What the press started: a move, or a resize from the edge or corner it was on.
    let kind: DragKind
    private let pressX: Int, pressY: Int
    private let start: Rect
    /// Whether the pointer has gone past the threshold.
    private(set) var isDragging = false
    static let threshold = 3

    /// A press at (`x`, `y`) in the surface, (`rootX`, `rootY`) on the output, on a surface at `rect`.
    init(x: Int, y: Int, rootX: Int, rootY: Int, rect: Rect) {
        kind = DragKind.hitTest(x: x, y: y, width: rect.width, height: rect.height)
        (pressX, pressY) = (rootX, rootY)
        start = rect
    }

    /// Where the surface goes with the pointer at (`rootX`, `rootY`): nil while within the
    /// threshold. Keeps the picture's shape `aspect` (width / height) and at least `minWidth`.
    mutating func rect(pointerAt rootX: Int, _ rootY: Int, aspect: Double, minWidth: Int) -> Rect? {
        let dx = rootX - pressX, dy = rootY - pressY
        if !isDragging {
            guard abs(dx) > Self.threshold || abs(dy) > Self.threshold else { return nil }
            isDragging = true
        }
        return kind.apply(to: start, dx: dx, dy: dy, aspect: aspect, minWidth: minWidth)
    }
}
