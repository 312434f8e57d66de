/// The part of the camera's picture that is shown: a digital zoom and pan. A pure value.
///
/// It is kept in the picture's own terms — the zoom, and the centre of the shown part as fractions
/// of the picture's width and height, before any turn or mirror — so the same part of the scene
/// stays shown when the picture is turned or mirrored, at any window size, and in the shared
/// stream. The shown part always lies inside the picture: the centre is clamped to keep it there.
public struct Framing: Sendable, Equatable, CustomStringConvertible {
    /// No zoom: the whole picture.
    public static let full = Framing(zoom: 1, centreX: 0.5, centreY: 0.5)
    /// How far in one can zoom.
    public static let maximumZoom = 8.0

    /// How many times the shown part is smaller than the picture, per side (1 … `maximumZoom`).
    public private(set) var zoom: Double
    /// The shown part's centre, in fractions of the picture's width and height (0 … 1).
    public private(set) var centreX: Double
    public private(set) var centreY: Double

    /// A framing, brought into range: the zoom to 1 … `maximumZoom` (not a number: 1), the centre so
    /// the shown part lies inside the picture (not a number: the middle).
    public init(zoom: Double, centreX: Double, centreY: Double) {
        let z = zoom.isFinite ? min(max(zoom, 1), Self.maximumZoom) : (zoom == .infinity ? Self.maximumZoom : 1)
        self.zoom = z
        let half = 0.5 / z
        self.centreX = centreX.isNaN ? 0.5 : min(max(centreX, half), 1 - half)
        self.centreY = centreY.isNaN ? 0.5 : min(max(centreY, half), 1 - half)
    }

    /// Whether the whole picture is shown.
    public var isFull: Bool { zoom == 1 }

    /// The shown part's width and height, as a fraction of the picture's.
    public var span: Double { 1 / zoom }

    /// The shown part's left and top edges, as fractions of the picture.
    public var originX: Double { centreX - 0.5 / zoom }
    public var originY: Double { centreY - 0.5 / zoom }

    /// Zoomed to `newZoom`, with the picture point (`x`, `y`) (fractions of the picture) staying
    /// where it is shown — zooming around the pointer — as far as the edges allow.
    public func zoomed(to newZoom: Double, keepingX x: Double, y: Double) -> Framing {
        let target = Framing(zoom: newZoom, centreX: 0.5, centreY: 0.5).zoom
        // Where the point sits in the shown part (0 … 1 across it) stays the same.
        let fx = (x - originX) * zoom, fy = (y - originY) * zoom
        return Framing(zoom: target, centreX: x - fx / target + 0.5 / target, centreY: y - fy / target + 0.5 / target)
    }

    /// Moved by `dx`, `dy` (fractions of the picture), as far as the edges allow.
    public func panned(byX dx: Double, y dy: Double) -> Framing {
        Framing(zoom: zoom, centreX: centreX + dx, centreY: centreY + dy)
    }

    /// The shown part of a `width`×`height` picture in whole pixels: the left and top edges even and
    /// the size even (whole chroma pairs of every subsampled format), at least 2×2 and never past
    /// the picture's edges. The whole picture, whatever its size, when not zoomed.
    public func crop(width: Int, height: Int) -> Rect {
        guard !isFull, width >= 4, height >= 4 else { return .whole(width: width, height: height) }
        func axis(_ origin: Double, _ length: Int) -> (Int, Int) {
            let size = min(length & ~1, max(2, Int((Double(length) / zoom / 2).rounded()) * 2))
            let start = min((length - size) & ~1, max(0, Int((origin * Double(length) / 2).rounded()) * 2))
            return (start, size)
        }
        let (x, w) = axis(originX, width), (y, h) = axis(originY, height)
        return Rect(x: x, y: y, width: w, height: h)
    }

    /// `2.00x at 0.400,0.550`.
    public var description: String {
        "\(Self.fixed(zoom, 2))x at \(Self.fixed(centreX, 3)),\(Self.fixed(centreY, 3))"
    }

    /// `value` (not negative, finite) with exactly `digits` digits after the point.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let n = Int((value * Double(scale)).rounded())
        let fraction = String(n % scale)
        return "\(n / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
