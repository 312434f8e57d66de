import PipConvert

/// Draws overlays (icons, text, dimming) straight into a 32-bit window image after the frame was
/// converted into it — a few small rectangles per frame, no allocation.
public struct Compositor {
    public let layout: PixelLayout

    public init(layout: PixelLayout) { self.layout = layout }

    /// Paints `mask` in white at (`x`, `y`) of the image, scaled by `opacity` (0…1), clipped to the image.
    public func draw(
        _ mask: AlphaMask, at x: Int, y: Int, opacity: Double = 1, into pixels: UnsafeMutableRawPointer,
        stride: Int, width: Int, height: Int
    ) {
        let scale = Int(max(0, min(1, opacity)) * 256)
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + mask.width), y1 = min(height, y + mask.height)
        guard x0 < x1, y0 < y1 else { return }
        mask.alpha.withUnsafeBufferPointer { alpha in
            for row in y0..<y1 {
                let line = (pixels + row * stride).assumingMemoryBound(to: UInt32.self)
                let maskRow = (row - y) * mask.width - x
                for col in x0..<x1 {
                    let a = (Int(alpha[maskRow + col]) * scale) >> 8
                    if a == 0 { continue }
                    line[col] = blend(line[col], toward: 255, amount: a)
                }
            }
        }
    }

    /// Darkens a rectangle by `amount` (0…1), behind icons so they read on any picture.
    public func dim(
        x: Int, y: Int, w: Int, h: Int, amount: Double, into pixels: UnsafeMutableRawPointer,
        stride: Int, width: Int, height: Int
    ) {
        let a = Int(max(0, min(1, amount)) * 255)
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1, a > 0 else { return }
        let whole = (x1 - x0) & ~3
        for row in y0..<y1 {
            let line = (pixels + row * stride).assumingMemoryBound(to: UInt32.self)
            // Four pixels a step with vectors (a dimmed bar spans the window, every frame).
            Lanes.scaleBytes(UnsafeMutableRawPointer(line + x0), count: whole * 4, by: 255 - a, fill: layout.fillBits)
            for col in (x0 + whole)..<x1 { line[col] = blend(line[col], toward: 0, amount: a) }
        }
    }

    /// Fills a rectangle with one grey level.
    public func fill(
        x: Int, y: Int, w: Int, h: Int, grey: UInt8, into pixels: UnsafeMutableRawPointer,
        stride: Int, width: Int, height: Int
    ) {
        let value = layout.pixel(red: grey, green: grey, blue: grey)
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for row in y0..<y1 {
            let line = (pixels + row * stride).assumingMemoryBound(to: UInt32.self)
            for col in x0..<x1 { line[col] = value }
        }
    }

    @inline(__always)
    private func blend(_ pixel: UInt32, toward target: Int, amount a: Int) -> UInt32 {
        let (r, g, b) = layout.components(of: pixel)
        func mix(_ c: UInt8) -> UInt8 { UInt8((Int(c) * (255 - a) + target * a + 127) / 255) }
        return layout.pixel(red: mix(r), green: mix(g), blue: mix(b))
    }
}
