import CTurboJPEG
@testable import MJPEG
import PipCore
import TestSupport
import Testing

/// What the reduced decoder reports as it finishes rows (`DecodedRows`): only rows that are final,
/// in order, on one thread or two, also when the first thread decodes on by itself.
@Suite struct DecodedRowsTests {
    typealias Pictures = ReducedJPEGDecoderTests

    /// Keeps, at each report, a copy of the reported rows of every plane as they were then.
    final class RowLog: DecodedRows {
        var reports: [Int] = []
        /// Per plane, the rows as first reported.
        var seen: [[[UInt8]]] = []

        func decoded(_ picture: VideoFrame, rows: Int) {
            let planes = Pictures.planes(of: picture)
            if seen.isEmpty { seen = Array(repeating: [], count: planes.count) }
            for (i, p) in planes.enumerated() {
                // Chroma planes of 4:2:0 have half the rows.
                let planeRows = p.height < picture.height ? (rows + 1) / 2 : rows
                let done = rows == picture.height ? p.height : min(planeRows, p.height)
                while seen[i].count < done {
                    let y = seen[i].count
                    seen[i].append((0..<p.width).map { UInt8(p.at($0, y)) })
                }
            }
            reports.append(rows)
        }

        /// Whether every row kept equals the finished picture's row.
        func matches(_ picture: VideoFrame) -> Bool {
            for (i, p) in Pictures.planes(of: picture).enumerated() where i < seen.count {
                for (y, row) in seen[i].enumerated() where row != (0..<p.width).map({ UInt8(p.at($0, y)) }) {
                    return false
                }
            }
            return true
        }
    }

    /// Decodes `jpeg` at 1/4 with `decoder`, logging the rows it reports.
    static func decode(_ jpeg: [UInt8], with decoder: ReducedJPEGDecoder) throws -> (VideoFrame, RowLog) {
        let log = RowLog()
        let picture = try jpeg.withUnsafeBytes { raw -> VideoFrame in
            let size = try #require(decoder.size(of: raw))
            return try #require(decoder.decode(
                Pictures.frame(raw), minWidth: (size.width + 3) / 4, minHeight: (size.height + 3) / 4, rows: log))
        }
        return (picture, log)
    }

    @Test(arguments: [TJSAMP_420, TJSAMP_422, TJSAMP_GRAY])
    func reportedRowsAreFinalAndInOrder(subsampling: TJSAMP) throws {
        let jpeg = Pictures.picture(width: 1280, height: 720, subsampling: subsampling, quality: 95)
        for threads in [1, 2] {
            let decoder = threads == 2 ? SplitScanTests.twoThreads() : ReducedJPEGDecoder(threads: 1)
            for _ in 0..<3 {  // the split point moves between pictures
                let (picture, log) = try Self.decode(jpeg, with: decoder)
                #expect(!log.reports.isEmpty && log.reports == log.reports.sorted(), "\(subsampling), \(threads) threads")
                #expect(log.reports.allSatisfy { $0 > 0 && $0 <= picture.height })
                #expect(log.matches(picture), "\(subsampling), \(threads) threads: a row changed after it was reported")
                if threads == 1 { #expect(log.reports.last == picture.height) }
            }
            if threads == 2 { #expect(decoder.split?.lastSplice != nil, "the halves did not meet") }
            withExtendedLifetime(decoder) {}  // it owns the pictures' planes
        }
    }

    /// Restart intervals (one thread, each interval byte-aligned with fresh predictors) and
    /// damaged data (two threads; the scan may end early or the halves never meet): rows reported
    /// are final all the same.
    @Test func restartsAndDamageReportOnlyFinalRows() throws {
        let restarted = try Fixture.withRestarts(
            Pictures.picture(width: 640, height: 352, subsampling: TJSAMP_420), every: "5B")
        #expect(restarted.contains(0xDD))
        let restartDecoder = ReducedJPEGDecoder(threads: 2)  // owns the picture's planes
        let (picture, log) = try Self.decode(restarted, with: restartDecoder)
        #expect(log.reports.last == picture.height && log.reports == log.reports.sorted() && log.matches(picture))
        withExtendedLifetime(restartDecoder) {}

        let jpeg = Pictures.picture(width: 1024, height: 576, subsampling: TJSAMP_422, quality: 95)
        var rng = SplitMix(seed: 5)
        let decoder = ReducedJPEGDecoder(threads: 2)
        for round in 0..<12 {
            let damaged = Fixture.damaged(jpeg, changes: 1 + round % 4, truncate: round % 3 == 2, rng: &rng)
            let (picture, log) = try Self.decode(damaged, with: decoder)
            #expect(log.reports == log.reports.sorted() && log.matches(picture), "round \(round)")
        }
        withExtendedLifetime(decoder) {}
    }

    /// The recording thread stops after the two met: the first decodes on by itself and meets the
    /// records again or finishes alone; rows reported on the way are final all the same.
    @Test func rowsReportedWhileDecodingOnAloneAreFinal() throws {
        let jpeg = Pictures.picture(width: 1280, height: 720, subsampling: TJSAMP_422, quality: 95)
        let decoder = SplitScanTests.twoThreads()
        let scan = try #require(decoder.split)
        scan.splitPermille = 500
        scan.progress.pauseRecordingOnceMet(microseconds: 5_000)
        let before = scan.steals
        let (picture, log) = try Self.decode(jpeg, with: decoder)
        #expect(scan.steals > before, "the first thread waited out the pause")
        #expect(log.reports == log.reports.sorted() && log.matches(picture))
        #expect(log.reports.count > 1)
        withExtendedLifetime(decoder) {}
    }
}
