import Testing
@testable import PipConvert
import PipCore

/// The three-quarter pass (`ThreeQuarterPass`) gives exactly what the resampling pass gives at
/// 3/4 size, and the reference within the usual error.
@Suite struct ConvertThreeQuarterPassTests {
    static let formats: [PixelFormat] = [.i420, .i422, .i444, .gray, .yuyv, .nv12]

    /// One whole block of 8 groups, two, a block and a tail, a tail alone, a single group, and
    /// windows with bars beside and above the content.
    @Test(arguments: formats)
    func givesTheResamplingPassPixelsByteForByte(format: PixelFormat) throws {
        let sizes: [(sw: Int, sh: Int, dw: Int, dh: Int)] = [
            (32, 12, 24, 9), (64, 16, 48, 12), (44, 8, 33, 6), (16, 8, 12, 6), (4, 4, 3, 3), (32, 12, 30, 9), (32, 12, 24, 20),
            (128, 72, 96, 54),
        ]
        try expectSameAsResampling(format, sizes: sizes, handles: ThreeQuarterPlan.handles)
        for s in sizes {
            let key = ConversionKey(
                format: format, sourceWidth: s.sw, sourceHeight: s.sh,
                content: Rect(sourceWidth: s.sw, sourceHeight: s.sh, rotation: .deg0, destinationWidth: s.dw, destinationHeight: s.dh),
                rotation: .deg0, mirror: false)
            #expect(ThreeQuarterPlan(key: key).isPeriodic, "\(format) \(s): the pass would leave it to the resampling one")
        }
    }

    /// The phases' weights are the box weights 3/4 + 1/4, 1/2 + 1/2, 1/4 + 3/4 (in 2⁻¹⁶, a full
    /// weight 2¹⁶ − 1); half-width chroma reads its two samples in every phase.
    @Test func phasesAreTheBoxWeights() throws {
        let full = try #require(ThreeQuarterPlan.phases(source: 1280, output: 960, half: false))
        #expect(full.first == (49152, 32768, 16384) && full.second == (16384, 32768, 49152))
        let half = try #require(ThreeQuarterPlan.phases(source: 1280, output: 960, half: true))
        #expect(half.first == (65535, 32768, 0) && half.second == (0, 32768, 65535))
        // Not 3/4: no phases.
        #expect(ThreeQuarterPlan.phases(source: 1280, output: 640, half: false) == nil)
        #expect(ThreeQuarterPlan.phases(source: 1920, output: 1280, half: false) == nil)
    }

    /// Other ratios, sizes that are not whole groups of four, a zoomed part, quarter turns and
    /// R′G′B′ formats keep to the other passes.
    @Test func leavesOtherRatiosTurnsAndRGBAlone() {
        func key(_ format: PixelFormat, _ w: Int, _ h: Int, content: (Int, Int), _ rotation: Rotation = .deg0) -> ConversionKey {
            ConversionKey(
                format: format, sourceWidth: w, sourceHeight: h,
                content: Rect(x: 0, y: 0, width: content.0, height: content.1), rotation: rotation, mirror: false)
        }
        #expect(ThreeQuarterPlan.handles(key(.yuyv, 1280, 720, content: (960, 540))))
        #expect(ThreeQuarterPlan.handles(key(.i420, 1920, 1080, content: (1440, 810))))
        #expect(ThreeQuarterPlan.handles(key(.i422, 1280, 720, content: (960, 540), .deg180)))
        #expect(!ThreeQuarterPlan.handles(key(.yuyv, 1920, 1080, content: (1280, 720))))
        #expect(!ThreeQuarterPlan.handles(key(.yuyv, 1282, 720, content: (961, 540))))
        #expect(!ThreeQuarterPlan.handles(key(.i420, 1280, 722, content: (960, 541))))
        #expect(!ThreeQuarterPlan.handles(key(.i420, 1280, 720, content: (540, 960), .deg90)))
        #expect(!ThreeQuarterPlan.handles(key(.bgra, 1280, 720, content: (960, 540))))
        var zoomed = key(.i420, 1280, 720, content: (960, 540))
        zoomed.crop = Framing(zoom: 2, centreX: 0.5, centreY: 0.5).crop(width: 1280, height: 720)
        #expect(!ThreeQuarterPlan.handles(zoomed))
    }
}
