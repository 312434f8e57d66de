import Testing
@testable import PipConvert
import PipCore

/// The fast path against the floating-point reference, for every directly readable format.
@Suite struct ConvertReferenceTests {
    static let formats: [PixelFormat] = [.yuyv, .i420, .nv12, .i422, .i444, .gray, .bgra, .rgb24]
    static let colorimetries = [
        Colorimetry(matrix: .bt601, range: .limited), Colorimetry(matrix: .bt601, range: .full),
        Colorimetry(matrix: .bt709, range: .limited), Colorimetry(matrix: .bt709, range: .full),
    ]
    static let layouts = [
        PixelLayout.xrgb,
        PixelLayout(redMask: 0xFF, greenMask: 0xFF00, blueMask: 0xFF0000, bitsPerPixel: 32)!,
        PixelLayout(redMask: 0xFF00_0000, greenMask: 0xFF_0000, blueMask: 0xFF00, bitsPerPixel: 32)!,
    ]

    /// Shrink, grow, identity and odd sizes, in every rotation with and without mirroring.
    @Test(arguments: formats)
    func matchesReferenceInEveryOrientation(format: PixelFormat) throws {
        // (source size, destination size in the unrotated orientation; nil = the rotated source size)
        let cases: [(Int, Int, (Int, Int)?)] = [(33, 17, (20, 14)), (7, 5, (31, 23)), (33, 17, nil), (12, 9, (5, 3))]
        var index = 0
        for (sw, sh, dest) in cases {
            for rotation in Rotation.allCases {
                for mirror in [false, true] {
                    index += 1
                    let c = Self.colorimetries[index % 4]
                    let source = TestFrame(random: format, width: sw, height: sh, padding: index % 5, colorimetry: c,
                                           seed: UInt64(index))
                    let (dw, dh) = dest ?? rotation.rotatedSize(width: sw, height: sh)
                    let r = try compareWithReference(
                        source.frame, dw: dw, dh: dh, rotation: rotation, mirror: mirror,
                        layout: Self.layouts[index % 3])
                    let what = "\(format) \(sw)×\(sh)→\(dw)×\(dh) \(rotation) mirror \(mirror) \(c)"
                    #expect(r.maxError <= 2, "\(what): \(r.worst)")
                    #expect(r.barsBlack, "\(what)")
                    #expect(r.paddingUntouched, "\(what)")
                }
            }
        }
    }

    /// Each matrix and range, shrinking and growing.
    @Test(arguments: formats)
    func matchesReferenceForEveryColorimetry(format: PixelFormat) throws {
        for (i, c) in Self.colorimetries.enumerated() {
            for (dw, dh) in [(17, 9), (50, 40)] {
                let source = TestFrame(random: format, width: 25, height: 14, padding: 7, colorimetry: c,
                                       seed: UInt64(100 + i))
                let r = try compareWithReference(source.frame, dw: dw, dh: dh, rotation: .deg0, mirror: false)
                #expect(r.maxError <= 2, "\(format) \(c) → \(dw)×\(dh): \(r.worst)")
                #expect(r.barsBlack && r.paddingUntouched)
            }
        }
    }

    /// Shrinking one axis while growing the other (only reachable with an explicit rectangle).
    @Test(arguments: formats)
    func matchesReferenceWhenShrinkingOneAxisAndGrowingTheOther(format: PixelFormat) throws {
        for rotation in Rotation.allCases {
            for mirror in [false, true] {
                let source = TestFrame(random: format, width: 33, height: 17, padding: 2, seed: 7)
                let content = Rect(x: 3, y: 2, width: 19, height: 41)
                let r = try compareWithReference(
                    source.frame, dw: 25, dh: 45, content: content, rotation: rotation, mirror: mirror)
                #expect(r.maxError <= 2, "\(format) \(rotation) mirror \(mirror): \(r.worst)")
                #expect(r.barsBlack && r.paddingUntouched)
            }
        }
    }

    /// Large shrink factors need many taps per output.
    @Test(arguments: [PixelFormat.yuyv, .i420, .bgra])
    func matchesReferenceForLargeShrink(format: PixelFormat) throws {
        let source = TestFrame(random: format, width: 97, height: 61, padding: 1, seed: 3)
        for rotation in [Rotation.deg0, .deg90] {
            let r = try compareWithReference(source.frame, dw: 9, dh: 9, rotation: rotation, mirror: true)
            #expect(r.maxError <= 2, "\(format) \(rotation): \(r.worst)")
            #expect(r.barsBlack && r.paddingUntouched)
        }
    }

    /// The upright path works on blocks of 8 lines and 8 outputs: full and partial blocks, row
    /// tails, shrinking and growing, upside down and mirrored.
    @Test(arguments: [PixelFormat.yuyv, .i420, .nv12, .i422, .gray, .bgra])
    func matchesReferenceAcrossBlocksAndTails(format: PixelFormat) throws {
        let cases: [(Int, Int, Int, Int)] = [(130, 75, 47, 27), (40, 22, 77, 43), (64, 48, 64, 48)]
        for (i, (sw, sh, dw, dh)) in cases.enumerated() {
            let source = TestFrame(random: format, width: sw, height: sh, padding: i * 3,
                                   colorimetry: Self.colorimetries[i], seed: UInt64(200 + i))
            for rotation in [Rotation.deg0, .deg180] {
                for mirror in [false, true] {
                    let r = try compareWithReference(source.frame, dw: dw + 3, dh: dh + 2, rotation: rotation, mirror: mirror)
                    let what = "\(format) \(sw)×\(sh)→\(dw)×\(dh) \(rotation) mirror \(mirror)"
                    #expect(r.maxError <= 2, "\(what): \(r.worst)")
                    #expect(r.barsBlack && r.paddingUntouched, "\(what)")
                }
            }
        }
    }

    /// One converter reused across changing geometry and formats gives the same result as fresh ones.
    @Test func reusedConverterFollowsGeometryChanges() throws {
        let converter = FrameConverter()
        for (i, format) in Self.formats.enumerated() {
            let source = TestFrame(random: format, width: 15 + i, height: 11, seed: UInt64(i))
            for rotation in Rotation.allCases {
                let r = try compareWithReference(
                    source.frame, dw: 13, dh: 21, rotation: rotation, mirror: i % 2 == 0, converter: converter)
                #expect(r.maxError <= 2, "\(format) \(rotation): \(r.worst)")
                #expect(r.barsBlack && r.paddingUntouched)
            }
        }
    }
}
