/// A rectangle in pixels (root or window coordinates, as the API says).
public struct Rect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    public func contains(x px: Int, y py: Int) -> Bool {
        px >= x && py >= y && px < maxX && py < maxY
    }
}

/// The corners a PiP window can be placed in.
public enum Corner: String, Sendable, CaseIterable {
    case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
}
