import Testing
@testable import PipConvert
import PipCore

/// The halving pass (`HalvingPass`) gives exactly what the resampling pass gives at half size,
/// and the reference within the usual error.
@Suite struct ConvertHalvingPassTests {
    static let formats: [PixelFormat] = [.i420, .i422, .i444, .gray, .yuyv, .nv12]

    /// Content widths with and without a tail past whole groups of 8, odd ones, and windows with
    /// bars on either side.
    @Test(arguments: formats)
    func givesTheResamplingPassPixelsByteForByte(format: PixelFormat) throws {
        let sizes: [(sw: Int, sh: Int, dw: Int, dh: Int)] = [
            (32, 12, 16, 6), (68, 18, 34, 9), (66, 14, 33, 7), (16, 6, 8, 11), (52, 10, 40, 5), (4, 4, 2, 2), (10, 8, 5, 4),
        ]
        try expectSameAsResampling(format, sizes: sizes, handles: HalvingPass.handles)
    }

    /// Other ratios, a zoomed part, quarter turns and R′G′B′ formats keep to the resampling passes.
    @Test func leavesOtherRatiosTurnsAndRGBAlone() {
        func key(_ format: PixelFormat, _ w: Int, _ h: Int, content: (Int, Int), _ rotation: Rotation = .deg0) -> ConversionKey {
            ConversionKey(
                format: format, sourceWidth: w, sourceHeight: h,
                content: Rect(x: 0, y: 0, width: content.0, height: content.1), rotation: rotation, mirror: false)
        }
        #expect(HalvingPass.handles(key(.yuyv, 1920, 1080, content: (960, 540))))
        #expect(HalvingPass.handles(key(.i420, 1280, 720, content: (640, 360))))
        #expect(!HalvingPass.handles(key(.yuyv, 1280, 720, content: (960, 540))))
        #expect(!HalvingPass.handles(key(.yuyv, 1280, 720, content: (640, 361))))
        #expect(!HalvingPass.handles(key(.yuyv, 1281, 720, content: (640, 360))))
        #expect(!HalvingPass.handles(key(.i420, 1280, 720, content: (360, 640), .deg90)))
        #expect(!HalvingPass.handles(key(.bgra, 1280, 720, content: (640, 360))))
        var zoomed = key(.i420, 1280, 720, content: (640, 360))
        zoomed.crop = Framing(zoom: 2, centreX: 0.5, centreY: 0.5).crop(width: 1280, height: 720)
        #expect(!HalvingPass.handles(zoomed))
    }
}
