import Testing
@testable import PipConvert
import PipCore

/// 90° and 270° by the upright passes and a transpose (`QuarterTurn`), against the reference
/// within the usual error.
@Suite struct ConvertQuarterTurnTests {
    static let formats: [PixelFormat] = [.yuyv, .i420, .nv12, .i422, .i444, .gray, .bgra, .rgb24]

    /// Shrinking, growing, the unscaled size (a planar picture then takes the unscaled pass), sizes
    /// with and without whole 4×4 tiles, and bars on either side.
    @Test(arguments: formats)
    func matchesTheReference(format: PixelFormat) throws {
        // (source size, destination size)
        let cases: [(Int, Int, Int, Int)] = [(33, 17, 14, 20), (7, 5, 23, 31), (16, 8, 8, 16), (13, 9, 9, 13), (12, 9, 30, 8), (40, 24, 9, 40)]
        var index = 0
        for (sw, sh, dw, dh) in cases {
            for rotation in [Rotation.deg90, .deg270] {
                for mirror in [false, true] {
                    index += 1
                    let source = TestFrame(random: format, width: sw, height: sh, padding: index % 3, seed: UInt64(500 + index))
                    let what = "\(format) \(sw)×\(sh)→\(dw)×\(dh) \(rotation) mirror \(mirror)"
                    let r = try compareWithReference(source.frame, dw: dw, dh: dh, rotation: rotation, mirror: mirror)
                    #expect(r.maxError <= 2 && r.barsBlack && r.paddingUntouched, "\(what): \(r.worst)")
                }
            }
        }
    }

    /// An asymmetric picture lands the right way round: each corner where the turn puts it.
    @Test func cornersGoWhereTheTurnPutsThem() throws {
        // A 4×2 grey picture of 2×1 blocks: top-left 40, top-right 90, bottom-left 160, bottom-right 220.
        let values: [UInt8] = [40, 40, 90, 90, 160, 160, 220, 220]
        let source = TestFrame(.gray, width: 4, height: 2, colorimetry: Colorimetry(matrix: .bt601, range: .full)) { _, row, x in
            values[row * 4 + x]
        }
        // The turned 2×4 picture's top-left, top-right, bottom-left and bottom-right.
        let expected: [(Rotation, Bool, [UInt8])] = [
            (.deg90, false, [160, 40, 220, 90]), (.deg90, true, [40, 160, 90, 220]),
            (.deg270, false, [90, 220, 40, 160]), (.deg270, true, [220, 90, 160, 40]),
        ]
        for (rotation, mirror, corners) in expected {
            let dest = TestDestination(width: 2, height: 4)
            try FrameConverter().convert(
                source.frame, into: dest.base, stride: dest.stride, width: 2, height: 4, layout: .xrgb,
                rotation: rotation, mirror: mirror)
            let got = [(0, 0), (1, 0), (0, 3), (1, 3)].map { UInt8(truncatingIfNeeded: dest.pixel($0.0, $0.1) >> 8) }
            #expect(got == corners, "\(rotation) mirror \(mirror)")
        }
    }
}
