import PipCore
import TestSupport
import Testing
@testable import PipConvert

/// Any frame into the YUYV or I420 a virtual camera carries: formats, sizes, bars, the framing
/// crop and the range (the share's own expectations are in ShareFrameConverterTests).
@Suite struct YCbCrConverterTests {
    /// `frame` converted into a `format` `width`×`height` destination that starts out all 7s.
    func convert(
        _ c: YCbCrConverter, _ frame: VideoFrame, _ format: PixelFormat, _ width: Int, _ height: Int, framing: Framing = .full
    ) -> [UInt8] {
        var out = [UInt8](repeating: 7, count: format.packedLayout(width: width, height: height)!.byteCount)
        out.withUnsafeMutableBytes { d in
            #expect(c.convert(frame, into: d.baseAddress!, format: format, width: width, height: height, framing: framing))
        }
        return out
    }

    /// The vector path agrees with the exact formula for every value, at every alignment.
    @Test func theRangeSqueezeIsExact() {
        let input = (0..<300).map { UInt8($0 % 256) }
        for scale: UInt16 in [219, 224] {
            var out = [UInt8](repeating: 0, count: input.count)
            input.withUnsafeBufferPointer { s in
                out.withUnsafeMutableBufferPointer { d in
                    LimitedRange.squeeze(s.baseAddress! + 3, d.baseAddress!, count: 290, scale: scale)
                }
            }
            let expected = input[3..<293].map { (v: UInt8) -> UInt8 in
                let x: Int = 16 * 255 + Int(v) * Int(scale) + 127
                return UInt8(x / 255)
            }
            #expect(Array(out[0..<290]) == expected)
        }
        #expect(LimitedRange.luma[0] == 16 && LimitedRange.luma[255] == 235)
        #expect(LimitedRange.chroma[0] == 16 && LimitedRange.chroma[255] == 240)
    }

    /// A picture of another shape (a 4:3 camera switched to in a 16:9 stream) keeps its shape:
    /// it fills the height, with bars left and right, and the other way round.
    @Test func anotherShapeIsFittedWithBars() {
        let narrow = NearestFit(sourceWidth: 640, sourceHeight: 480, outputWidth: 1280, outputHeight: 720)
        #expect(narrow.place == Rect(x: 160, y: 0, width: 960, height: 720))
        let wide = NearestFit(sourceWidth: 1920, sourceHeight: 800, outputWidth: 640, outputHeight: 480)
        #expect(wide.place == Rect(x: 0, y: 106, width: 640, height: 266))
        #expect(wide.xs.last == 1917 && wide.ys.first == 0 && wide.ys.count == 266)
    }

    /// The nearest map is the windows' box taps' first sample when shrinking, and each source
    /// sample repeated when growing.
    @Test func theNearestMapIsTheScaleTablesCells() {
        for (l, n) in [(1920, 1280), (640, 480), (33, 7), (16, 16)] {
            let first = ScaleTable.exactTaps(sourceLength: l, outputLength: n).taps.map(\.first)
            if n < l { #expect(ScaleTable.nearest(sourceLength: l, outputLength: n) == first) }
        }
        #expect(ScaleTable.nearest(sourceLength: 4, outputLength: 8) == [0, 0, 1, 1, 2, 2, 3, 3])
        #expect(ScaleTable.nearest(sourceLength: 16, outputLength: 16, offset: 3) == Array(3..<19))
        #expect(ScaleTable.nearest(sourceLength: 8, outputLength: 4, offset: 8) == [8, 10, 12, 14])
    }

    /// Packed limited-range YUYV of the destination's size is what it is: the caller may hand it
    /// out as it is, and converting it copies it.
    @Test func yuyvOfTheDestinationsSizeIsAlreadyConverted() {
        let bytes = (0..<(8 * 4 * 2)).map { UInt8($0 % 200 + 16) }
        bytes.withUnsafeBytes { raw in
            let f = ShareFixture.frame(.yuyv, 8, 4, raw)
            #expect(YCbCrConverter.frameIsConverted(f, format: .yuyv, width: 8, height: 4))
            #expect(convert(YCbCrConverter(), f, .yuyv, 8, 4) == bytes)
            #expect(!YCbCrConverter.frameIsConverted(f, format: .i420, width: 8, height: 4))
            #expect(!YCbCrConverter.frameIsConverted(f, format: .yuyv, width: 8, height: 8))
            #expect(!YCbCrConverter.frameIsConverted(f, format: .yuyv, width: 8, height: 4, framing: Framing(zoom: 2, centreX: 0.5, centreY: 0.5)))
            #expect(!YCbCrConverter.frameIsConverted(ShareFixture.frame(.yuyv, 8, 4, raw, range: .full), format: .yuyv, width: 8, height: 4))
            var padded = f
            padded.plane0.stride = 24
            #expect(!YCbCrConverter.frameIsConverted(padded, format: .yuyv, width: 8, height: 2))
        }
    }

    /// Full-range YUYV (a JPEG decoded as 4:2:2): luma into 16–235, chroma into 16–240.
    @Test func fullRangeYUYVIsSqueezed() {
        let row: [UInt8] = [0, 0, 255, 255, 128, 128, 128, 128]
        (row + row).withUnsafeBytes { raw in
            let out = convert(YCbCrConverter(), ShareFixture.frame(.yuyv, 4, 2, raw, range: .full), .yuyv, 4, 2)
            #expect(Array(out[0..<8]) == [16, 16, 235, 240, 126, 128, 126, 128])
            #expect(Array(out[8..<16]) == Array(out[0..<8]))
        }
    }

    /// 4:4:4 chroma becomes 4:2:0 by the mean of each 2×2 block; grey gets neutral chroma.
    @Test func planarFormatsOfTheSameSize() {
        let w = 4, h = 2
        var i444 = [UInt8](repeating: 50, count: 3 * w * h)
        for x in 0..<w { i444[w * h + x] = UInt8(10 * x); i444[w * h + w + x] = UInt8(10 * x + 1) }
        i444.withUnsafeBytes { raw in
            let out = convert(YCbCrConverter(), ShareFixture.frame(.i444, w, h, raw), .i420, w, h)
            #expect(Array(out[0..<8]) == [UInt8](repeating: 50, count: 8))
            #expect(Array(out[8..<10]) == [6, 26], "(0 + 10 + 1 + 11 + 2) / 4 and (20 + 30 + 21 + 31 + 2) / 4")
            #expect(Array(out[10..<12]) == [50, 50])
        }
        let gray = [UInt8](0..<8)
        gray.withUnsafeBytes { raw in
            let out = convert(YCbCrConverter(), ShareFixture.frame(.gray, w, h, raw), .i420, w, h)
            #expect(out == gray + [128, 128, 128, 128])
        }
    }

    /// RGB goes through BT.601 into limited range, in either destination.
    @Test func rgbIsConvertedWithBT601() {
        // White, black / red, red: B G R A, then R G B.
        let bgra: [UInt8] = [255, 255, 255, 0, 0, 0, 0, 0, 0, 0, 255, 0, 0, 0, 255, 0]
        let rgb: [UInt8] = [255, 255, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0]
        for (format, bytes) in [(PixelFormat.bgra, bgra), (.rgb24, rgb)] {
            bytes.withUnsafeBytes { raw in
                let frame = ShareFixture.frame(format, 2, 2, raw)
                let planar = convert(YCbCrConverter(), frame, .i420, 2, 2)
                #expect(Array(planar[0..<2]) == [235, 16], "\(format)")
                #expect(abs(Int(planar[2]) - 81) <= 1 && planar[2] == planar[3])
                #expect(planar[4] == 128 && planar[5] == 128, "white's chroma is neutral")
                let packed = convert(YCbCrConverter(), frame, .yuyv, 2, 2)
                #expect(Array(packed[0..<4]) == [235, 128, 16, 128])
                #expect(packed[5] < 128 && packed[7] > 200, "red: Cb below neutral, Cr high")
            }
        }
    }

    /// Bars are black (16) with neutral chroma (128) on every side, in both destinations.
    @Test func barsAreBlackAndNeutral() {
        let tall = [UInt8](repeating: 200, count: 8 * 8) + [UInt8](repeating: 60, count: 2 * 4 * 4)
        let wide = [UInt8](repeating: 200, count: 16 * 4) + [UInt8](repeating: 60, count: 2 * 8 * 2)
        tall.withUnsafeBytes { raw in
            let out = convert(YCbCrConverter(), ShareFixture.frame(.i420, 8, 8, raw), .i420, 16, 8)
            #expect(Array(out[64..<80]) == [UInt8](repeating: 16, count: 4) + [UInt8](repeating: 200, count: 8) + [UInt8](repeating: 16, count: 4))
            #expect(Array(out[128..<136]) == [128, 128, 60, 60, 60, 60, 128, 128])
        }
        wide.withUnsafeBytes { raw in
            let out = convert(YCbCrConverter(), ShareFixture.frame(.i420, 16, 4, raw), .yuyv, 8, 8)
            // 16×4 in 8×8: 8×2, rows 2 and 3 (the place is even: the odd bar row goes below).
            #expect(Array(out[0..<16]) == [16, 128, 16, 128, 16, 128, 16, 128, 16, 128, 16, 128, 16, 128, 16, 128])
            #expect(Array(out[32..<36]) == [200, 60, 200, 60] && Array(out[48..<52]) == [200, 60, 200, 60])
            #expect(Array(out[16..<20]) == [16, 128, 16, 128] && Array(out[64..<68]) == [16, 128, 16, 128])
        }
    }

    /// Zoomed 2× on the left half: columns 0…7 of a 16-wide ramp across all 16 columns.
    @Test func theFramingCropIsWhatIsShown() {
        let bytes = ShareFixture.i420Ramp(16, 8)
        bytes.withUnsafeBytes { raw in
            let framing = Framing(zoom: 2, centreX: 0.25, centreY: 0.5)
            let out = convert(YCbCrConverter(), ShareFixture.frame(.i420, 16, 8, raw), .i420, 16, 8, framing: framing)
            let expected: [UInt8] = (0..<16).map { (x: Int) -> UInt8 in bytes[32 + x / 2] }
            #expect(Array(out[0..<16]) == expected, "row 0 shows source row 2")
            #expect(out[128] == 90 && out[128 + 32] == 170)
        }
    }

    /// One converter into destinations of two sizes: the fit follows the destination.
    @Test func anotherDestinationSizeGetsItsOwnFit() {
        let bytes = ShareFixture.i420Ramp(32, 16)
        bytes.withUnsafeBytes { raw in
            let frame = ShareFixture.frame(.i420, 32, 16, raw)
            let c = YCbCrConverter()
            _ = convert(c, frame, .i420, 16, 8)
            #expect(convert(c, frame, .i420, 8, 4) == convert(YCbCrConverter(), frame, .i420, 8, 4))
            #expect(convert(c, frame, .yuyv, 16, 8) == convert(YCbCrConverter(), frame, .yuyv, 16, 8))
        }
    }

    /// A compressed frame is not converted, and the destination is left as it was.
    @Test func compressedFramesWriteNothing() {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xD9]
        bytes.withUnsafeBytes { raw in
            var f = ShareFixture.frame(.gray, 16, 8, raw)
            f.format = .mjpeg
            var out = [UInt8](repeating: 7, count: 16 * 8 * 2)
            out.withUnsafeMutableBytes { d in
                #expect(!YCbCrConverter().convert(f, into: d.baseAddress!, format: .yuyv, width: 16, height: 8))
            }
            #expect(out.allSatisfy { $0 == 7 })
        }
    }
}
