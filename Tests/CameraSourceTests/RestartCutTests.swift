import CTurboJPEG
@testable import MJPEG
import PipCore
import TestSupport
import Testing

/// Full-size decoding (libjpeg-turbo) of pictures with restart intervals on two threads: cut at a
/// restart marker that starts an MCU row (`RestartCut`), each half decoded by itself; the picture
/// is the one-thread picture byte for byte.
@Suite struct RestartCutTests {
    typealias Pictures = ReducedJPEGDecoderTests

    static func restarted(_ subsampling: TJSAMP, every interval: String, width: Int = 1280, height: Int = 720) throws -> [UInt8] {
        try Fixture.withRestarts(Pictures.picture(width: width, height: height, subsampling: subsampling, quality: 95), every: interval)
    }

    /// Full-size pictures from a two-thread and a one-thread decoder, and the rows above the cut.
    static func decodeBoth(_ jpeg: [UInt8], two: JPEGDecoder = JPEGDecoder(threads: 2)) throws -> (same: Bool, cut: Int?) {
        try jpeg.withUnsafeBytes { raw in
            let (w, h) = try two.header(of: raw)
            let one = JPEGDecoder(threads: 1)  // owns the picture it returns: alive until it is read
            let a = SplitScanTests.bytes(try two.decode(Pictures.frame(raw), minWidth: w, minHeight: h))
            let b = SplitScanTests.bytes(try one.decode(Pictures.frame(raw), minWidth: w, minHeight: h))
            return (a == b, two.lastCutRows)
        }
    }

    @Test(arguments: [TJSAMP_420, TJSAMP_422, TJSAMP_444, TJSAMP_GRAY], ["1", "2", "40B"])
    func halvesMakeTheOneThreadPicture(subsampling: TJSAMP, interval: String) throws {
        let jpeg = try Self.restarted(subsampling, every: interval)
        let r = try Self.decodeBoth(jpeg)
        #expect(r.same, "\(subsampling) every \(interval)")
        let rows = try #require(r.cut, "\(subsampling) every \(interval): not cut")
        #expect(rows > 720 / 4 && rows < 720 * 3 / 4, "cut at row \(rows)")
    }

    /// ffmpeg's encoder with slice threads writes an interval per MCU row, as cameras do, with
    /// 4:2:2 as 2×2 luma blocks per MCU.
    @Test func ffmpegSlicedPicturesAreCut() throws {
        let jpeg = try Fixture.ffmpegJPEG(width: 1920, height: 1080, quality: 4, extra: ["-threads", "2", "-thread_type", "slice"])
        #expect(jpeg.contains(0xDD))
        let r = try Self.decodeBoth(jpeg)
        #expect(r.same && r.cut != nil)
        #expect(r.cut! % 16 == 0, "an MCU row of 16 lines")
    }

    /// Each half is a whole JPEG of its own: libjpeg-turbo decodes it without a warning, so the
    /// lower half's restart markers run from RST0 in order.
    @Test func halvesAreCleanJPEGs() throws {
        let jpeg = try Self.restarted(TJSAMP_420, every: "1")
        let cutter = RestartCut()
        try jpeg.withUnsafeBytes { raw in
            let cut = try #require(cutter.cut(raw, nearPermille: 500))
            let handle = tjInitDecompress()!
            defer { tjDestroy(handle) }
            var heights: [Int] = []
            for part in [cut.top, cut.bottom] {
                var w: Int32 = 0, h: Int32 = 0, sub: Int32 = 0, cs: Int32 = 0
                let bytes = part.baseAddress!.assumingMemoryBound(to: UInt8.self)
                #expect(tjDecompressHeader3(handle, bytes, UInt(part.count), &w, &h, &sub, &cs) == 0)
                var pixels = [UInt8](repeating: 0, count: Int(w * h))
                #expect(tjDecompress2(handle, bytes, UInt(part.count), &pixels, w, 0, h, Int32(TJPF_GRAY.rawValue), 0) == 0,
                        "\(String(cString: tjGetErrorStr2(handle)))")
                heights.append(Int(h))
            }
            #expect(heights == [cut.topRows, 720 - cut.topRows] && cut.topRows % 16 == 0)
        }
    }

    /// The upper half's rows are reported as soon as it is decoded (to be converted while the lower
    /// half still decodes), and they are final.
    @Test func theUpperHalfIsReportedFinal() throws {
        let jpeg = try Self.restarted(TJSAMP_420, every: "1")
        let two = JPEGDecoder(threads: 2), log = DecodedRowsTests.RowLog()
        let picture = try jpeg.withUnsafeBytes { raw in try two.decode(Pictures.frame(raw), minWidth: 1280, minHeight: 720, rows: log) }
        let rows = try #require(two.lastCutRows)
        #expect(log.reports == [rows])
        #expect(log.matches(picture))
    }

    @Test func picturesThatCannotBeCutAreDecodedWhole() throws {
        // 80 MCUs a row, a marker every 1279 MCUs: none starts a row.
        let jpeg = try Self.restarted(TJSAMP_420, every: "1279B")
        #expect(jpeg.withUnsafeBytes { RestartCut().cut($0, nearPermille: 500) } == nil)
        let plain = Pictures.picture(width: 1280, height: 720, subsampling: TJSAMP_420, quality: 95)
        #expect(plain.withUnsafeBytes { RestartCut().cut($0, nearPermille: 500) } == nil)
        for picture in [jpeg, plain] {
            let r = try Self.decodeBoth(picture)
            #expect(r.same && r.cut == nil)
        }
    }

    /// The cut follows the halves' costs; later pictures make nothing new.
    @Test func laterPicturesAllocateNothingAndTheCutMoves() throws {
        let jpeg = try Self.restarted(TJSAMP_422, every: "1")
        let two = JPEGDecoder(threads: 2)
        var cuts: Set<Int> = []
        _ = try Self.decodeBoth(jpeg, two: two)
        let made = two.allocations
        for _ in 0..<6 {
            let r = try Self.decodeBoth(jpeg, two: two)
            #expect(r.same)
            cuts.insert(try #require(r.cut))
        }
        #expect(two.allocations == made, "\(two.allocations - made) buffers made after the first picture")
        #expect(cuts.allSatisfy { $0 % 8 == 0 })
    }

    @Test func damagedPicturesNeverCrashAndTheNextOneIsRight() throws {
        let jpeg = try Self.restarted(TJSAMP_422, every: "1")
        var rng = SplitMix(seed: 5)
        let two = JPEGDecoder(threads: 2)
        for round in 0..<8 {
            let damaged = Fixture.damaged(jpeg, changes: 1 + round % 3, truncate: round % 4 == 3, rng: &rng)
            _ = try? damaged.withUnsafeBytes { raw in try two.decode(Pictures.frame(raw), minWidth: 1280, minHeight: 720) }
            let r = try Self.decodeBoth(jpeg, two: two)
            #expect(r.same && r.cut != nil, "after round \(round)")
        }
    }
}
