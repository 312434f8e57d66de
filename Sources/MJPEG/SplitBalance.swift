/// Where `SplitScan` should start its second thread so that both finish together, from what each
/// part cost on the pictures before.
///
/// The first thread decodes the scan's first `m` bits to pixels (`decode` ns per bit), meets the
/// records and turns the rest into pixels (`assemble` ns per bit), which it can only finish once
/// the second thread, starting `delay` ns late, has recorded the last `B − m` bits (`record` ns per
/// bit). Both end together when `m·decode + (B − m)·assemble = delay + (B − m)·record`.
///
/// The costs follow each picture halfway: a thread that shares its CPU for a while (phases where
/// one thread is much slower happen) moves the split within a few pictures, where fixed small
/// steps took many frames to come back (docs/PERFORMANCE.md, "The split JPEG decode").
struct SplitBalance {
    /// What one split decode measured. Bits are bits of entropy data; a part that did not run has 0.
    struct Sample {
        var decodeNanoseconds: UInt64, decodeBits: Int
        var recordNanoseconds: UInt64, recordBits: Int
        var assembleNanoseconds: UInt64, assembleBits: Int
        /// How much later than the first thread the second started (0 when earlier).
        var delayNanoseconds: UInt64
    }

    /// Smoothed nanoseconds per bit; nil until measured.
    private(set) var decode: Double?, record: Double?, assemble: Double?
    private(set) var delay: Double = 0

    /// Parts shorter than this are not timed well enough to learn from.
    static let minimumBits = 4096
    /// One picture moves a cost by at most this factor before the averaging (then half of it): a
    /// thread descheduled for a millisecond once must not move the next split far, while a phase
    /// of 2× still gets there within three pictures.
    static let largestStep = 1.5
    /// A start delay counts up to this; later starts are the exception `SplitScan` handles itself
    /// (the second thread then starts ahead of the first).
    static let largestDelayNanoseconds: UInt64 = 100_000

    mutating func note(_ sample: Sample) {
        func follow(_ old: Double?, _ nanoseconds: UInt64, _ bits: Int) -> Double? {
            guard bits >= Self.minimumBits else { return old }
            let cost = Double(nanoseconds) / Double(bits)
            guard let old else { return cost }
            return (old + min(max(cost, old / Self.largestStep), old * Self.largestStep)) / 2
        }
        decode = follow(decode, sample.decodeNanoseconds, sample.decodeBits)
        record = follow(record, sample.recordNanoseconds, sample.recordBits)
        assemble = follow(assemble, sample.assembleNanoseconds, sample.assembleBits)
        delay = (delay + Double(min(sample.delayNanoseconds, Self.largestDelayNanoseconds))) / 2
    }

    /// Where the second thread should start in a scan of `totalBits`, in thousandths, within
    /// `range`; nil until both threads' costs are known.
    func permille(totalBits: Int, range: ClosedRange<Int>) -> Int? {
        guard let decode, let record, totalBits > 0 else { return nil }
        let assemble = min(self.assemble ?? 0, decode / 2)
        let m = (delay + Double(totalBits) * (record - assemble)) / (decode + record - assemble)
        let permille = (m / Double(totalBits) * 1000).rounded()
        guard permille.isFinite else { return nil }
        return min(max(Int(permille), range.lowerBound), range.upperBound)
    }
}
