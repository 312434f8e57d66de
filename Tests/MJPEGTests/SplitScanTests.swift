import CTurboJPEG
@testable import MJPEG
import PipCore
import TestSupport
import Testing

/// The two-thread reduced decoder (`SplitScan`) against the one-thread one: the same picture, byte
/// for byte, whether the two halves meet, and whatever the data.
@Suite struct SplitScanTests {
    typealias Pictures = ReducedJPEGDecoderTests

    /// Every visible byte of the frame's planes.
    static func bytes(_ frame: VideoFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        for p in Pictures.planes(of: frame) {
            for y in 0..<p.height {
                let row = (p.plane.base + y * p.plane.stride).assumingMemoryBound(to: UInt8.self)
                bytes.append(contentsOf: UnsafeBufferPointer(start: row, count: p.width))
            }
        }
        return bytes
    }

    /// Decodes `jpeg` with both decoders; returns both pictures and where the split decoder's halves met.
    static func decodeBoth(_ jpeg: [UInt8], denominator d: Int, split: ReducedJPEGDecoder, single: ReducedJPEGDecoder)
        -> (split: [UInt8]?, single: [UInt8]?, splice: Splice?)
    {
        jpeg.withUnsafeBytes { raw in
            let frame = Pictures.frame(raw)
            guard let size = split.size(of: raw) else { return (nil, nil, nil) }
            let (w, h) = ((size.width + d - 1) / d, (size.height + d - 1) / d)
            let a = split.decode(frame, minWidth: w, minHeight: h).map(bytes)
            let splice = split.split?.lastSplice
            let b = single.decode(frame, minWidth: w, minHeight: h).map(bytes)
            return (a, b, splice)
        }
    }

    static func entropyBytes(_ jpeg: [UInt8]) -> Int { jpeg.count - Fixture.entropyStart(jpeg) - 2 }

    /// A two-thread decoder whose second thread is never late (`waitForSecondThreadEachTime`): a
    /// test that pictures are split then holds however busy the machine is.
    static func twoThreads() -> ReducedJPEGDecoder {
        let decoder = ReducedJPEGDecoder(threads: 2)
        decoder.split?.progress.waitForSecondThreadEachTime()
        return decoder
    }

    /// A two-thread decoder whose next split is at `splitPermille` (its second thread never late
    /// unless `inOrder` is false), its `SplitScan`, and a one-thread decoder.
    static func decoders(splitPermille: Int, inOrder: Bool = true) throws
        -> (split: ReducedJPEGDecoder, single: ReducedJPEGDecoder, scan: SplitScan)
    {
        let split = inOrder ? twoThreads() : ReducedJPEGDecoder(threads: 2)
        let scan = try #require(split.split)
        scan.splitPermille = splitPermille
        return (split, ReducedJPEGDecoder(threads: 1), scan)
    }

    @Test(arguments: [TJSAMP_420, TJSAMP_422, TJSAMP_444, TJSAMP_GRAY])
    func splitPictureIsTheOneThreadPicture(subsampling: TJSAMP) throws {
        let jpeg = Pictures.picture(width: 1280, height: 720, subsampling: subsampling, quality: 95)
        #expect(Self.entropyBytes(jpeg) >= SplitScan.minimumBytes, "too small to be split")
        let split = Self.twoThreads(), single = ReducedJPEGDecoder(threads: 1)
        #expect(single.split == nil)
        for d in [8, 2, 1, 4] {  // 1/2 after 1/8, full size after 1/2: the records grow in between
            let r = Self.decodeBoth(jpeg, denominator: d, split: split, single: single)
            #expect(r.split != nil && r.split == r.single, "\(subsampling) 1/\(d)")
            let splice = try #require(r.splice, "\(subsampling) 1/\(d): the halves did not meet")
            // They met past the middle, soon after the second parser's start.
            let blocks = r.single!.count  // a bound only: more pixels than blocks
            #expect(splice.block > 0 && splice.block < blocks && splice.record < 2_000, "\(splice)")
        }
    }

    @Test func anySplitPointGivesTheOneThreadPictureAndTheNextComesFromTheCosts() throws {
        let jpeg = Pictures.picture(width: 1280, height: 720, subsampling: TJSAMP_422, quality: 95)
        let split = Self.twoThreads(), single = ReducedJPEGDecoder(threads: 1)
        let scan = try #require(split.split)
        // Prepared: a first split on new records is not learned from.
        split.prepare(width: 1280, height: 720, minWidth: 320, minHeight: 180)
        let range = SplitScan.splitRange
        for start in [range.lowerBound, 400, 600, range.upperBound] {
            scan.splitPermille = start
            let r = Self.decodeBoth(jpeg, denominator: 4, split: split, single: single)
            #expect(r.split != nil && r.split == r.single, "split at \(start) ‰")
            #expect(r.splice != nil, "split at \(start) ‰: the halves did not meet")
            // Both threads were timed, and the next split is where those costs balance.
            let bits = (Self.entropyBytes(jpeg) - 2) * 8  // less the stuffing: a bound that is close enough
            let expected = try #require(scan.balance.permille(totalBits: bits, range: range), "no costs after a split")
            #expect(abs(scan.splitPermille - expected) <= 10, "\(start) → \(scan.splitPermille), costs say \(expected)")
            #expect(scan.balance.decode! > 0 && scan.balance.record! > 0 && scan.balance.assemble! > 0)
        }
    }

    /// A recording thread that starts late (here: once the first thread has passed its planned
    /// start) starts ahead of the first thread instead, so the two still meet.
    @Test(arguments: [400, 600])
    func aLateSecondThreadStartsAheadOfTheFirst(splitPermille: Int) throws {
        let jpeg = Pictures.picture(width: 1280, height: 720, subsampling: TJSAMP_422, quality: 95)
        let (split, single, scan) = try Self.decoders(splitPermille: splitPermille, inOrder: false)
        // An eighth of the scan past the planned start: recording from there, the thread could not catch up.
        let bytes = Self.entropyBytes(jpeg) - 2
        scan.progress.holdRecordingUntilFirstThreadPasses(bit: (bytes * splitPermille / 1000 + bytes / 8) * 8)
        let r = Self.decodeBoth(jpeg, denominator: 4, split: split, single: single)
        #expect(r.split != nil && r.split == r.single, "split at \(splitPermille) ‰")
        #expect(r.splice != nil, "split at \(splitPermille) ‰: the late thread's records were all behind the first")
    }

    @Test func lateStartIsHalfwayFromTheFirstThreadToTheEnd() {
        let count = 160_000, planned = 80_000
        #expect(SplitScan.recordingStart(planned: planned, firstThread: 1_000, count: count) == planned)
        #expect(SplitScan.recordingStart(planned: planned, firstThread: planned - count / 16 - 1, count: count) == planned)
        #expect(SplitScan.recordingStart(planned: planned, firstThread: planned - count / 16, count: count) == (planned - count / 16 + count) / 2)
        #expect(SplitScan.recordingStart(planned: planned, firstThread: 100_000, count: count) == 130_000)
    }

    /// A recording thread that stops (as if descheduled) after the two met: the first thread
    /// decodes on by itself from the last record instead of waiting, and meets the records again
    /// or finishes alone; the picture is the one-thread picture either way.
    @Test(arguments: [500, 700])
    func firstThreadDecodesOnWhenTheRecordsStop(splitPermille: Int) throws {
        let jpeg = Pictures.picture(width: 1280, height: 720, subsampling: TJSAMP_420, quality: 95)
        let (split, single, scan) = try Self.decoders(splitPermille: splitPermille)
        // Far longer than the first thread's wait for records.
        scan.progress.pauseRecordingOnceMet(microseconds: 5_000)
        let before = scan.steals
        let r = Self.decodeBoth(jpeg, denominator: 4, split: split, single: single)
        #expect(r.split != nil && r.split == r.single, "split at \(splitPermille) ‰")
        #expect(r.splice != nil, "the halves did not meet")
        #expect(scan.steals > before, "the first thread waited out the pause")
    }

    @Test func smallPicturesStayOnOneThread() throws {
        let jpeg = Pictures.picture(width: 160, height: 96, subsampling: TJSAMP_420)
        #expect(Self.entropyBytes(jpeg) < SplitScan.minimumBytes)
        let split = ReducedJPEGDecoder(threads: 2), single = ReducedJPEGDecoder(threads: 1)
        let r = Self.decodeBoth(jpeg, denominator: 4, split: split, single: single)
        #expect(r.split != nil && r.split == r.single && r.splice == nil)
    }

    @Test func damagedDataGivesTheOneThreadPicture() throws {
        let jpeg = Pictures.picture(width: 1024, height: 576, subsampling: TJSAMP_422, quality: 95)
        let start = Fixture.entropyStart(jpeg)
        var rng = SplitMix(seed: 21)
        let split = Self.twoThreads(), single = ReducedJPEGDecoder(threads: 1)
        var met = 0
        for round in 0..<24 {
            var damaged = jpeg
            // Mostly in the second half, where the second parser starts and the two must meet.
            for _ in 0..<(1 + round % 6) {
                let at = start + (jpeg.count - start) / 3 + Int(rng.next() % UInt64((jpeg.count - start) * 2 / 3 - 2))
                damaged[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            if round % 5 == 4 { damaged.removeLast(Int(rng.next() % UInt64((jpeg.count - start) / 2))) }
            let r = Self.decodeBoth(damaged, denominator: 4, split: split, single: single)
            #expect(r.split == r.single, "round \(round)")
            if r.splice != nil { met += 1 }
        }
        #expect(met > 0, "the halves never met: the test no longer covers splicing")
    }

    @Test func watchFindsOnlyAStartInTheSameSlot() {
        let records = BlockRecords()
        records.reserve(blocks: 8, sumStride: 16)
        let progress = SplitProgress()
        for (i, (bit, slot)) in [(100, 0), (140, 1), (190, 2), (260, 0), (300, 1)].enumerated() {
            records.starts[i] = Int64(bit) << 8 | Int64(slot)
        }
        var watch = SpliceWatch(records: records, progress: progress, startBit: 100)
        progress.publish(3)
        #expect(watch.match(bitOffset: 120, slot: 1) == nil)  // no record starts there
        #expect(watch.match(bitOffset: 140, slot: 0) == nil)  // a start, but of another slot
        #expect(watch.match(bitOffset: 190, slot: 2) == 2)
        #expect(watch.match(bitOffset: 260, slot: 0) == nil && !watch.isHopeless)  // not published yet
        progress.publish(5)
        #expect(watch.match(bitOffset: 260, slot: 0) == 3)
        progress.finish()
        #expect(watch.match(bitOffset: 400, slot: 1) == nil && watch.isHopeless)
    }
}
