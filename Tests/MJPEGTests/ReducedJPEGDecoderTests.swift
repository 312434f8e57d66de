import CTurboJPEG
import Foundation
@testable import MJPEG
import PipCore
import TestSupport
import Testing

/// The reduced (1/2, 1/4, 1/8) JPEG decoder against libjpeg-turbo's full decode followed by an exact box
/// average — what the reduced decoder promises to compute.
@Suite struct ReducedJPEGDecoderTests {
    @Test(arguments: [TJSAMP_420, TJSAMP_422, TJSAMP_444, TJSAMP_GRAY], [2, 4, 8])
    func blockMeansMatchFullDecode(subsampling: TJSAMP, denominator: Int) throws {
        // Off by one at most: the full decode rounds and clamps each pixel before averaging (more
        // often over the smaller squares of 1/2 scale).
        let meanLimit = denominator == 2 ? 0.2 : 0.1
        for (w, h) in [(320, 176), (203, 117)] {
            let r = try Self.compare(Self.picture(width: w, height: h, subsampling: subsampling), denominator: denominator)
            #expect(r.max <= 1 && r.mean < meanLimit, "\(subsampling) \(w)×\(h) 1/\(denominator): max \(r.max) mean \(r.mean)")
        }
        // Quality 100 keeps high frequencies: blocks whose last coefficient (63) is coded, without
        // an end-of-block code after it.
        let r = try Self.compare(Self.picture(width: 96, height: 64, subsampling: subsampling, quality: 100), denominator: denominator)
        #expect(r.max <= 1 && r.mean < meanLimit, "\(subsampling) quality 100 1/\(denominator): max \(r.max) mean \(r.mean)")
    }

    /// Full size: the decoder's own inverse DCT (floating point, the DC part added as each block is
    /// written) against libjpeg-turbo's accurate integer one: a few pixels in a hundred one level off.
    @Test(arguments: [TJSAMP_420, TJSAMP_422, TJSAMP_444, TJSAMP_GRAY])
    func fullSizeMatchesLibjpegTurbo(subsampling: TJSAMP) throws {
        for (w, h, quality) in [(320, 176, 90), (203, 117, 90), (96, 64, 100), (120, 88, 30)] {
            let jpeg = Self.picture(width: w, height: h, subsampling: subsampling, quality: Int32(quality))
            let own = jpeg.withUnsafeBytes { ReducedJPEGDecoder(threads: 1).decode(Self.frame($0), minWidth: w, minHeight: h) }
            #expect(own?.width == w && own?.height == h, "not decoded by the decoder's own inverse DCT")
            let r = try Self.compare(jpeg, denominator: 1)
            #expect(r.max <= 1 && r.mean < 0.05, "\(subsampling) \(w)×\(h) q\(quality): max \(r.max) mean \(r.mean)")
        }
    }

    /// ffmpeg's encoder optimises the Huffman tables of each picture (libjpeg-turbo's standard ones
    /// have codes of every length; these are shaped by the picture), and writes 4:2:2 as luma 2×2 with
    /// chroma 1×2 blocks per MCU. Its test picture has saturated colours with sharp edges: the full
    /// decode clamps their ringing, so only boxes without a clamped pixel must be within one.
    @Test(arguments: ["yuvj422p", "yuvj420p"], [1, 2, 4, 8])
    func ffmpegPicturesMatchFullDecode(pixelFormat: String, denominator: Int) throws {
        let meanLimit = denominator == 2 ? 0.2 : 0.1
        for quality in [2, 12] {
            let jpeg = try Fixture.ffmpegJPEG(width: 336, height: 200, pixelFormat: pixelFormat, quality: quality)
            let r = try Self.compare(jpeg, denominator: denominator)
            #expect(
                r.maxUnclamped <= 1 && r.mean < meanLimit,
                "\(pixelFormat) q\(quality) 1/\(denominator): max \(r.max), \(r.maxUnclamped) unclamped, mean \(r.mean)")
        }
    }

    @Test func restartIntervalsAreFollowed() throws {
        let plain = Self.picture(width: 160, height: 96, subsampling: TJSAMP_420)
        let restarted = try Fixture.withRestarts(plain, every: "3B")
        #expect(restarted.contains(0xDD) && restarted != plain)
        let r = try Self.compare(restarted, denominator: 4)
        #expect(r.max <= 1 && r.mean < 0.1, "max \(r.max) mean \(r.mean)")
    }

    @Test func unsupportedStreamsFallBackToLibjpegTurbo() throws {
        let progressive = Self.picture(width: 96, height: 64, subsampling: TJSAMP_420, flags: Int32(TJFLAG_PROGRESSIVE))
        let header = JPEGHeader()
        #expect(!progressive.withUnsafeBytes { header.parse($0) })
        let r = try Self.compare(progressive, denominator: 4)
        #expect(r.max <= 8, "libjpeg-turbo's scaled IDCT, max \(r.max)")
        let odd = Self.picture(width: 96, height: 64, subsampling: TJSAMP_411)
        #expect(try odd.withUnsafeBytes { try JPEGDecoder().decode(Self.frame($0), minWidth: 24, minHeight: 16) }.format == .bgra)
    }

    /// A byte where a marker should be (some webcams write one after a segment) is skipped, as
    /// libjpeg does: both paths show the picture the clean stream gives.
    @Test func aStrayByteBeforeAMarkerIsSkipped() throws {
        let clean = Self.picture(width: 160, height: 96, subsampling: TJSAMP_420)
        var stray = clean
        stray.insert(0x00, at: 4 + (Int(clean[4]) << 8 | Int(clean[5])))  // after the first segment
        #expect(stray.withUnsafeBytes { JPEGHeader().parse($0) })
        #expect(try stray.withUnsafeBytes { try JPEGDecoder(reducedDecoding: false).header(of: $0) } == (160, 96))
        for minWidth in [160, 40] {
            func lumaSum(_ jpeg: [UInt8]) throws -> Int {
                let decoder = JPEGDecoder()  // owns the picture's planes
                return try jpeg.withUnsafeBytes { bytes in
                    let f = try decoder.decode(Self.frame(bytes), minWidth: minWidth, minHeight: minWidth * 3 / 5)
                    let y = Self.planes(of: f)[0]
                    return (0..<y.height).reduce(0) { sum, row in sum + (0..<y.width).reduce(0) { $0 + y.at($1, row) } }
                }
            }
            #expect(try lumaSum(stray) == lumaSum(clean), "at \(minWidth) px wide")
        }
    }

    /// An RGB JPEG (`cjpeg -rgb`: Adobe transform 0, components 'R', 'G', 'B') is not Y′CbCr: red
    /// shows red at full size and reduced alike.
    @Test func anRGBJPEGShowsItsColours() throws {
        let (w, h) = (64, 48)
        var ppm = [UInt8]("P6 \(w) \(h) 255\n".utf8)
        for _ in 0..<(w * h) { ppm += [230, 20, 20] }
        let input = Fixture.file(ppm, name: "red.ppm")
        let cjpeg = Process()
        cjpeg.executableURL = URL(fileURLWithPath: "/usr/bin/cjpeg")
        cjpeg.arguments = ["-rgb", "-quality", "95", input]
        let out = Pipe()
        cjpeg.standardOutput = out
        try cjpeg.run()
        let jpeg = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        cjpeg.waitUntilExit()
        #expect(cjpeg.terminationStatus == 0 && jpeg.count > 100)
        #expect(!jpeg.withUnsafeBytes { JPEGHeader().parse($0) }, "the reduced decoder leaves RGB to libjpeg-turbo")
        for minWidth in [w, w / 4] {
            let decoder = JPEGDecoder()  // owns the picture's planes
            let pixel = try jpeg.withUnsafeBytes { bytes -> [Int] in
                let f = try decoder.decode(Self.frame(bytes), minWidth: minWidth, minHeight: minWidth * 3 / 4)
                #expect(f.format == .bgra)
                let o = (f.height / 2) * f.plane0.stride + (f.width / 2) * 4
                return (0..<3).map { Int(f.plane0.base.load(fromByteOffset: o + $0, as: UInt8.self)) }
            }
            #expect(abs(pixel[2] - 230) <= 6 && abs(pixel[1] - 20) <= 6 && abs(pixel[0] - 20) <= 6, "B, G, R = \(pixel) at \(minWidth) px wide")
        }
    }

    @Test func corruptDataNeverReadsPastTheBuffer() throws {
        var jpeg = Self.picture(width: 128, height: 96, subsampling: TJSAMP_422)
        let start = Fixture.entropyStart(jpeg)
        var rng = SplitMix(seed: 9)
        let decoder = JPEGDecoder()
        for round in 0..<40 {
            var damaged = jpeg
            for _ in 0..<8 { damaged[start + Int(rng.next() % UInt64(jpeg.count - start - 2))] = UInt8(truncatingIfNeeded: rng.next()) }
            if round % 4 == 0 { damaged.removeLast(Int(rng.next() % UInt64(jpeg.count - start))) }
            _ = try? damaged.withUnsafeBytes { try decoder.decode(Self.frame($0), minWidth: 32, minHeight: 24) }
        }
        for _ in 0..<200 {  // damaged headers: refused or decoded, never a crash
            var damaged = jpeg
            for _ in 0..<3 { damaged[2 + Int(rng.next() % UInt64(start - 2))] = UInt8(truncatingIfNeeded: rng.next()) }
            _ = try? damaged.withUnsafeBytes { try decoder.decode(Self.frame($0), minWidth: 32, minHeight: 24) }
        }
        jpeg.removeLast(jpeg.count - start - 10)  // entropy data cut off: the picture is still returned
        let cut = try jpeg.withUnsafeBytes { try decoder.decode(Self.frame($0), minWidth: 32, minHeight: 24) }
        #expect(cut.width == 32 && cut.height == 24)
    }

    /// A header claiming 65535×65535 (a later frame of a stream, whose first was checked) is
    /// refused as corrupt before its output is made: no 200 MB picture, no 5 GB of records.
    @Test func aHugeClaimedSizeIsCorrupt() throws {
        var jpeg = Self.picture(width: 64, height: 48, subsampling: TJSAMP_444)
        let sof = try #require((0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        for i in 5..<9 { jpeg[sof + i] = 0xFF }  // height, then width: 65535 each
        let decoder = JPEGDecoder()
        let before = decoder.allocations
        #expect(throws: JPEGError.self) { try jpeg.withUnsafeBytes { try decoder.decode(Self.frame($0), minWidth: 480, minHeight: 270) } }
        #expect(decoder.allocations == before, "made buffers for it: \(before) → \(decoder.allocations)")
    }

    @Test func zigZagOrderIsTheStandardOne() {
        #expect(Array(ZigZag.natural.prefix(10)) == [0, 1, 8, 16, 9, 2, 3, 10, 17, 24])
        #expect(Array(ZigZag.natural.suffix(4)) == [61, 54, 47, 55, 62, 63].suffix(4))
        #expect(Set(ZigZag.natural) == Set(0..<64))
    }

    /// The picture without its DHT segments, as many Motion-JPEG cameras send it.
    static func withoutHuffmanTables(_ jpeg: [UInt8]) -> [UInt8] {
        var out = Array(jpeg[0..<2]), p = 2
        while p + 4 <= jpeg.count {
            let marker = jpeg[p + 1], length = Int(jpeg[p + 2]) << 8 | Int(jpeg[p + 3])
            if marker == 0xDA { out += jpeg[p...]; break }
            if marker != 0xC4 { out += jpeg[p..<(p + 2 + length)] }
            p += 2 + length
        }
        return out
    }

    @Test func missingHuffmanTablesAreTheStandardOnes() throws {
        // libjpeg-turbo codes with the standard tables unless asked to optimize them.
        let jpeg = Self.picture(width: 160, height: 96, subsampling: TJSAMP_422)
        let bare = Self.withoutHuffmanTables(jpeg)
        #expect(bare.count < jpeg.count - 400)
        let header = JPEGHeader()
        #expect(bare.withUnsafeBytes { header.parse($0) })
        let (full, stripped) = try (Self.compare(jpeg, denominator: 4), Self.compare(bare, denominator: 4))
        #expect(stripped.max <= 1 && stripped.mean < 0.1, "max \(stripped.max) mean \(stripped.mean)")
        #expect(full.mean == stripped.mean)
        // And the tables carried in the source are byte for byte what libjpeg-turbo writes.
        let dht = jpeg.indices.filter { jpeg[$0] == 0xFF && $0 + 1 < jpeg.count && jpeg[$0 + 1] == 0xC4 }
        let body = dht.flatMap { i -> [UInt8] in
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            return Array(jpeg[(i + 4)..<(i + 2 + length)])
        }
        var tables: [UInt8: [UInt8]] = [:], expected: [UInt8: [UInt8]] = [:]
        func split(_ b: [UInt8], into d: inout [UInt8: [UInt8]]) {
            var p = 0
            while p < b.count {
                let n = b[(p + 1)..<(p + 17)].reduce(0) { $0 + Int($1) }
                d[b[p]] = Array(b[p..<(p + 17 + n)])
                p += 17 + n
            }
        }
        split(body, into: &tables)
        split(StandardHuffmanTables.segment, into: &expected)
        #expect(tables == expected)
    }
}
