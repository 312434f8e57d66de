/// A rectangle in whole pixels: a window's place on the screen, the part of a picture shown
/// (`Framing.crop`), where a picture goes inside a window. Which coordinates — root, window or
/// picture — is said where one is used.
public struct Rect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// A rectangle at (`x`, `y`), `width`×`height` pixels.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole of a `width`×`height` area: at the origin, its size.
    public static func whole(width: Int, height: Int) -> Rect { Rect(x: 0, y: 0, width: width, height: height) }

    /// The right edge: the first column past the rectangle.
    public var maxX: Int { x + width }
    /// The bottom edge: the first row past the rectangle.
    public var maxY: Int { y + height }

    /// Whether the rectangle holds no pixels.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// Whether this is the whole of a `width`×`height` area.
    public func isWhole(width: Int, height: Int) -> Bool { self == .whole(width: width, height: height) }

    /// Whether the pixel at (`px`, `py`) lies inside.
    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && py >= y && px < maxX && py < maxY
    }

    /// X's geometry notation: `640x360+80+80`.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}
