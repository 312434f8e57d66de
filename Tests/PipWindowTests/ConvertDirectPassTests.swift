import Testing
@testable import PipWindow
import PipCore

/// The unscaled pass (`DirectPass`) gives exactly what the resampling pass gives at that size,
/// and the reference within the usual error.
@Suite struct ConvertDirectPassTests {
    static let formats: [PixelFormat] = [.i420, .i422, .i444, .gray]

    /// Widths with and without a tail past whole groups of 8, odd ones, and a window taller or
    /// wider than the picture (bars on two sides).
    @Test(arguments: formats)
    func givesTheResamplingPassPixelsByteForByte(format: PixelFormat) throws {
        let sizes: [(sw: Int, sh: Int, dw: Int, dh: Int)] = [
            (16, 6, 16, 6), (34, 9, 34, 9), (33, 7, 33, 7), (8, 3, 8, 11), (26, 5, 40, 5), (2, 2, 2, 2), (5, 4, 5, 4),
        ]
        var index = 0
        for s in sizes {
            for rotation in [Rotation.deg0, .deg180] {
                for mirror in [false, true] {
                    index += 1
                    let source = TestFrame(random: format, width: s.sw, height: s.sh, padding: index % 3, seed: UInt64(index))
                    let key = ConversionKey(
                        format: format, sourceWidth: s.sw, sourceHeight: s.sh,
                        content: ContentGeometry(
                            sourceWidth: s.sw, sourceHeight: s.sh, rotation: rotation,
                            destinationWidth: s.dw, destinationHeight: s.dh),
                        rotation: rotation, mirror: mirror)
                    let what = "\(format) \(s) \(rotation) mirror \(mirror)"
                    let oddReversed = (format == .i420 || format == .i422) && s.sw % 2 == 1 && (rotation == .deg180) != mirror
                    #expect(DirectPass.handles(key) == !oddReversed, "\(what)")

                    let direct = TestDestination(width: s.dw, height: s.dh), resampled = TestDestination(width: s.dw, height: s.dh)
                    let resampling = FrameConverter()
                    resampling.path = .resampling
                    for (converter, dest) in [(FrameConverter(), direct), (resampling, resampled)] {
                        try converter.convert(
                            source.frame, into: dest.base, stride: dest.stride, width: s.dw, height: s.dh,
                            layout: .xrgb, rotation: rotation, mirror: mirror)
                    }
                    #expect(Array(direct.bytes) == Array(resampled.bytes), "\(what)")
                    let r = try compareWithReference(source.frame, dw: s.dw, dh: s.dh, rotation: rotation, mirror: mirror)
                    #expect(r.maxError <= 2 && r.barsBlack && r.paddingUntouched, "\(what): \(r.worst)")
                }
            }
        }
    }

    /// Scaling, turning by 90° and packed formats keep to the resampling passes.
    @Test func leavesScaledTurnedAndPackedPicturesAlone() {
        func key(_ format: PixelFormat, _ w: Int, _ h: Int, _ rotation: Rotation = .deg0, content: (Int, Int)? = nil) -> ConversionKey {
            let (cw, ch) = content ?? rotation.rotatedSize(width: w, height: h)
            return ConversionKey(
                format: format, sourceWidth: w, sourceHeight: h,
                content: ContentGeometry(x: 0, y: 0, width: cw, height: ch), rotation: rotation, mirror: false)
        }
        #expect(DirectPass.handles(key(.i422, 480, 270)))
        #expect(!DirectPass.handles(key(.i422, 480, 270, content: (479, 270))))
        #expect(!DirectPass.handles(key(.i422, 480, 270, content: (480, 271))))
        #expect(!DirectPass.handles(key(.i422, 480, 270, .deg90)))
        #expect(!DirectPass.handles(key(.yuyv, 480, 270)))
        #expect(!DirectPass.handles(key(.nv12, 480, 270)))
        #expect(!DirectPass.handles(key(.bgra, 480, 270)))
    }
}
