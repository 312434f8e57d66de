import Testing
@testable import PipConvert
import PipCore

/// The unscaled pass (`DirectPass`) gives exactly what the resampling pass gives at that size,
/// and the reference within the usual error.
@Suite struct ConvertDirectPassTests {
    static let formats: [PixelFormat] = [.i420, .i422, .i444, .gray, .yuyv, .nv12]

    /// Widths with and without a tail past whole groups of 8, odd ones, and a window taller or
    /// wider than the picture (bars on two sides).
    @Test(arguments: formats)
    func givesTheResamplingPassPixelsByteForByte(format: PixelFormat) throws {
        let sizes: [(sw: Int, sh: Int, dw: Int, dh: Int)] = [
            (16, 6, 16, 6), (34, 9, 34, 9), (33, 7, 33, 7), (8, 3, 8, 11), (26, 5, 40, 5), (2, 2, 2, 2), (5, 4, 5, 4),
        ]
        try expectSameAsResampling(format, sizes: sizes, handles: DirectPass.handles) { key in
            // Rows read right to left need whole chroma pairs.
            let oddReversed = format != .i444 && format != .gray && key.sourceWidth % 2 == 1
                && (key.rotation == .deg180) != key.mirror
            return !oddReversed
        }
    }

    /// Scaling, turning by 90° and R′G′B′ formats keep to the resampling passes.
    @Test func leavesScaledTurnedAndPackedPicturesAlone() {
        func key(_ format: PixelFormat, _ w: Int, _ h: Int, _ rotation: Rotation = .deg0, content: (Int, Int)? = nil) -> ConversionKey {
            let (cw, ch) = content ?? rotation.rotatedSize(width: w, height: h)
            return ConversionKey(
                format: format, sourceWidth: w, sourceHeight: h,
                content: Rect(x: 0, y: 0, width: cw, height: ch), rotation: rotation, mirror: false)
        }
        #expect(DirectPass.handles(key(.i422, 480, 270)))
        #expect(!DirectPass.handles(key(.i422, 480, 270, content: (479, 270))))
        #expect(!DirectPass.handles(key(.i422, 480, 270, content: (480, 271))))
        #expect(!DirectPass.handles(key(.i422, 480, 270, .deg90)))
        #expect(DirectPass.handles(key(.yuyv, 1280, 720)))
        #expect(DirectPass.handles(key(.nv12, 1280, 720)))
        #expect(!DirectPass.handles(key(.yuyv, 1280, 720, content: (960, 540))))
        #expect(!DirectPass.handles(key(.bgra, 480, 270)))
        #expect(!DirectPass.handles(key(.rgb24, 480, 270)))
    }
}
