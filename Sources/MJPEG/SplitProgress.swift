import Glibc
import Synchronization

/// Where the first thread stopped: picture block `block` is record `record`.
struct Splice: Equatable {
    var block: Int, record: Int
}

/// How far the recording parser has got, shared between the threads.
final class SplitProgress: Sendable {
    private let count = Atomic<Int>(0)
    private let cancelled = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    func reset() {
        count.store(0, ordering: .relaxed)
        firstThread.value.store(0, ordering: .relaxed)
        met.store(false, ordering: .relaxed)
        cancelled.store(false, ordering: .relaxed)
        finished.store(false, ordering: .relaxed)
    }

    private let met = Atomic<Bool>(false), pauseMicroseconds = Atomic<Int>(0)
    private let holdStartBit = Atomic<Int>(0)
    /// Written by the first thread as it decodes, read by the recording thread once as it starts:
    /// on a cache line of its own, or each write would take the line the two threads exchange
    /// their progress on away from the recording thread.
    private let firstThread = LoneAtomic()

    /// The first thread has decoded the blocks before `bit`.
    func noteFirstThread(at bit: Int) { firstThread.value.store(bit, ordering: .relaxed) }
    var firstThreadBit: Int { firstThread.value.load(ordering: .relaxed) }

    /// For tests: the recording thread takes its next job only once the first thread has passed
    /// `bit`, as if it had woken that late.
    func holdRecordingUntilFirstThreadPasses(bit: Int) { holdStartBit.store(bit, ordering: .relaxed) }

    private let holdIntervals = Atomic<Bool>(false)
    /// For tests: the second thread starts its next task handed aside (restart intervals, a
    /// picture's lower half) only once the first thread has finished its part, as if it had woken
    /// that late.
    func holdIntervalsUntilFirstThreadIsDone() { holdIntervals.store(true, ordering: .relaxed) }
    /// Whether `holdIntervalsUntilFirstThreadIsDone` was asked since the last call.
    func takeIntervalHold() -> Bool { holdIntervals.exchange(false, ordering: .relaxed) }

    private let inOrder = Atomic<Bool>(false)
    /// For tests: from now on the first thread waits for the second to begin each job — its
    /// first records published, or the task handed aside taken — as if the second thread were
    /// never woken late: then a picture is split however busy the machine. Not with the holds
    /// above, which make the second thread wait for the first.
    func waitForSecondThreadEachTime() { inOrder.store(true, ordering: .relaxed) }
    var waitsForSecondThread: Bool { inOrder.load(ordering: .relaxed) }

    /// Waits as `waitForSecondThreadEachTime` asked, until `begun` is true.
    func waitIfInOrder(until begun: () -> Bool) {
        guard waitsForSecondThread else { return }
        while !begun() { sched_yield() }
    }

    /// Waits as `holdRecordingUntilFirstThreadPasses` asked, once.
    func holdIfAsked() {
        let bit = holdStartBit.exchange(0, ordering: .relaxed)
        while bit > 0 && firstThreadBit < bit && !isCancelled { sched_yield() }
    }

    /// Records below `n` are written.
    func publish(_ n: Int) {
        count.store(n, ordering: .releasing)
        if n >= 256, pauseMicroseconds.load(ordering: .relaxed) > 0 {
            while !met.load(ordering: .relaxed) && !isCancelled { usleep(100) }
            usleep(UInt32(pauseMicroseconds.exchange(0, ordering: .relaxed)))
        }
    }

    /// The first thread has found where it meets the records.
    func noteMet() { met.store(true, ordering: .relaxed) }

    /// For tests: once it has 256 records, the recording thread waits for the first thread to meet
    /// them, then stops for `microseconds`, as if descheduled.
    func pauseRecordingOnceMet(microseconds: Int) { pauseMicroseconds.store(microseconds, ordering: .relaxed) }

    var published: Int { count.load(ordering: .acquiring) }
    /// No more records will come (after the last `publish`).
    func finish() { finished.store(true, ordering: .releasing) }
    var isFinished: Bool { finished.load(ordering: .acquiring) }
    /// The records are not needed any more.
    func cancel() { cancelled.store(true, ordering: .relaxed) }
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
}

/// The first thread's side of the meeting: finds a block start among the records published so far.
struct SpliceWatch {
    let records: BlockRecords
    let progress: SplitProgress
    /// Where the recording parser started: blocks before it cannot match.
    let startBit: Int
    private var cursor = 0
    /// Every record is behind the first thread and none will come.
    private(set) var isHopeless = false

    /// Watches for records from `firstRecord` on.
    init(records: BlockRecords, progress: SplitProgress, startBit: Int, firstRecord: Int = 0) {
        self.records = records
        self.progress = progress
        self.startBit = startBit
        cursor = firstRecord
    }

    /// The record that starts at `bitOffset` in `slot`, if there is one; record starts only grow, so
    /// one cursor walks them once.
    @inline(__always)
    mutating func match(bitOffset: Int, slot: Int) -> Int? {
        let starts = records.starts
        let published = progress.published
        while cursor < published && BlockRecords.bitOffset(starts[cursor]) < bitOffset { cursor += 1 }
        if cursor < published {
            return starts[cursor] == Int64(bitOffset) << 8 | Int64(slot) ? cursor : nil
        }
        if progress.isFinished && progress.published == cursor { isHopeless = true }
        return nil
    }
}

/// An atomic `Int` with no other data on its cache line: 56 bytes of padding on either side, and
/// the object is allocated alone.
final class LoneAtomic: Sendable {
    private let before: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
    let value = Atomic<Int>(0)
    private let after: (Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0)
}
