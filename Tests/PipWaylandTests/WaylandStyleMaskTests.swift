import PipWayland
import PipWindow
import Testing

/// PiP's shape and opacity as the alpha of a picture's pixels: the shape's own spans, premultiplied.
struct WaylandStyleMaskTests {
    @Test func onlyAnOpaqueRectangleNeedsNoAlpha() {
        #expect(!WaylandStyleMask.needsAlpha(PipWindowStyle()))
        #expect(!WaylandStyleMask.needsAlpha(PipWindowStyle(clickThrough: true)))
        #expect(WaylandStyleMask.needsAlpha(PipWindowStyle(opacity: 0.5)))
        #expect(WaylandStyleMask.needsAlpha(PipWindowStyle(shape: .rounded)))
        #expect(WaylandStyleMask.needsAlpha(PipWindowStyle(shape: .circle)))
    }

    @Test func aCircleShowsItsSpansOpaqueAndNothingElse() {
        let (width, height) = (20, 10)
        let mask = WaylandStyleMask(style: PipWindowStyle(shape: .circle), width: width, height: height)
        var pixels = [UInt32](repeating: 0x00FF_8040, count: width * height)
        pixels.withUnsafeMutableBytes { mask.apply(to: $0.baseAddress!, stride: width * 4, width: width, height: height) }
        let spans = WindowShape.circle.spans(width: width, height: height)!
        for y in 0..<height {
            let span = spans.first { $0.y <= y && y < $0.y + $0.height }
            for x in 0..<width {
                let inside = span.map { $0.x <= x && x < $0.x + $0.width } ?? false
                #expect(pixels[y * width + x] == (inside ? 0xFFFF_8040 : 0), "(\(x), \(y))")
            }
        }
        #expect(pixels[0] == 0 && pixels[5 * width + 10] == 0xFFFF_8040, "a corner clear, the middle shown")
    }

    @Test func opacityPremultipliesTheColour() {
        let mask = WaylandStyleMask(style: PipWindowStyle(opacity: 0.5), width: 2, height: 1)
        #expect(mask.alpha == 128)
        var pixels: [UInt32] = [0x00FF_8040, 0x0000_0000]
        pixels.withUnsafeMutableBytes { mask.apply(to: $0.baseAddress!, stride: 8, width: 2, height: 1) }
        // 255·128/255 = 128, 128·128/255 = 64.25, 64·128/255 = 32.1: rounded.
        #expect(pixels == [0x8080_4020, 0x8000_0000])
    }
}
