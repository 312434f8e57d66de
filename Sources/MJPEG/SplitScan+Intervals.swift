import PipCore
import Synchronization

/// Who runs a task handed aside (`SplitScan.runAside`): the second thread takes it when it starts;
/// the first thread, done with its own part, takes it if the second has not started yet (woken
/// late, or its CPU busy), rather than wait for it.
enum IntervalClaim {
    static let open = 0, secondThread = 1, firstThread = 2

    /// Takes the part for `taker`; false when the other thread has it.
    static func take(_ claim: borrowing Atomic<Int>, as taker: Int) -> Bool {
        claim.compareExchange(expected: open, desired: taker, ordering: .acquiringAndReleasing).exchanged
    }
}

/// Work a caller hands to the second thread (`SplitScan.runAside`).
protocol SplitTask: AnyObject {
    func run()
}

/// The restart intervals `decodeIntervals` hands to the second thread; one per `SplitScan`, so
/// nothing is made per picture.
final class IntervalTask: SplitTask, @unchecked Sendable {
    var job: (decoder: ScanDecoder, side: Int, intervals: Range<Int>)?

    func run() {
        guard let job else { return }
        job.decoder.run(side: job.side, intervals: job.intervals)
    }
}

extension SplitScan {
    /// What `runAside` measured: whether the second thread ran the task, how long each part took
    /// and how late the second thread started.
    struct AsideTiming {
        var ranAside: Bool
        var hereNanoseconds: UInt64, asideNanoseconds: UInt64, delayNanoseconds: UInt64
    }

    /// Runs `task` on the second thread while `here` runs on this one and returns once both are
    /// done; when the second thread has not started the task by the time `here` is done, this
    /// thread runs it instead (`IntervalClaim`).
    func runAside(_ task: SplitTask, whileHere here: () -> Void) -> AsideTiming {
        settle()
        shared.intervalClaim.store(IntervalClaim.open, ordering: .relaxed)
        shared.progress.reset()
        shared.job = .task(task)
        startThread()
        keepOffThisCPU()
        let begin = MonotonicInstant.now().nanoseconds
        shared.handshake.post()
        here()
        let mine = MonotonicInstant.now().nanoseconds - begin
        shared.progress.waitIfInOrder { shared.intervalClaim.load(ordering: .acquiring) != IntervalClaim.open }
        lastSplice = nil
        lastIntervalSplit = nil
        if IntervalClaim.take(shared.intervalClaim, as: IntervalClaim.firstThread) {
            task.run()
            // The other thread may not have looked at its job yet: it finds the claim taken and
            // does nothing, but the next use of what the task reads waits for it (`settle`).
            unfinished = true
            return AsideTiming(ranAside: false, hereNanoseconds: mine, asideNanoseconds: 0, delayNanoseconds: 0)
        }
        shared.handshake.waitDone()
        return AsideTiming(
            ranAside: true, hereNanoseconds: mine, asideNanoseconds: shared.ended &- shared.started,
            delayNanoseconds: shared.started > begin ? shared.started - begin : 0)
    }

    /// Decodes `decoder`'s scan, which has restart intervals, on two threads. Each interval starts
    /// at a known byte with fresh DC predictors (T.81 F.2.1.3), so nothing needs guessing: this
    /// thread decodes the intervals before the one nearest `intervalPermille` of the entropy bytes,
    /// the other thread the rest with predictors of its own, and both write their own MCUs' pixels.
    /// Where the split lies follows what each part cost (`SplitBalance`, without records to
    /// assemble). Rows are reported as this thread finishes them, the rest at the end.
    func decodeIntervals(_ decoder: ScanDecoder, side: Int) {
        settle()
        let entropy = decoder.entropy
        let mcus = decoder.mcusX * decoder.mcusY
        let intervals = (mcus + decoder.restartInterval - 1) / decoder.restartInterval
        let split = Self.interval(startingNear: entropy.count * intervalPermille / 1000, in: entropy)
        guard split > 0, split < min(intervals, entropy.restartCount + 1) else {
            decoder.run(side: side)
            lastIntervalSplit = nil
            lastSplice = nil
            return
        }
        var second = decoder
        second.predictors = shared.secondPredictors
        second.rowReport = nil
        intervalTask.job = (second, side, split..<intervals)
        let timing = runAside(intervalTask) { decoder.run(side: side, intervals: 0..<split) }
        if timing.ranAside {
            let splitBits = entropy.restarts[split - 1] * 8, total = entropy.count * 8
            intervalBalance.note(SplitBalance.Sample(
                decodeNanoseconds: timing.hereNanoseconds, decodeBits: splitBits,
                recordNanoseconds: timing.asideNanoseconds, recordBits: total - splitBits,
                assembleNanoseconds: 0, assembleBits: 0, delayNanoseconds: timing.delayNanoseconds))
            if let next = intervalBalance.permille(totalBits: total, range: Self.splitRange) { intervalPermille = next }
            lastIntervalSplit = split
        }
        decoder.rowReport?.mcuRowsDone(decoder.mcusY)
    }

    /// The first restart interval (1 or more) that starts at or after byte `target`, or the
    /// number of intervals when none does; interval `i` starts at `restarts[i − 1]`.
    static func interval(startingNear target: Int, in entropy: EntropyData) -> Int {
        var low = 0, high = entropy.restartCount
        while low < high {
            let mid = (low + high) / 2
            if entropy.restarts[mid] < target { low = mid + 1 } else { high = mid }
        }
        return low + 1
    }
}
