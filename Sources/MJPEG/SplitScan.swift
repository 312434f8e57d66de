import Glibc
import PipCore
import Synchronization

/// Decodes one scan on two threads. Huffman-coded data is one serial bit stream, so a second
/// parser cannot know where a block starts in the middle of it; it starts anyway, at the middle
/// byte, and records every block it thinks it finds (`ScanDecoder.record`). A wrong start soon
/// falls into step with the real blocks: JPEG codes resynchronise within a few blocks. The first
/// thread decodes from the start as usual and, past the middle, checks each block's start against
/// the records; at the first block where both were at the same bit in the same MCU slot, every
/// later record is right, and it stops. The records then become pixels (`BlockAssembler`) with the
/// DC predictors the first thread reached. If no block matches, the first thread decodes the whole
/// scan itself, so the picture is always exactly the one-thread picture. Nor does it wait long
/// for a second thread that falls behind: it decodes on from the last record (`assemble`). A
/// second thread that starts late starts ahead of the first (`recordingStart`), and where it starts
/// follows what each part cost on the pictures before (`SplitBalance`). Scans with restart
/// intervals are split at an interval instead (`decodeIntervals`, SplitScan+Intervals.swift).
///
/// One recording thread per instance, started on first use, ended by `deinit`.
final class SplitScan {
    /// Smaller scans are decoded on one thread: waking the other costs more than it saves.
    static let minimumBytes = 48 * 1024

    /// Whether this process may run on two CPUs at least; on one, the halves would only take turns.
    static let isUseful: Bool = {
        guard let affinity = Affinity.shared else { return sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 }
        return affinity.allowedCPUs().count > 1
    }()

    let shared = Shared()
    /// For tests: see `SplitProgress.pauseRecording`.
    var progress: SplitProgress { shared.progress }
    private var thread: pthread_t?

    /// How long the woken recording thread spins for a job before it sleeps again.
    static let jobWaitNanoseconds: UInt64 = 500_000

    /// How the last `decode` went: the block where the two parts met (nil: one thread did it all).
    var lastSplice: Splice?
    /// The recording thread was stopped and may still be running (see `settle`).
    var unfinished = false

    /// Where the second thread starts, in thousandths of the scan's bytes. The halves do not cost
    /// the same (the first thread also turns the second's records into pixels; either thread may
    /// share its CPU for a while), so after each decode `balance` puts it where both would have
    /// finished together; no fixed split did as well (docs/PERFORMANCE.md, "The split JPEG decode").
    var splitPermille = 500
    static let splitRange = 250...750
    private(set) var balance = SplitBalance()
    /// The same for scans split at a restart interval (`decodeIntervals`), whose parts cost alike per bit.
    var intervalPermille = 500
    var intervalBalance = SplitBalance()
    /// What `decodeIntervals` hands to the second thread.
    let intervalTask = IntervalTask()
    /// The restart interval the second thread started at in the last `decodeIntervals` (nil: one
    /// thread did it all, or the last scan was not split at an interval).
    var lastIntervalSplit: Int?
    /// How long the first thread waits (spinning, in all) for records before it decodes on by
    /// itself: records come far more often than this while the other thread runs at full speed.
    static let stealAfterNanoseconds: UInt64 = 20_000
    /// When decoding on by itself, this thread decodes at least 1/`stealStretchDivisor` of the
    /// scan before it looks for the records again.
    static let stealStretchDivisor = 32
    /// Where the recording thread starts in a scan of `count` bytes when the first thread is at
    /// byte `firstThread`: at `planned` normally. A thread that starts late (descheduled, which
    /// happens now and then) finds the first thread near or past that byte: its
    /// records would all be behind it, and the first thread would decode the whole scan alone. So
    /// when the first thread is less than 1/`lateStartDivisor` of the scan before `planned`, it starts halfway between the first thread and the end.
    static func recordingStart(planned: Int, firstThread: Int, count: Int) -> Int {
        firstThread + count / lateStartDivisor < planned ? planned : (firstThread + count) / 2
    }
    static let lateStartDivisor = 16
    /// How many times this thread has decoded on by itself (see `assemble`); for tests and logs.
    private(set) var steals = 0

    deinit {
        guard let thread else { return }
        settle()
        shared.handshake.quit()
        pthread_join(thread, nil)
    }

    /// The CPU the recording thread used so far, in milliseconds (0 before it starts).
    var threadCPUMilliseconds: Double {
        guard let thread else { return 0 }
        var clock = clockid_t(), time = timespec()
        guard pthread_getcpuclockid(thread, &clock) == 0, clock_gettime(clock, &time) == 0 else { return 0 }
        return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
    }

    /// Wakes the recording thread ahead of a `decode` that is about to come (when a frame arrives,
    /// before its headers are read): waking a sleeping thread takes long enough to matter, and that
    /// time passes while this thread prepares the scan; the woken thread waits for the job, spinning
    /// up to `jobWaitNanoseconds`, and goes back to sleep if none comes.
    func prepare() {
        settle()
        startThread()
        keepOffThisCPU()
        shared.handshake.wakeAhead()
    }

    /// Gets ready for scans of `blocks` blocks at `side` pixels per block before the first one:
    /// makes the records, writes those the recording thread fills in the first split (from
    /// `splitPermille` of the scan on) and starts that thread. The first split picture otherwise
    /// pays for the records' page faults on the recording thread, which then falls behind. Only
    /// those: at full size the records take 128 bytes a block, and pages never written stay out of
    /// the resident set.
    func warmUp(blocks: Int, side: Int) {
        settle()
        if shared.records.reserve(blocks: blocks, sumStride: Self.sumStride(side: side)) {
            shared.records.touch(blocks: blocks * (1000 - splitPermille) / 1000)
        }
        startThread()
    }

    private static func sumStride(side: Int) -> Int {
        switch side {
        case 8: FullBlock.recordStride
        case 4: HalfMeans.recordStride
        default: QuarterMeans.recordStride
        }
    }

    /// How many times the records were made; for tests.
    var recordAllocations: Int { shared.records.allocations }

    /// Decodes `decoder`'s scan (`blocks` blocks, no restart intervals) at `side` pixels per block.
    func decode(_ decoder: ScanDecoder, side: Int, blocks: Int) {
        precondition(decoder.restartInterval == 0, "scans with restart intervals are decoded on one thread")
        settle()
        let middle = decoder.entropy.count * splitPermille / 1000
        // New records cost page faults as they are first written: what this picture costs then
        // says nothing about the next ones, so `balance` does not learn from it.
        let freshRecords = shared.records.reserve(blocks: blocks, sumStride: Self.sumStride(side: side))
        shared.progress.reset()
        shared.job = .record(decoder, side: side, byte: middle)
        startThread()
        keepOffThisCPU()
        let begin = MonotonicInstant.now().nanoseconds
        shared.handshake.post()
        shared.progress.waitIfInOrder { shared.progress.published > 0 || shared.progress.isFinished }
        let watch = SpliceWatch(records: shared.records, progress: shared.progress, startBit: middle * 8)
        let splice = decoder.run(side: side, watching: watch)
        if let splice {
            let met = MonotonicInstant.now().nanoseconds
            let assembly = assemble(from: splice, decoder: decoder, side: side, blocks: blocks)
            if !freshRecords { learn(begin: begin, met: met, splice: splice, assembly: assembly) }
            if let next = balance.permille(totalBits: decoder.entropy.count * 8, range: Self.splitRange) {
                splitPermille = next
            }
        } else {
            shared.progress.cancel()
        }
        // A stopped recording thread may not have seen the stop yet (it looks every 64 blocks, and
        // may not even be running): this picture needs nothing more from it, so the wait for it
        // comes before the next use of what it reads (`settle`), not here.
        if shared.progress.isCancelled { unfinished = true } else { shared.handshake.waitDone() }
        lastSplice = splice
        lastIntervalSplit = nil
    }

    /// Waits for a stopped recording thread to finish its job. Call before anything the last
    /// `decode`'s scan reads changes or goes: entropy data, Huffman tables, block slots, weights.
    func settle() {
        guard unfinished else { return }
        shared.handshake.waitDone()
        unfinished = false
    }

    /// Turns the records from the splice on into pixels while the other thread is still recording:
    /// whatever it has published, then a spin when there is nothing new. When that spinning adds
    /// up to `stealAfterNanoseconds` the other thread has fallen behind (descheduled, or slowed by
    /// whatever shares its CPU: then it keeps this one waiting in many short gaps), and this one
    /// decodes on by itself from the last block it assembled, until it meets the records again or
    /// reaches the end (the other thread is then stopped). That last block is decoded again: where
    /// it ends is the next record's start, which is not published yet. Rows finished on the way
    /// are reported (`ScanDecoder.rowReport`). Returns the time spent assembling and how many
    /// records it assembled.
    private func assemble(from splice: Splice, decoder: ScanDecoder, side: Int, blocks: Int) -> (nanoseconds: UInt64, records: Int) {
        let assembler = BlockAssembler(
            slots: decoder.slots, slotCount: decoder.slotCount, mcusX: decoder.mcusX, output: decoder.output)
        let progress = shared.progress, records = shared.records
        progress.noteMet()
        var lastRecord = splice.record + (blocks - splice.block)
        var record = splice.record, block = splice.block
        // `sinceSteal`: the waiting since the last time this thread decoded on by itself.
        var sinceSteal: UInt64 = 0, waitStart: MonotonicInstant?
        // Timed by the next pass's clock reading: no extra one per batch of records.
        // Records, not bits: reading the newest starts would take their cache line from the other
        // thread while it writes the next ones, which costs more than it saves.
        var assembling: UInt64 = 0, assembledRecords = 0, assembledAt: MonotonicInstant?
        while true {
            let finished = progress.isFinished
            let available = min(progress.published, lastRecord)
            let now = MonotonicInstant.now()
            if let start = assembledAt {
                assembling += now.nanoseconds - start.nanoseconds
                assembledAt = nil
            }
            if let start = waitStart, available > record || finished {
                sinceSteal += now.nanoseconds - start.nanoseconds
                waitStart = nil
            }
            if available > record {
                assembler.assemble(
                    side: side, records: records, first: record, blocks: block..<(block + available - record),
                    predictors: decoder.predictors)
                assembledRecords += available - record
                assembledAt = now
                block += available - record
                record = available
                // Rows whose blocks are all written are used (converted) now, while the other
                // thread still records; timed as assembling, so `balance` counts them.
                decoder.rowReport?.mcuRowsDone(block / (decoder.mcusX * decoder.slotCount))
            } else if finished {
                return (assembling, assembledRecords)
            } else if let start = waitStart {
                let waiting = now.nanoseconds - start.nanoseconds
                guard sinceSteal + waiting > Self.stealAfterNanoseconds, record > splice.record else { continue }
                sinceSteal = 0
                waitStart = nil
                steals += 1
                let last = ScanPosition(block: block - 1, bit: BlockRecords.bitOffset(records.starts[record - 1]))
                decoder.predictors[decoder.slots[last.block % decoder.slotCount].component] &-= records.differences[record - 1]
                // Decoding a stretch before looking for the records again: the other thread may be
                // just behind, and meeting it at once would make this one wait again straight away.
                let stretch = decoder.entropy.count * 8 / Self.stealStretchDivisor
                let watch = SpliceWatch(records: records, progress: progress, startBit: last.bit + stretch, firstRecord: record)
                guard let met = decoder.run(side: side, from: last, watching: watch) else {
                    progress.cancel()
                    return (assembling, assembledRecords)
                }
                (record, block) = (met.record, met.block)
                lastRecord = record + (blocks - block)
            } else {
                waitStart = now
            }
        }
    }

    /// Feeds `balance` what this decode cost: the first thread's part up to the splice (from
    /// `begin`, just before the job was posted, to `met`), its assembling, and the recording thread's
    /// part — all of it when that thread finished, else what it has published so far (up to the
    /// start of its last record). The records assembled count as many bits as the recording
    /// thread's records had on average.
    private func learn(begin: UInt64, met: UInt64, splice: Splice, assembly: (nanoseconds: UInt64, records: Int)) {
        let records = shared.records, progress = shared.progress
        // `started`, `ended` and `startByte` are written before the publishing (release) that makes
        // them visible; once finished, `published` is the final count.
        let finished = progress.isFinished, published = progress.published
        guard finished || published > 0 else { return }
        let recordBits = published > 0 ? BlockRecords.bitOffset(records.starts[published - 1]) - shared.startByte * 8 : 0
        balance.note(SplitBalance.Sample(
            decodeNanoseconds: met - begin, decodeBits: BlockRecords.bitOffset(records.starts[splice.record]),
            recordNanoseconds: (finished ? shared.ended : MonotonicInstant.now().nanoseconds) &- shared.started,
            recordBits: recordBits, assembleNanoseconds: assembly.nanoseconds,
            assembleBits: published > 0 ? assembly.records * recordBits / published : 0,
            delayNanoseconds: shared.started > begin ? shared.started - begin : 0))
    }

    /// The recording thread's CPU: the first allowed one this thread is not on. Left to itself the
    /// scheduler often wakes it on this thread's CPU, where it waits until this thread has decoded everything alone.
    private var pinnedCPU = -1
    /// Read once: the pinning may be redone on any frame, which must not allocate.
    private let allowedCPUs = Affinity.shared?.allowedCPUs() ?? []

    func keepOffThisCPU() {
        guard let thread, let affinity = Affinity.shared else { return }
        let here = affinity.currentCPU()
        guard here >= 0, pinnedCPU < 0 || pinnedCPU == here else { return }
        guard let other = allowedCPUs.first(where: { $0 != Int(here) }) else { return }
        var set = cpu_set_t()
        withUnsafeMutableBytes(of: &set) { bits in
            for i in 0..<bits.count { bits[i] = 0 }
            bits[other / 8] |= UInt8(1 << (other % 8))
        }
        if affinity.setThread(thread, MemoryLayout<cpu_set_t>.size, &set) == 0 { pinnedCPU = other }
    }

    func startThread() {
        guard thread == nil else { return }
        thread = ThreadSpawn.start { [shared] in shared.loop() }
    }

    /// What the two threads share. The job is written before `handshake.post` and read after the
    /// recording thread takes it; the records are read up to what `progress` has published, and
    /// wholly after `waitDone`.
    final class Shared: @unchecked Sendable {
        let records = BlockRecords()
        let progress = SplitProgress()
        let handshake = JobHandshake(spinNanoseconds: SplitScan.jobWaitNanoseconds)
        /// What the second thread does next.
        enum Job {
            /// Record blocks from `byte` on (`ScanDecoder.record`).
            case record(ScanDecoder, side: Int, byte: Int)
            /// Run this, if `intervalClaim` is still open when it starts (`runAside`).
            case task(SplitTask)
        }
        var job: Job?
        /// Who runs a task handed aside: whichever thread gets there first (`IntervalClaim`).
        let intervalClaim = Atomic<Int>(0)
        /// The second thread's DC predictors for the intervals it decodes.
        let secondPredictors = UnsafeMutablePointer<Int32>.allocate(capacity: 4)
        /// When the last job started and ended, and the byte its recording started at.
        var started: UInt64 = 0, ended: UInt64 = 0, startByte = 0

        deinit { secondPredictors.deallocate() }

        func loop() {
            while handshake.take() {
                switch job {
                case .record(let decoder, let side, let byte):
                    progress.holdIfAsked()
                    started = MonotonicInstant.now().nanoseconds
                    startByte = SplitScan.recordingStart(
                        planned: byte, firstThread: progress.firstThreadBit / 8, count: decoder.entropy.count)
                    _ = decoder.record(side: side, from: startByte, into: records, progress: progress)
                    ended = MonotonicInstant.now().nanoseconds
                case .task(let task):
                    if progress.takeIntervalHold() {
                        while intervalClaim.load(ordering: .acquiring) == IntervalClaim.open { sched_yield() }
                    }
                    started = MonotonicInstant.now().nanoseconds
                    if IntervalClaim.take(intervalClaim, as: IntervalClaim.secondThread) { task.run() }
                    ended = MonotonicInstant.now().nanoseconds
                case nil: break
                }
                progress.finish()
                handshake.finish()
            }
        }
    }
}
