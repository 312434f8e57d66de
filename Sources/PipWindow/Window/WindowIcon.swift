/// pipcam's application icon in the form of `_NET_WM_ICON`: for each size its width, its height,
/// then width × height pixels as non-premultiplied ARGB, one CARDINAL each. Taskbars, pagers and
/// window switchers that do not look the window up in a desktop entry show this one. Drawn like
/// `assets/pipcam.svg`: the PiP start glyph (the embedded 48 px mask) in white at three quarters of
/// a dark tile with rounded corners.
enum WindowIcon {
    /// The sizes offered; a window manager picks the nearest and scales it.
    static let sizes = [32, 48]
    /// The tile's colour, as in the SVG.
    static let tile: (red: Int, green: Int, blue: Int) = (0x20, 0x24, 0x28)

    /// Every size, concatenated as the property holds them.
    static let cardinals: [Int] = {
        guard let glyph = AlphaMask.asset("pip-start", doubleSize: true) else { return [] }
        return sizes.flatMap { [$0, $0] + pixels(size: $0, glyph: glyph) }
    }()

    /// One size's pixels, row by row. Coverage is sampled 4 × 4 per pixel, so edges are smooth.
    static func pixels(size: Int, glyph: AlphaMask) -> [Int] {
        let samples = 4
        let radius = Double(size) * 44 / 256
        let glyphOrigin = Double(size) / 8, glyphSide = Double(size) * 3 / 4
        var pixels = [Int](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                var tileCover = 0, glyphCover = 0
                for sy in 0..<samples {
                    for sx in 0..<samples {
                        let px = Double(x) + (Double(sx) + 0.5) / Double(samples)
                        let py = Double(y) + (Double(sy) + 0.5) / Double(samples)
                        guard insideRoundedSquare(px, py, side: Double(size), radius: radius) else { continue }
                        tileCover += 1
                        glyphCover += glyphAlpha(glyph, (px - glyphOrigin) / glyphSide, (py - glyphOrigin) / glyphSide)
                    }
                }
                guard tileCover > 0 else { continue }  // outside the rounded corner: all zero
                let count = samples * samples
                let alpha = tileCover * 255 / count
                // White over the tile by the glyph's coverage of the tile's part of the pixel.
                let white = glyphCover / tileCover
                func mix(_ c: Int) -> Int { c + (255 - c) * white / 255 }
                pixels[y * size + x] = alpha << 24 | mix(tile.red) << 16 | mix(tile.green) << 8 | mix(tile.blue)
            }
        }
        return pixels
    }

    /// The glyph's coverage (0…255) at (u, v) in [0, 1)², nearest sample; 0 outside.
    private static func glyphAlpha(_ mask: AlphaMask, _ u: Double, _ v: Double) -> Int {
        guard u >= 0, v >= 0, u < 1, v < 1 else { return 0 }
        return Int(mask.alpha[Int(v * Double(mask.height)) * mask.width + Int(u * Double(mask.width))])
    }

    private static func insideRoundedSquare(_ x: Double, _ y: Double, side: Double, radius: Double) -> Bool {
        let dx = max(radius - x, x - (side - radius), 0)
        let dy = max(radius - y, y - (side - radius), 0)
        return dx * dx + dy * dy <= radius * radius
    }
}
