import Testing
@testable import PipConvert
import PipCore

/// Exact or near-exact colours for hand-picked inputs, layouts, and plan caching.
@Suite struct ConvertKnownValueTests {
    /// Converts a 1-or-more-pixel frame to a destination of the same size and returns its pixels.
    func convert(_ frame: TestFrame, width: Int, height: Int, layout: PixelLayout = .xrgb) throws -> [UInt32] {
        let dest = TestDestination(width: width, height: height)
        try FrameConverter().convert(frame.frame, into: dest.base, stride: dest.stride, width: width, height: height,
                                     layout: layout, rotation: .deg0, mirror: false)
        return (0..<height).flatMap { y in (0..<width).map { x in dest.pixel(x, y) } }
    }

    func yuv444(_ y: UInt8, _ u: UInt8, _ v: UInt8, _ c: Colorimetry) -> TestFrame {
        TestFrame(.i444, width: 1, height: 1, colorimetry: c) { plane, _, _ in [y, u, v][plane] }
    }

    @Test func bt601LimitedRed() throws {
        let p = try convert(yuv444(81, 90, 240, Colorimetry(matrix: .bt601, range: .limited)), width: 1, height: 1)
        let c = PixelLayout.xrgb.components(of: p[0])
        #expect(c.red >= 253 && c.green <= 1 && c.blue <= 1, "\(c)")
    }

    @Test func bt709LimitedRed() throws {
        let p = try convert(yuv444(63, 102, 240, Colorimetry(matrix: .bt709, range: .limited)), width: 1, height: 1)
        let c = PixelLayout.xrgb.components(of: p[0])
        #expect(c.red >= 253 && c.green <= 2 && c.blue <= 2, "\(c)")
    }

    @Test func fullRangeGreyIsExact() throws {
        for value: UInt8 in [0, 1, 77, 128, 254, 255] {
            let p = try convert(yuv444(value, 128, 128, Colorimetry(matrix: .bt709, range: .full)), width: 1, height: 1)
            #expect(p[0] == 0xFF00_0000 | UInt32(value) * 0x01_0101)
        }
    }

    @Test func limitedRangeBlackAndWhiteAreExact() throws {
        let c = Colorimetry(matrix: .bt601, range: .limited)
        #expect(try convert(yuv444(16, 128, 128, c), width: 1, height: 1) == [0xFF00_0000])
        #expect(try convert(yuv444(235, 128, 128, c), width: 1, height: 1) == [0xFFFF_FFFF])
        #expect(try convert(yuv444(5, 128, 128, c), width: 1, height: 1) == [0xFF00_0000])  // clamped
        let gray = TestFrame(.gray, width: 1, height: 1, colorimetry: c) { _, _, _ in 235 }
        #expect(try convert(gray, width: 1, height: 1) == [0xFFFF_FFFF])
    }

    @Test func twoByTwoAveragesToOne() throws {
        // BGRA pixels: red 10, 20, 30, 41 → 25.25; green 0, 0, 0, 255 → 63.75; blue 200 everywhere.
        let reds: [UInt8] = [10, 20, 30, 41], greens: [UInt8] = [0, 0, 0, 255]
        let frame = TestFrame(.bgra, width: 2, height: 2) { _, row, x in
            let i = row * 2 + x / 4
            return x % 4 == 0 ? 200 : x % 4 == 1 ? greens[i] : x % 4 == 2 ? reds[i] : 0
        }
        let p = try convert(frame, width: 1, height: 1)
        #expect(p == [PixelLayout.xrgb.pixel(red: 25, green: 64, blue: 200)])
    }

    @Test func identityCopiesRGBExactly() throws {
        let frame = TestFrame(random: .rgb24, width: 5, height: 3, padding: 2)
        let p = try convert(frame, width: 5, height: 3)
        for y in 0..<3 {
            for x in 0..<5 {
                let b = frame.planes[0], o = y * frame.strides[0] + 3 * x
                #expect(p[y * 5 + x] == PixelLayout.xrgb.pixel(red: b[o], green: b[o + 1], blue: b[o + 2]))
            }
        }
    }

    @Test func unusedByteIsOpaqueAndChannelsFollowMasks() throws {
        let layout = PixelLayout(redMask: 0xFF, greenMask: 0xFF00, blueMask: 0xFF0000, bitsPerPixel: 32)!
        let frame = TestFrame(.rgb24, width: 1, height: 1) { _, _, x in [1, 2, 3][x] }
        #expect(try convert(frame, width: 1, height: 1, layout: layout) == [0xFF03_0201])
        #expect(layout.black == 0xFF00_0000)
    }

    @Test func pixelLayoutAcceptsOnlyByteAligned32Bit() {
        #expect(PixelLayout(redMask: 0xFF0000, greenMask: 0xFF00, blueMask: 0xFF, bitsPerPixel: 24) == nil)
        #expect(PixelLayout(redMask: 0xF800, greenMask: 0x7E0, blueMask: 0x1F, bitsPerPixel: 16) == nil)
        #expect(PixelLayout(redMask: 0x3FF0_0000, greenMask: 0xFFC00, blueMask: 0x3FF, bitsPerPixel: 32) == nil)
        #expect(PixelLayout(redMask: 0xFF, greenMask: 0xFF, blueMask: 0xFF00, bitsPerPixel: 32) == nil)
        let xrgb = PixelLayout.xrgb
        #expect((xrgb.redShift, xrgb.greenShift, xrgb.blueShift) == (16, 8, 0))
        var word = xrgb.pixel(red: 1, green: 2, blue: 3).littleEndian
        let bytes = withUnsafeBytes(of: &word) { Array($0) }
        #expect(bytes == [3, 2, 1, 0xFF])  // B, G, R, X in memory
    }

    /// The server reads pixel values in its image byte order; a frame converted for a big-endian
    /// server holds X, R, G, B in memory, whatever the order of this machine.
    @Test func pixelsFollowTheServersImageByteOrder() throws {
        func memory(_ msbFirst: Bool) throws -> [UInt8] {
            let visual = VisualMasks(red: 0xFF0000, green: 0xFF00, blue: 0xFF, bitsPerPixel: 32, imageMSBFirst: msbFirst)
            let layout = try #require(PixelLayout(visual))
            let frame = TestFrame(.rgb24, width: 1, height: 1) { _, _, x in [1, 2, 3][x] }
            var word = try convert(frame, width: 1, height: 1, layout: layout)[0]
            return withUnsafeBytes(of: &word) { Array($0) }
        }
        #expect(try memory(true) == [0xFF, 1, 2, 3])
        #expect(try memory(false) == [3, 2, 1, 0xFF])
    }

    @Test func secondConvertWithSameGeometryReusesPlan() throws {
        let converter = FrameConverter()
        let a = TestFrame(random: .yuyv, width: 16, height: 8, seed: 1)
        let b = TestFrame(random: .yuyv, width: 16, height: 8, padding: 4,
                          colorimetry: Colorimetry(matrix: .bt709, range: .full), seed: 2)
        let dest = TestDestination(width: 10, height: 10)
        func run(_ f: TestFrame, rotation: Rotation = .deg0, height: Int = 10) throws {
            try converter.convert(f.frame, into: dest.base, stride: dest.stride, width: 10, height: height,
                                  layout: .xrgb, rotation: rotation, mirror: false)
        }
        try run(a)
        #expect(converter.planBuildCount == 1)
        try run(a)
        try run(b)  // other pixels, strides and colorimetry: same plan
        #expect(converter.planBuildCount == 1)
        try run(a, rotation: .deg90)
        #expect(converter.planBuildCount == 2)
        try run(a, rotation: .deg90, height: 7)
        #expect(converter.planBuildCount == 3)
    }

    @Test func missingPlaneThrows() {
        let frame = TestFrame(random: .i420, width: 4, height: 4)
        var f = frame.frame
        f.plane2 = nil
        let dest = TestDestination(width: 4, height: 4)
        #expect(throws: FrameConversionError.missingPlane(2)) {
            try FrameConverter().convert(f, into: dest.base, stride: dest.stride, width: 4, height: 4,
                                         layout: .xrgb, rotation: .deg0, mirror: false)
        }
    }
}
