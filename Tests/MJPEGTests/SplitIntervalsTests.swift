import CTurboJPEG
@testable import MJPEG
import PipCore
import TestSupport
import Testing

/// Scans with restart intervals (what many UVC cameras send) on two threads: split at an interval,
/// each thread decoding its own intervals; the picture is the one-thread picture byte for byte.
@Suite struct SplitIntervalsTests {
    typealias Pictures = ReducedJPEGDecoderTests
    typealias Both = SplitScanTests

    /// A 1280×720 picture with a restart marker every `interval` (jpegtran's `-restart`: MCU rows, or blocks with `B`).
    static func restarted(_ subsampling: TJSAMP, every interval: String) throws -> [UInt8] {
        let plain = Pictures.picture(width: 1280, height: 720, subsampling: subsampling, quality: 95)
        return try Fixture.withRestarts(plain, every: interval)
    }

    @Test(arguments: [TJSAMP_420, TJSAMP_422, TJSAMP_444, TJSAMP_GRAY], ["1", "7B"])
    func splitAtAnIntervalIsTheOneThreadPicture(subsampling: TJSAMP, interval: String) throws {
        let jpeg = try Self.restarted(subsampling, every: interval)
        #expect(Both.entropyBytes(jpeg) >= SplitScan.minimumBytes, "too small to be split")
        let split = Both.twoThreads(), single = ReducedJPEGDecoder(threads: 1)
        let scan = try #require(split.split)
        for d in [8, 2, 1] {
            let r = Both.decodeBoth(jpeg, denominator: d, split: split, single: single)
            #expect(r.split != nil && r.split == r.single, "\(subsampling) every \(interval), 1/\(d)")
            let at = try #require(scan.lastIntervalSplit, "\(subsampling) every \(interval), 1/\(d): not split")
            // Near the bytes' middle the first time, where the costs put it later.
            #expect(at > 0 && r.splice == nil)
        }
    }

    @Test func theSplitFollowsTheCostsOfBothParts() throws {
        let jpeg = try Self.restarted(TJSAMP_422, every: "1")
        let split = Both.twoThreads(), single = ReducedJPEGDecoder(threads: 1)
        let scan = try #require(split.split)
        var intervals: [Int] = []
        for start in [SplitScan.splitRange.lowerBound, SplitScan.splitRange.upperBound] {
            scan.intervalPermille = start
            let r = Both.decodeBoth(jpeg, denominator: 4, split: split, single: single)
            #expect(r.split == r.single)
            intervals.append(try #require(scan.lastIntervalSplit))
            let expected = try #require(scan.intervalBalance.permille(totalBits: (Both.entropyBytes(jpeg) - 2) * 8, range: SplitScan.splitRange))
            #expect(scan.intervalPermille == expected, "\(start) ‰ → \(scan.intervalPermille), costs say \(expected)")
        }
        // 720 lines of 4:2:2 from libjpeg-turbo: 90 MCU rows of 8, one interval each.
        #expect(intervals[0] < 90 / 2 && intervals[1] > 90 / 2, "split at intervals \(intervals)")
    }

    @Test func aSecondThreadThatStartsLateLeavesItsPartToTheFirst() throws {
        let jpeg = try Self.restarted(TJSAMP_420, every: "2")
        let split = ReducedJPEGDecoder(threads: 2), single = ReducedJPEGDecoder(threads: 1)
        let scan = try #require(split.split)
        _ = Both.decodeBoth(jpeg, denominator: 4, split: split, single: single)  // the thread is up
        scan.progress.holdIntervalsUntilFirstThreadIsDone()
        let r = Both.decodeBoth(jpeg, denominator: 4, split: split, single: single)
        #expect(r.split != nil && r.split == r.single)
        #expect(scan.lastIntervalSplit == nil, "the first thread waited for the late one")
        // And the next picture is split again (its second thread not late).
        scan.progress.waitForSecondThreadEachTime()
        let next = Both.decodeBoth(jpeg, denominator: 4, split: split, single: single)
        #expect(next.split == next.single && scan.lastIntervalSplit != nil)
    }

    @Test func damagedIntervalsGiveTheOneThreadPicture() throws {
        let jpeg = try Self.restarted(TJSAMP_422, every: "1")
        var rng = SplitMix(seed: 33)
        let split = ReducedJPEGDecoder(threads: 2), single = ReducedJPEGDecoder(threads: 1)
        for round in 0..<8 {
            let damaged = Fixture.damaged(jpeg, changes: 1 + round % 4, truncate: round % 4 == 3, rng: &rng)
            let r = Both.decodeBoth(damaged, denominator: 4, split: split, single: single)
            #expect(r.split == r.single, "round \(round)")
        }
    }

    /// Rows reported while splitting at intervals are final, in order, and end at the last row.
    @Test func rowsReportedAreFinal() throws {
        let jpeg = try Self.restarted(TJSAMP_420, every: "1")
        let decoder = Both.twoThreads()
        let (picture, log) = try DecodedRowsTests.decode(jpeg, with: decoder)
        #expect(decoder.split?.lastIntervalSplit != nil)
        #expect(log.reports == log.reports.sorted() && log.reports.last == picture.height && log.reports.count > 2)
        #expect(log.matches(picture))
    }
}
