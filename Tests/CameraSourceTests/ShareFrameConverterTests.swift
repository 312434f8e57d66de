import Testing
@testable import CameraSource
import PipCore
import TestSupport

/// What a call app reads from the virtual camera: the camera's picture in YUYV or I420, limited
/// range, never mirrored (docs/BEHAVIOUR.md, "Sharing the camera"). The conversion's own tests
/// (the range squeeze, the fit) are PipConvert's: YCbCrConverterTests.
@Suite struct ShareFrameConverterTests {
    /// YUYV of the output's size and packed rows is written straight from the camera's buffer.
    @Test func packedYUYVGoesOutAsItIs() {
        let bytes = (0..<(8 * 4 * 2)).map { UInt8($0 % 200 + 16) }
        let c = ShareFrameConverter(format: .yuyv, width: 8, height: 4)
        bytes.withUnsafeBytes { raw in
            let out = c.convert(ShareFixture.frame(.yuyv, 8, 4, raw))!
            #expect(out.baseAddress == raw.baseAddress)
            #expect(Array(out) == bytes)
        }
    }

    /// Rows with padding are packed; the picture keeps its left and right (no mirror).
    @Test func paddedYUYVIsPackedNotMirrored() {
        let stride = 24, w = 8, h = 2
        var bytes = [UInt8](repeating: 0, count: stride * h)
        for y in 0..<h { for i in 0..<2 * w { bytes[y * stride + i] = UInt8(20 + i) } }
        let c = ShareFrameConverter(format: .yuyv, width: w, height: h)
        bytes.withUnsafeBytes { raw in
            var f = ShareFixture.frame(.yuyv, w, h, raw)
            f.plane0.stride = stride
            let out = Array(c.convert(f)!)
            #expect(out.count == 2 * w * h)
            #expect(Array(out[0..<2 * w]) == (0..<2 * w).map { UInt8(20 + $0) })
            #expect(Array(out[2 * w..<4 * w]) == (0..<2 * w).map { UInt8(20 + $0) })
        }
    }

    @Test func i420IsCopiedPlaneByPlane() {
        let bytes = ShareFixture.i420Ramp(16, 8)
        let c = ShareFrameConverter(format: .i420, width: 16, height: 8)
        bytes.withUnsafeBytes { raw in
            let out = Array(c.convert(ShareFixture.frame(.i420, 16, 8, raw))!)
            #expect(out == bytes)
            #expect(out[0] < out[15])  // dark on the left, as the camera saw it
        }
    }

    /// 4:2:2 chroma (most webcam JPEGs) becomes 4:2:0 by averaging each pair of rows.
    @Test func i422ChromaIsAveragedVertically() {
        let w = 4, h = 4
        var bytes = [UInt8](repeating: 100, count: w * h + 2 * (w / 2) * h)
        let u = w * h, v = u + (w / 2) * h
        for row in 0..<h { for x in 0..<w / 2 { bytes[u + row * 2 + x] = UInt8(row.isMultiple(of: 2) ? 100 : 201); bytes[v + row * 2 + x] = 50 } }
        let c = ShareFrameConverter(format: .i420, width: w, height: h)
        bytes.withUnsafeBytes { raw in
            let out = Array(c.convert(ShareFixture.frame(.i422, w, h, raw))!)
            #expect(out.count == w * h * 3 / 2)
            #expect(Array(out[16..<20]) == [151, 151, 151, 151])
            #expect(Array(out[20..<24]) == [50, 50, 50, 50])
        }
    }

    /// A YUYV camera shared as I420 (in use when pipcam started, so its format was not known):
    /// luma picked out, chroma of each row pair averaged.
    @Test func yuyvBecomesI420() {
        let w = 4, h = 2
        let bytes: [UInt8] = [10, 100, 11, 200, 12, 102, 13, 202, 20, 110, 21, 210, 22, 112, 23, 212]
        let c = ShareFrameConverter(format: .i420, width: w, height: h)
        bytes.withUnsafeBytes { raw in
            let out = Array(c.convert(ShareFixture.frame(.yuyv, w, h, raw))!)
            #expect(out == [10, 11, 12, 13, 20, 21, 22, 23, 105, 107, 205, 207])
        }
    }

    @Test func nv12ChromaIsSeparated() {
        let w = 4, h = 2
        var bytes = [UInt8](repeating: 60, count: w * h + w)
        for i in 0..<w / 2 { bytes[w * h + 2 * i] = 10 + UInt8(i); bytes[w * h + 2 * i + 1] = 200 + UInt8(i) }
        let c = ShareFrameConverter(format: .i420, width: w, height: h)
        bytes.withUnsafeBytes { raw in
            let out = Array(c.convert(ShareFixture.frame(.nv12, w, h, raw))!)
            #expect(Array(out[8..<10]) == [10, 11])
            #expect(Array(out[10..<12]) == [200, 201])
        }
    }

    /// A JPEG's full-range samples are squeezed into limited range, as readers assume.
    @Test func fullRangeBecomesLimited() {
        var bytes = ShareFixture.i420Ramp(4, 2)
        bytes[0] = 0
        bytes[1] = 255
        bytes[8] = 0
        bytes[10] = 255
        let c = ShareFrameConverter(format: .i420, width: 4, height: 2)
        bytes.withUnsafeBytes { raw in
            let out = Array(c.convert(ShareFixture.frame(.i420, 4, 2, raw, range: .full))!)
            #expect(out[0] == 16 && out[1] == 235)
            #expect(out[8] == 16 && out[10] == 240)
        }
    }

    /// RGB (BT.601, limited): white, black and pure red land where the standard puts them.
    @Test func bgraIsConvertedWithBT601() {
        let w = 2, h = 2
        // Row 0: white, black; row 1: red, red (B G R A).
        let bytes: [UInt8] = [255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 255, 0]
        let c = ShareFrameConverter(format: .i420, width: w, height: h)
        bytes.withUnsafeBytes { raw in
            let out = Array(c.convert(ShareFixture.frame(.bgra, w, h, raw))!)
            #expect(out[0] == 235 && out[1] == 16)
            #expect(abs(Int(out[2]) - 81) <= 1)
        }
    }

    /// A frame of another size (the camera came back in another mode) is resampled: readers keep
    /// the size they opened.
    /// Zoomed 2× on the right half's middle: the output is that part, resampled to the output's
    /// size, and not the camera's own buffer even when the sizes match.
    @Test func theFramedPartIsWhatGoesOut() {
        // YUYV 16x8 whose luma is 16 + the column: every pixel says where it came from.
        var bytes = [UInt8](repeating: 128, count: 16 * 8 * 2)
        for y in 0..<8 { for x in 0..<16 { bytes[(y * 16 + x) * 2] = UInt8(16 + x) } }
        let c = ShareFrameConverter(format: .yuyv, width: 16, height: 8)
        bytes.withUnsafeBytes { raw in
            let framing = Framing(zoom: 2, centreX: 0.75, centreY: 0.5)
            let out = c.convert(ShareFixture.frame(.yuyv, 16, 8, raw), framing: framing)!
            #expect(out.baseAddress != raw.baseAddress)
            // Columns 8…15 shown across 16: each twice.
            let luma: [UInt8] = (0..<16).map { out[2 * $0] }
            let expected: [UInt8] = (0..<16).map { UInt8(24 + $0 / 2) }
            #expect(luma == expected)
            #expect(Array(out[(7 * 16) * 2..<(8 * 16) * 2]) == Array(out[0..<32]), "rows 2…5 of 8, every row alike")
            #expect(Array(c.convert(ShareFixture.frame(.yuyv, 16, 8, raw), framing: .full)!) == bytes, "unzoomed: as it came")
        }
    }

    @Test func anotherSizeIsResampledToTheOutputSize() {
        let bytes = ShareFixture.i420Ramp(32, 16)
        let c = ShareFrameConverter(format: .i420, width: 16, height: 8)
        bytes.withUnsafeBytes { raw in
            let out = Array(c.convert(ShareFixture.frame(.i420, 32, 16, raw))!)
            #expect(out.count == 16 * 8 * 3 / 2)
            #expect(out[0] == bytes[0] && out[15] == bytes[30])
            #expect(out[16 * 8] == 90 && out[16 * 8 + 32] == 170)
        }
        let toYUYV = ShareFrameConverter(format: .yuyv, width: 16, height: 8)
        bytes.withUnsafeBytes { raw in
            let out = Array(toYUYV.convert(ShareFixture.frame(.i420, 32, 16, raw))!)
            #expect(out.count == 16 * 8 * 2)
            #expect(out[0] == bytes[0] && out[1] == 90 && out[3] == 170)
        }
    }

    /// A picture of another shape (a 4:3 camera switched to in a 16:9 stream) keeps its shape:
    /// it fills the height, with black bars left and right, and the other way round.
    @Test func anotherShapeIsFittedWithBlackBars() {
        // The fit's place and maps themselves: YCbCrConverterTests.anotherShapeIsFittedWithBars.
        let bytes = [UInt8](repeating: 200, count: 8 * 8) + [UInt8](repeating: 60, count: 2 * 4 * 4)
        for format in [PixelFormat.i420, .yuyv] {
            let c = ShareFrameConverter(format: format, width: 16, height: 8)
            bytes.withUnsafeBytes { raw in
                let out = Array(c.convert(ShareFixture.frame(.i420, 8, 8, raw))!)
                // Luma of the row in the middle: 4 black, 8 picture, 4 black.
                let lumas = format == .i420
                    ? Array(out[(4 * 16)..<(5 * 16)])
                    : stride(from: 4 * 32, to: 5 * 32, by: 2).map { out[$0] }
                #expect(lumas == [UInt8](repeating: 16, count: 4) + [UInt8](repeating: 200, count: 8) + [UInt8](repeating: 16, count: 4),
                        "\(format): \(lumas)")
                let firstChroma = format == .i420 ? out[16 * 8] : out[1]
                #expect(firstChroma == 128, "neutral chroma in the bars")
            }
        }
    }

    @Test func compressedFramesAreNotConverted() {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        let c = ShareFrameConverter(format: .i420, width: 16, height: 8)
        bytes.withUnsafeBytes { raw in
            var f = ShareFixture.frame(.gray, 16, 8, raw)
            f.format = .mjpeg
            #expect(c.convert(f) == nil)
        }
    }

    @Test func thePlaceholderIsDarkAndNeutral() {
        for format in [PixelFormat.yuyv, .i420] {
            let c = ShareFrameConverter(format: format, width: 16, height: 8)
            let p = Array(c.placeholder)
            #expect(p.count == c.byteCount)
            if format == .yuyv {
                #expect(p[0] == 32 && p[1] == 128)
            } else {
                #expect(p[0] == 32 && p[16 * 8] == 128 && p.last == 128)
            }
        }
    }

    @Test func outputFormatFollowsTheCamera() {
        #expect(ShareFrameConverter.outputFormat(for: .yuyv) == .yuyv)
        for f in [PixelFormat.mjpeg, .i420, .nv12, .bgra, .rgb24, .gray] { #expect(ShareFrameConverter.outputFormat(for: f) == .i420) }
        #expect(ShareFrameConverter.outputFormat(for: nil) == .i420)
    }
}
