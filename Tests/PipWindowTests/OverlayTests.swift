import Foundation
import Testing
@testable import PipWindow
import TestSupport
import PipConvert

@Suite struct OverlayTests {
    static let assetsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("assets")

    @Test func embeddedAssetsMatchTheFilesInAssets() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.assetsDirectory.path)
            .filter { $0.hasSuffix(".pgm") }
        #expect(Set(files) == Set(EmbeddedAssets.files.keys), "run scripts/embed-assets")
        for name in files {
            let onDisk = try [UInt8](Data(contentsOf: Self.assetsDirectory.appendingPathComponent(name)))
            #expect(Base64.decode(EmbeddedAssets.files[name]!) == onDisk, "\(name) differs: run scripts/embed-assets")
        }
    }

    @Test func iconsLoadAtBothScales() throws {
        for name in ["pip-start", "pip-stop", "close", "back-to-main", "mirror"] {
            let one = try #require(AlphaMask.asset(name))
            let two = try #require(AlphaMask.asset(name, doubleSize: true))
            #expect(one.width == 24 && one.height == 24)
            #expect(two.width == 48 && two.height == 48)
            #expect(one.alpha.contains { $0 > 200 }, "\(name) has visible strokes")
            #expect(one.alpha.contains { $0 == 0 }, "\(name) has transparent parts")
        }
        let title = try #require(AlphaMask.asset("placeholder-title"))
        #expect(title.width > 4 * title.height)
    }

    @Test func pgmParserRejectsMalformedInput() {
        #expect(AlphaMask(pgm: Array("P5 2 1 255\n".utf8) + [1, 2]) == AlphaMask(width: 2, height: 1, alpha: [1, 2]))
        #expect(AlphaMask(pgm: Array("P5 # c\n2 1 255\n".utf8) + [7, 9])?.alpha == [7, 9])
        #expect(AlphaMask(pgm: Array("P5 2 1 255\n".utf8) + [1]) == nil)
        #expect(AlphaMask(pgm: Array("P6 2 1 255\n".utf8) + [1, 2]) == nil)
        #expect(AlphaMask(pgm: Array("P5 2 1 65535\n".utf8) + [1, 2, 3, 4]) == nil)
        #expect(AlphaMask(pgm: []) == nil)
        #expect(Base64.decode("aGk=") == Array("hi".utf8))
        #expect(Base64.decode("a*b") == nil)
    }

    @Test func compositorBlendsClipsAndDims() {
        let layout = PixelLayout.xrgb
        let compositor = Compositor(layout: layout)
        var image = [UInt32](repeating: layout.pixel(red: 100, green: 0, blue: 200), count: 4 * 3)
        let mask = AlphaMask(width: 2, height: 2, alpha: [255, 0, 128, 255])
        image.withUnsafeMutableBytes { raw in
            compositor.draw(mask, at: 3, y: 2, into: raw.baseAddress!, stride: 16, width: 4, height: 3)
        }
        // Only the mask's top-left pixel lands inside the 4×3 image (at 3,2); it is opaque white.
        #expect(layout.components(of: image[2 * 4 + 3]) == (255, 255, 255))
        #expect(layout.components(of: image[2 * 4 + 2]) == (100, 0, 200))
        image.withUnsafeMutableBytes { raw in
            compositor.draw(mask, at: 0, y: 0, opacity: 1, into: raw.baseAddress!, stride: 16, width: 4, height: 3)
            compositor.dim(x: 0, y: 1, w: 1, h: 1, amount: 0.5, into: raw.baseAddress!, stride: 16, width: 4, height: 3)
        }
        #expect(layout.components(of: image[1]) == (100, 0, 200))  // alpha 0 leaves the picture alone
        let half = layout.components(of: image[4])  // alpha 128 toward white, then dimmed by half
        #expect(abs(Int(half.red) - 89) <= 1 && abs(Int(half.green) - 64) <= 1 && abs(Int(half.blue) - 114) <= 1)
    }

    /// Dimming a wide rectangle (vectors four pixels at a time, the rest one by one) gives every
    /// channel ⌊(c·(255 − a) + 127) / 255⌋, keeps the padding byte set, and leaves pixels outside alone.
    @Test(arguments: [PixelLayout.xrgb, PixelLayout(redMask: 0xFF00_0000, greenMask: 0xFF_0000, blueMask: 0xFF00, bitsPerPixel: 32)!])
    func dimmingAWideRectangleRoundsEveryChannelAlike(layout: PixelLayout) {
        let (width, height) = (41, 4)
        var rng = SplitMix(seed: 7)
        // Every channel value somewhere, and random ones.
        let original = (0..<(width * height)).map { i in
            layout.pixel(red: UInt8(i % 256), green: rng.byte(), blue: UInt8(255 - i % 256))
        }
        for amount in [0.3, 0.55, 0.6] {
            var image = original
            image.withUnsafeMutableBytes { raw in
                Compositor(layout: layout).dim(
                    x: 2, y: 0, w: 38, h: 4, amount: amount, into: raw.baseAddress!, stride: 4 * width, width: width, height: height)
            }
            let a = Int(amount * 255)
            for y in 0..<height {
                for x in 0..<width {
                    let inside = (2..<40).contains(x)
                    let (r, g, b) = layout.components(of: original[y * width + x])
                    func dimmed(_ c: UInt8) -> UInt8 { inside ? UInt8((Int(c) * (255 - a) + 127) / 255) : c }
                    #expect(
                        image[y * width + x] == layout.pixel(red: dimmed(r), green: dimmed(g), blue: dimmed(b)),
                        "(\(x), \(y)) dimmed by \(amount)")
                }
            }
        }
    }

    /// A notice line wider than the window is left out, not cut to a stray middle of a sentence;
    /// the icon and the lines that fit are drawn.
    @Test func aNoticeLineWiderThanTheWindowIsLeftOut() {
        let layout = PixelLayout.xrgb
        let (width, height) = (100, 60)
        var image = [UInt32](repeating: 0, count: width * height)
        let icon = AlphaMask(width: 10, height: 10, alpha: [UInt8](repeating: 255, count: 100))
        let wide = AlphaMask(width: 120, height: 8, alpha: [UInt8](repeating: 255, count: 960))
        image.withUnsafeMutableBytes { raw in
            NoticePainter(compositor: Compositor(layout: layout)).paint(
                icon: icon, lines: [wide], into: raw.baseAddress!, stride: 4 * width, width: width, height: height)
        }
        let white = image.filter { layout.components(of: $0) == (255, 255, 255) }.count
        #expect(white == 100, "only the icon is white: \(white) pixels")
    }

    /// pipcam's own lines (who holds the camera): the atlas's cells side by side, `?` for what it
    /// lacks, cut with "..." past the longest.
    @Test func aTextLineIsTheGlyphCellsSideBySide() throws {
        let atlas = try #require(AlphaMask.asset("glyphs"))
        let cell = atlas.width / 95
        #expect(cell * 95 == atlas.width && cell == 8 && atlas.height == 16)
        /// The cell at column `column` of `mask`, row after row.
        func cut(_ column: Int, of mask: AlphaMask) -> [UInt8] {
            var out: [UInt8] = []
            for y in 0..<mask.height {
                let start: Int = y * mask.width + column * cell
                out += mask.alpha[start..<(start + cell)]
            }
            return out
        }
        func glyph(_ c: Character) -> [UInt8] { cut(Int(c.asciiValue! - 32), of: atlas) }
        func cells(of mask: AlphaMask) -> [[UInt8]] { (0..<(mask.width / cell)).map { cut($0, of: mask) } }
        let line = try #require(TextLine.mask("pid 42é"))
        #expect(line.width == 7 * cell && line.height == 16)
        #expect(cells(of: line) == ["p", "i", "d", " ", "4", "2", "?"].map(glyph), "é, outside ASCII, is one ?")
        #expect(glyph("p") != glyph("d") && glyph(" ").allSatisfy { $0 == 0 })
        let cut = try #require(TextLine.mask(String(repeating: "x", count: 80), maxCharacters: 10))
        #expect(cells(of: cut) == Array(repeating: glyph("x"), count: 7) + Array(repeating: glyph("."), count: 3))
        #expect(TextLine.mask("") == nil)
        #expect(try #require(TextLine.mask("ab", doubleSize: true)).height == 32)
    }

    /// A camera in use says who holds it on the notice's second line; other notices do not.
    @Test func theInUseNoticeNamesTheHolder() throws {
        let notices = NoticeAssets(doubleSize: false)
        let held = try #require(notices.notice(for: .interrupted(.inUse), holder: "firefox, pid 4242"))
        #expect(held.lines.count == 2 && held.lines[1] == TextLine.mask("Held by firefox, pid 4242"))
        #expect(notices.notice(for: .interrupted(.inUse), holder: nil)?.lines.count == 1)
        #expect(notices.notice(for: .interrupted(.disconnected), holder: "firefox, pid 4242")?.lines.count == 1)
        #expect(notices.notice(for: .streaming, holder: "x") == nil)
    }

    @Test func partialOpacityScalesTheMask() {
        let layout = PixelLayout.xrgb
        var image = [UInt32](repeating: layout.pixel(red: 0, green: 0, blue: 0), count: 1)
        image.withUnsafeMutableBytes { raw in
            Compositor(layout: layout).draw(
                AlphaMask(width: 1, height: 1, alpha: [255]), at: 0, y: 0, opacity: 0.5, into: raw.baseAddress!,
                stride: 4, width: 1, height: 1)
        }
        #expect(abs(Int(layout.components(of: image[0]).red) - 127) <= 1)
    }
}
