import CTurboJPEG
@testable import MJPEG
import TestSupport
import Testing

/// `ReducedJPEGDecoder.prepare`: what a stream's first picture needs is made before it arrives, and
/// a picture that paid for new memory does not steer where the next split goes.
@Suite struct DecoderWarmUpTests {
    typealias Pictures = ReducedJPEGDecoderTests
    typealias Split = SplitScanTests

    // Not a multiple of 16 lines: the two 4:2:2 layouts then need different sizes.
    static let width = 1280, height = 712

    /// The picture decoded at 1/`d` (1/4 unless told) by `decoder`.
    static func decode(_ jpeg: [UInt8], with decoder: ReducedJPEGDecoder, denominator d: Int = 4) -> [UInt8]? {
        jpeg.withUnsafeBytes { raw in
            decoder.decode(Pictures.frame(raw), minWidth: width / d, minHeight: height / d).map(Split.bytes)
        }
    }

    /// How the test picture is encoded.
    enum Encoding: String, CaseIterable, CustomTestStringConvertible {
        /// libjpeg-turbo: 4:2:2 as 2×1 luma blocks per MCU, 4:2:0 as 2×2.
        case turbo422, turbo420
        /// ffmpeg: 4:2:2 as 2×2 luma and 1×2 chroma blocks per MCU.
        case ffmpeg422
        var testDescription: String { rawValue }

        func picture() throws -> [UInt8] {
            let (w, h) = (DecoderWarmUpTests.width, DecoderWarmUpTests.height)
            switch self {
            case .turbo422: return Pictures.picture(width: w, height: h, subsampling: TJSAMP_422, quality: 30)
            case .turbo420: return Pictures.picture(width: w, height: h, subsampling: TJSAMP_420, quality: 30)
            case .ffmpeg422: return try Fixture.ffmpegJPEG(width: w, height: h, quality: 2)
            }
        }
    }

    /// At 1/4 and at full size (a main window shown large), whose records are eight times wider.
    @Test(arguments: Encoding.allCases, [4, 1])
    func aPreparedDecoderMakesNothingForTheFirstPicture(encoding: Encoding, denominator d: Int) throws {
        let jpeg = try encoding.picture()
        let entropy = Split.entropyBytes(jpeg)
        #expect(entropy >= SplitScan.minimumBytes && entropy <= Self.width * Self.height / 4, "\(entropy) bytes")
        let prepared = Split.twoThreads(), single = ReducedJPEGDecoder(threads: 1)
        prepared.prepare(width: Self.width, height: Self.height, minWidth: Self.width / d, minHeight: Self.height / d)
        let made = prepared.allocations
        let r = Split.decodeBoth(jpeg, denominator: d, split: prepared, single: single)
        #expect(prepared.allocations == made, "the first picture made \(prepared.allocations - made) buffers")
        #expect(r.split != nil && r.split == r.single)
        #expect(r.splice != nil, "the halves did not meet")
        // Unprepared, the same picture makes them (the count is not stuck).
        let cold = ReducedJPEGDecoder(threads: 2)
        let before = cold.allocations
        #expect(Self.decode(jpeg, with: cold, denominator: d) == r.single)
        #expect(cold.allocations >= before + 3, "output, entropy data and records")
    }

    @Test func aSplitOnNewRecordsIsNotLearnedFrom() throws {
        let jpeg = Pictures.picture(width: Self.width, height: Self.height, subsampling: TJSAMP_422, quality: 95)
        let cold = Split.twoThreads()
        let coldScan = try #require(cold.split)
        _ = Self.decode(jpeg, with: cold)
        #expect(coldScan.lastSplice != nil)
        #expect(coldScan.balance.decode == nil && coldScan.splitPermille == 500)
        _ = Self.decode(jpeg, with: cold)
        #expect(coldScan.balance.decode != nil, "the second split is learned from")

        let prepared = Split.twoThreads()
        let scan = try #require(prepared.split)
        prepared.prepare(width: Self.width, height: Self.height, minWidth: Self.width / 4, minHeight: Self.height / 4)
        _ = Self.decode(jpeg, with: prepared)
        #expect(scan.lastSplice != nil)
        #expect(scan.balance.decode != nil, "prepared records: the first split is learned from")
    }

    @Test func streamsTooSmallToSplitGetNoRecords() throws {
        let decoder = ReducedJPEGDecoder(threads: 2)
        let before = decoder.allocations
        // Output and entropy room, no records, reduced or at full size.
        decoder.prepare(width: 320, height: 240, minWidth: 80, minHeight: 60)
        #expect(decoder.allocations > before)
        decoder.prepare(width: 320, height: 240, minWidth: 320, minHeight: 240)
        #expect(try #require(decoder.split).recordAllocations == 0)
    }
}
