import CTurboJPEG
import Testing

@testable import CameraSource

/// `ReducedJPEGDecoder.prepare`: what a stream's first picture needs is made before it arrives, and
/// a picture that paid for new memory does not steer where the next split goes.
@Suite struct DecoderWarmUpTests {
    typealias Pictures = ReducedJPEGDecoderTests
    typealias Split = SplitScanTests

    static let width = 1280, height = 720

    /// The picture decoded at 1/4 by `decoder`.
    static func decode(_ jpeg: [UInt8], with decoder: ReducedJPEGDecoder) -> [UInt8]? {
        jpeg.withUnsafeBytes { raw in
            decoder.decode(Pictures.frame(raw), minWidth: width / 4, minHeight: height / 4).map(Split.bytes)
        }
    }

    @Test(arguments: [TJSAMP_422, TJSAMP_420])
    func aPreparedDecoderMakesNothingForTheFirstPicture(subsampling: TJSAMP) throws {
        let jpeg = Pictures.picture(width: Self.width, height: Self.height, subsampling: subsampling, quality: 30)
        let entropy = Split.entropyBytes(jpeg)
        #expect(entropy >= SplitScan.minimumBytes && entropy <= Self.width * Self.height / 4, "\(entropy) bytes")
        let prepared = ReducedJPEGDecoder(threads: 2), single = ReducedJPEGDecoder(threads: 1)
        prepared.prepare(width: Self.width, height: Self.height, minWidth: Self.width / 4, minHeight: Self.height / 4)
        let made = prepared.allocations
        let r = Split.decodeBoth(jpeg, denominator: 4, split: prepared, single: single)
        #expect(prepared.allocations == made, "the first picture made \(prepared.allocations - made) buffers")
        #expect(r.split != nil && r.split == r.single)
        #expect(r.splice != nil, "the halves did not meet")
        // Unprepared, the same picture makes them (the count is not stuck).
        let cold = ReducedJPEGDecoder(threads: 2)
        let before = cold.allocations
        #expect(Self.decode(jpeg, with: cold) == r.single)
        #expect(cold.allocations >= before + 3, "output, entropy data and records")
    }

    @Test func aSplitOnNewRecordsIsNotLearnedFrom() throws {
        let jpeg = Pictures.picture(width: Self.width, height: Self.height, subsampling: TJSAMP_422, quality: 95)
        let cold = ReducedJPEGDecoder(threads: 2)
        let coldScan = try #require(cold.split)
        _ = Self.decode(jpeg, with: cold)
        #expect(coldScan.lastSplice != nil)
        #expect(coldScan.balance.decode == nil && coldScan.splitPermille == 500)
        _ = Self.decode(jpeg, with: cold)
        #expect(coldScan.balance.decode != nil, "the second split is learned from")

        let prepared = ReducedJPEGDecoder(threads: 2)
        let scan = try #require(prepared.split)
        prepared.prepare(width: Self.width, height: Self.height, minWidth: Self.width / 4, minHeight: Self.height / 4)
        _ = Self.decode(jpeg, with: prepared)
        #expect(scan.lastSplice != nil)
        #expect(scan.balance.decode != nil, "prepared records: the first split is learned from")
    }

    @Test func streamsThatAreNotReducedOrSplitGetNothingTheyDoNotUse() throws {
        let decoder = ReducedJPEGDecoder(threads: 2)
        let before = decoder.allocations
        // Shown at full size: libjpeg-turbo decodes it, not this decoder.
        decoder.prepare(width: 640, height: 360, minWidth: 640, minHeight: 360)
        #expect(decoder.allocations == before)
        // Too small to be split: output and entropy room, no records.
        decoder.prepare(width: 320, height: 240, minWidth: 80, minHeight: 60)
        #expect(decoder.allocations > before)
        #expect(try #require(decoder.split).recordAllocations == 0)
    }
}
