/// Where the picture goes inside a destination: the largest centred rectangle with the rotated
/// source's aspect ratio (letterbox or pillarbox); the rest of the destination is bars.
///
/// Rounding: the fitted side is `round(other × aspect)` (halves round up), at least 1; the offsets
/// are `floor((destination − content) / 2)`, so an odd leftover puts the extra bar pixel at the
/// right or bottom. An empty source or destination gives an empty rectangle at the origin.
public struct ContentGeometry: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    /// A rectangle given directly.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The letterboxed rectangle for a `sourceWidth`×`sourceHeight` picture turned by `rotation`,
    /// shown in a `destinationWidth`×`destinationHeight` area.
    public init(
        sourceWidth: Int, sourceHeight: Int, rotation: Rotation,
        destinationWidth: Int, destinationHeight: Int
    ) {
        let (rw, rh) = rotation.rotatedSize(width: sourceWidth, height: sourceHeight)
        let dw = destinationWidth, dh = destinationHeight
        guard rw > 0, rh > 0, dw > 0, dh > 0 else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        var w = dw, h = dh
        if dw * rh <= dh * rw {
            // Destination is relatively narrower: full width, bars above and below.
            h = max(1, min(dh, (2 * dw * rh + rw) / (2 * rw)))
        } else {
            w = max(1, min(dw, (2 * dh * rw + rh) / (2 * rh)))
        }
        self.init(x: (dw - w) / 2, y: (dh - h) / 2, width: w, height: h)
    }

    /// Whether the rectangle holds no pixels.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    public var description: String { "(\(x), \(y)) \(width)×\(height)" }
}
