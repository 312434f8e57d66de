import PipCore

/// Where in its window a presenter draws: the whole window, or, for a window larger than the
/// screen in either direction, only the part of it on the screen. No image, scale table or JPEG
/// decode is then ever larger than what can be seen, whatever size a window is given or claims
/// (docs/BEHAVIOUR.md, "Window sizes").
enum DrawnArea {
    /// Images are remade smaller once the area drawn is less than a quarter of theirs: a window
    /// that was huge for a moment does not keep that memory, and an animation that shrinks from
    /// a large window to PiP's size remakes them once or twice, not at every step.
    static let shrinkFactor = 4

    /// Whether a `width`×`height` window fits on a `screen`-sized root in both directions.
    static func fits(width: Int, height: Int, screen: (width: Int, height: Int)) -> Bool {
        width <= screen.width && height <= screen.height
    }

    /// The part of a `width`×`height` window whose top-left corner is at `origin` (root
    /// coordinates) that lies on a `screen`-sized root, in window coordinates. A window that
    /// fits the screen is drawn whole wherever it is (it can be dragged partly off and back).
    /// A larger one wholly off the screen, or whose place is unknown, is drawn in its top-left
    /// screen-sized part.
    static func rect(windowAt origin: (x: Int, y: Int)?, width: Int, height: Int, screen: (width: Int, height: Int)) -> Rect {
        let sw = max(1, screen.width), sh = max(1, screen.height)
        if fits(width: width, height: height, screen: (sw, sh)) { return Rect(x: 0, y: 0, width: width, height: height) }
        let fallback = Rect(x: 0, y: 0, width: min(width, sw), height: min(height, sh))
        guard let origin else { return fallback }
        // A side that fits is drawn whole; a side larger than the screen only where it is on it.
        let (x0, x1) = width <= sw ? (0, width) : (max(0, -origin.x), min(width, sw - origin.x))
        let (y0, y1) = height <= sh ? (0, height) : (max(0, -origin.y), min(height, sh - origin.y))
        guard x1 > x0, y1 > y0 else { return fallback }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether images of `capacity` should be remade for an area of `needed` pixels: too small,
    /// or more than `shrinkFactor` times too large.
    static func needsNewImages(capacity: (width: Int, height: Int), needed: (width: Int, height: Int)) -> Bool {
        if capacity.width < needed.width || capacity.height < needed.height { return true }
        return capacity.width * capacity.height > shrinkFactor * needed.width * needed.height
    }
}
