/// A clockwise rotation of the picture, in quarter turns.
public enum Rotation: Int, Sendable, CaseIterable, CustomStringConvertible {
    case deg0 = 0
    case deg90 = 90
    case deg180 = 180
    case deg270 = 270

    /// The rotation by `degrees` clockwise (any multiple of 90, negative allowed), else nil.
    public init?(degrees: Int) {
        guard degrees % 90 == 0 else { return nil }
        self.init(rawValue: ((degrees % 360) + 360) % 360)
    }

    /// Clockwise angle in degrees.
    public var degrees: Int { rawValue }

    /// Whether the rotated picture's width is the source's height.
    public var swapsAxes: Bool { self == .deg90 || self == .deg270 }

    /// The size of a `width`×`height` picture after this rotation.
    public func rotatedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// This rotation followed by `other`.
    public func followed(by other: Rotation) -> Rotation {
        Rotation(rawValue: (rawValue + other.rawValue) % 360)!
    }

    public var description: String { "\(rawValue)°" }
}
