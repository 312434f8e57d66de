import Testing
@testable import PipWindow

/// `_NET_WM_ICON`'s contents: the sizes in the property's layout, and the icon drawn as
/// assets/pipcam.svg draws it (transparent rounded corners, the dark tile, the white glyph).
@Suite struct WindowIconTests {
    @Test func layoutIsWidthHeightThenThePixelsForEachSize() {
        let c = WindowIcon.cardinals
        #expect(c.count == WindowIcon.sizes.reduce(0) { $0 + 2 + $1 * $1 })
        #expect(c[0] == 32 && c[1] == 32)
        #expect(c[2 + 32 * 32] == 48 && c[3 + 32 * 32] == 48)
        #expect(c.allSatisfy { $0 >= 0 && $0 <= 0xFFFF_FFFF }, "CARDINALs")
    }

    @Test(arguments: [32, 48])
    func drawnAsTheApplicationIcon(size: Int) throws {
        let glyph = try #require(AlphaMask.asset("pip-start", doubleSize: true))
        let pixels = WindowIcon.pixels(size: size, glyph: glyph)
        func at(_ x: Int, _ y: Int) -> Int { pixels[y * size + x] }
        let tile = 0xFF20_2428
        // The corners are rounded off: transparent.
        for (x, y) in [(0, 0), (size - 1, 0), (0, size - 1), (size - 1, size - 1)] {
            #expect(at(x, y) == 0, "corner \(x),\(y): \(String(at(x, y), radix: 16))")
        }
        // The tile's edges, clear of the glyph: opaque, the SVG's colour.
        #expect(at(size / 2, 1) == tile)
        #expect(at(1, size / 2) == tile)
        // The small picture of the glyph (units 12.5…19.5 × 12.5…17.5 of 24, at 3/4 of the tile
        // from 1/8 in): white.
        let unit = Double(size) * 3 / 4 / 24, origin = Double(size) / 8
        let inside = (x: Int(origin + 16 * unit), y: Int(origin + 15 * unit))
        #expect(at(inside.x, inside.y) == 0xFFFF_FFFF, "\(String(at(inside.x, inside.y), radix: 16))")
        // Between the frame and the small picture: the tile shows through.
        let between = (x: Int(origin + 16 * unit), y: Int(origin + 8 * unit))
        #expect(at(between.x, between.y) == tile, "\(String(at(between.x, between.y), radix: 16))")
    }
}
