import PipCore
import PipWindow

/// PiP's shape and opacity on Wayland, where a surface shows what its pixels' alpha says: each
/// row's visible span (the shape's own geometry, `WindowShape.spans`, as X11's SHAPE mask has it)
/// at `opacity`, nothing outside. Worked out once per size; `apply` then sets the alpha of a
/// picture drawn in XRGB8888 words, premultiplying as wl_shm's ARGB8888 wants. Pure.
public struct WaylandStyleMask: Equatable, Sendable {
    public let width: Int, height: Int
    /// The alpha inside the shape, 26…255.
    public let alpha: UInt32
    /// Each row's visible columns, start..<end (empty: none).
    public let rows: [Range<Int>]

    /// Whether `style` needs alpha at all: a rectangle shown opaque does not (XRGB8888 then).
    public static func needsAlpha(_ style: PipWindowStyle) -> Bool { style.shape != .rect || style.opacity < 1 }

    /// The mask of `style` for a picture of `width`×`height` pixels.
    public init(style: PipWindowStyle, width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        alpha = UInt32((min(1, max(0, style.opacity)) * 255).rounded())
        var rows = [Range<Int>](repeating: 0..<self.width, count: self.height)
        if let spans = style.shape.spans(width: self.width, height: self.height) {
            // Rows without a span show nothing; the shape's spans list every row that shows.
            rows = [Range<Int>](repeating: 0..<0, count: self.height)
            for span in spans {
                for y in span.y..<span.y + span.height where y >= 0 && y < self.height { rows[y] = span.x..<span.x + span.width }
            }
        }
        self.rows = rows
    }

    /// Sets the alpha of the `width`×`height` picture at `pixels` (0x00RRGGBB words, `stride` bytes
    /// a row): `alpha` in the shape, the colour premultiplied by it; 0 outside.
    public func apply(to pixels: UnsafeMutableRawPointer, stride: Int, width: Int, height: Int) {
        let a = alpha
        for y in 0..<min(height, self.height) {
            let row = (pixels + y * stride).bindMemory(to: UInt32.self, capacity: width)
            let shown = rows[y].clamped(to: 0..<min(width, self.width))
            for x in 0..<shown.lowerBound { row[x] = 0 }
            if a == 255 {
                for x in shown { row[x] |= 0xFF00_0000 }
            } else {
                for x in shown {
                    let p = row[x]
                    let r = ((p >> 16 & 0xFF) * a + 127) / 255, g = ((p >> 8 & 0xFF) * a + 127) / 255, b = ((p & 0xFF) * a + 127) / 255
                    row[x] = a << 24 | r << 16 | g << 8 | b
                }
            }
            for x in shown.upperBound..<width { row[x] = 0 }
        }
    }
}
