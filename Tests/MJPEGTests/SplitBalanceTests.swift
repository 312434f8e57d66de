@testable import MJPEG
import Testing

/// Where the split decode's second thread starts, from the measured costs (`SplitBalance`).
@Suite struct SplitBalanceTests {
    static let bits = 2_000_000
    static let range = SplitScan.splitRange

    static func sample(decode: Double, record: Double, assemble: Double = 0, delay: UInt64 = 0) -> SplitBalance.Sample {
        // Half the scan each, as if split in the middle; costs in ns per bit.
        let half = bits / 2
        return SplitBalance.Sample(
            decodeNanoseconds: UInt64(decode * Double(half)), decodeBits: half,
            recordNanoseconds: UInt64(record * Double(half)), recordBits: half,
            assembleNanoseconds: UInt64(assemble * Double(half)), assembleBits: half, delayNanoseconds: delay)
    }

    @Test func noSplitPointBeforeBothThreadsWereTimed() {
        var balance = SplitBalance()
        #expect(balance.permille(totalBits: Self.bits, range: Self.range) == nil)
        balance.note(SplitBalance.Sample(  // too few bits recorded to count
            decodeNanoseconds: 1000, decodeBits: 100_000, recordNanoseconds: 10, recordBits: 10,
            assembleNanoseconds: 0, assembleBits: 0, delayNanoseconds: 0))
        #expect(balance.record == nil && balance.permille(totalBits: Self.bits, range: Self.range) == nil)
    }

    @Test func equalThreadsMeetInTheMiddleAndAssemblingMovesTheSplitBack() {
        var balance = SplitBalance()
        balance.note(Self.sample(decode: 1, record: 1))
        #expect(balance.permille(totalBits: Self.bits, range: Self.range) == 500)
        // Assembling 0.2 ns per bit on the first thread: m·1 + (B − m)·0.2 = (B − m)·1 → m = 0.8/1.8 B.
        var assembling = SplitBalance()
        assembling.note(Self.sample(decode: 1, record: 1, assemble: 0.2))
        #expect(assembling.permille(totalBits: Self.bits, range: Self.range) == 444)
        // A start delay of 0.2 ms is 0.1 % of the scan per 2 µs: m = (200 000 + B) / 2.
        var late = SplitBalance()
        late.note(Self.sample(decode: 1, record: 1, delay: 200_000))
        late.note(Self.sample(decode: 1, record: 1, delay: 200_000))
        #expect(late.delay == Double(SplitBalance.largestDelayNanoseconds) * 0.75)  // capped, then averaged from 0
        #expect(late.permille(totalBits: Self.bits, range: Self.range) == 519)
    }

    @Test func aSlowerThreadGetsLessAndTheRangeHolds() {
        var slowFirst = SplitBalance()
        slowFirst.note(Self.sample(decode: 2, record: 1))
        #expect(slowFirst.permille(totalBits: Self.bits, range: Self.range) == 333)
        var slowSecond = SplitBalance()
        slowSecond.note(Self.sample(decode: 1, record: 2))
        #expect(slowSecond.permille(totalBits: Self.bits, range: Self.range) == 667)
        var verySlowSecond = SplitBalance()
        verySlowSecond.note(Self.sample(decode: 1, record: 10))
        #expect(verySlowSecond.permille(totalBits: Self.bits, range: Self.range) == Self.range.upperBound)
    }

    /// One slow picture moves a cost by at most `largestStep` before averaging; a lasting change
    /// is followed within a few pictures.
    @Test func costsFollowLastingChangesAndDampOneOffs() throws {
        var balance = SplitBalance()
        balance.note(Self.sample(decode: 1, record: 1))
        balance.note(Self.sample(decode: 1, record: 10))  // the second thread descheduled once
        #expect(balance.record == (1 + SplitBalance.largestStep) / 2)
        balance.note(Self.sample(decode: 1, record: 1))
        #expect(try #require(balance.record) < 1.15)
        var phase = SplitBalance()
        phase.note(Self.sample(decode: 1, record: 1))
        for _ in 0..<4 { phase.note(Self.sample(decode: 2, record: 1)) }
        #expect(try #require(phase.decode) > 1.8)
        #expect(try #require(phase.permille(totalBits: Self.bits, range: Self.range)) < 360)
    }
}
