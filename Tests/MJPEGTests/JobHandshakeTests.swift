import Glibc
@testable import MJPEG
import PipCore
import Synchronization
import Testing
import TestSupport

/// The hand-over between `SplitScan`'s threads: every job is run exactly once, whether the
/// recording thread was woken ahead, is still spinning, gave up waiting or was never woken ahead.
@Suite struct JobHandshakeTests {
    /// A recording thread stand-in: counts the jobs it runs.
    final class Worker: @unchecked Sendable {
        let handshake: JobHandshake
        let jobs = Atomic<Int>(0)
        let ended = Atomic<Bool>(false)
        private var thread = pthread_t()

        init(spinNanoseconds: UInt64) {
            handshake = JobHandshake(spinNanoseconds: spinNanoseconds)
            thread = ThreadSpawn.start { [self] in
                while handshake.take() {
                    jobs.add(1, ordering: .relaxed)
                    handshake.finish()
                }
                ended.store(true, ordering: .releasing)
            }
        }

        /// The thread's CPU time so far, in nanoseconds.
        var cpuNanoseconds: UInt64 {
            var clock = clockid_t()
            guard pthread_getcpuclockid(thread, &clock) == 0 else { return 0 }
            var t = timespec()
            clock_gettime(clock, &t)
            return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
        }

        func join() {
            handshake.quit()
            pthread_join(thread, nil)
        }
    }

    /// Runs `body` on a thread and reports whether it returned within `seconds` (a lost wake-up
    /// would otherwise hang the test run).
    static func finishes(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
        final class Done: Sendable { let value = Atomic<Bool>(false) }
        let done = Done()
        ThreadSpawn.start(detached: true) {
            body()
            done.value.store(true, ordering: .releasing)
        }
        return eventually(timeout: .seconds(seconds)) { done.value.load(ordering: .acquiring) }
    }

    @Test func everyJobRunsOnceWhateverTheTiming() {
        // A short spin, so the "gave up and slept again" path is taken often too.
        let worker = Worker(spinNanoseconds: 20_000)
        let ok = Self.finishes(within: 60) {
            var rng = SplitMix(seed: 7)
            for _ in 0..<1_000 {
                let r = rng.next() >> 33
                if r & 1 == 0 { worker.handshake.wakeAhead() }
                if r & 2 == 0 { worker.handshake.wakeAhead() }  // twice in a row: no pile of tokens
                switch (r >> 2) % 4 {
                case 0: break
                case 1: usleep(UInt32((r >> 4) % 10))  // while the worker wakes
                case 2: usleep(30 + UInt32((r >> 4) % 20))  // after it gave up
                default: for _ in 0..<Int((r >> 4) % 2_000) { _ = MonotonicInstant.now() }
                }
                worker.handshake.post()
                worker.handshake.waitDone()
            }
        }
        #expect(ok, "a job was never taken")
        let jobs = worker.jobs.load(ordering: .relaxed)
        #expect(jobs == 1_000)
        worker.join()
        let ended = worker.ended.load(ordering: .acquiring)
        #expect(ended)
    }

    @Test func aThreadWokenAheadForNothingSleepsAgain() throws {
        let worker = Worker(spinNanoseconds: 1_000_000)
        worker.handshake.wakeAhead()
        // It spins for its millisecond, then sleeps: its CPU time stops growing.
        usleep(20_000)
        let before = worker.cpuNanoseconds
        usleep(50_000)
        let spun = worker.cpuNanoseconds - before
        #expect(spun < 5_000_000)
        let early = worker.jobs.load(ordering: .relaxed)
        #expect(early == 0)
        let ok = Self.finishes(within: 10) {
            worker.handshake.post()
            worker.handshake.waitDone()
        }
        let jobs = worker.jobs.load(ordering: .relaxed)
        #expect(ok && jobs == 1)
        worker.join()
    }
}
