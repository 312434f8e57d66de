import Glibc
import PipCore
import Synchronization

/// How `SplitScan` hands a job to its recording thread, which may have been woken ahead of it
/// (`wakeAhead`): waking a sleeping thread costs its caller a system call and the woken thread a
/// noticeable delay, time better spent while the job is still being prepared
/// (docs/PERFORMANCE.md, "The split JPEG decode").
///
/// The phase says whether the recording thread is asleep (`idle`), awake and spinning for a job
/// (`waiting`), or has one (`posted`). Only the recording thread leaves `waiting`, and only the
/// caller enters `posted`, each by compare-and-exchange, so a job is never missed; a wake-up token
/// is posted for a job only when every earlier token has been taken (`tokens` against `wakes`),
/// so the thread is never left asleep with a job and rarely woken for nothing.
final class JobHandshake: @unchecked Sendable {
    private static let idle = 0, waiting = 1, posted = 2, quitting = 3

    private let phase = Atomic<Int>(0)
    /// Tokens posted (caller only) and taken (recording thread only).
    private var tokens = 0
    private let wakes = Atomic<Int>(0)
    private let wake = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    /// How long a thread woken ahead spins for its job before it sleeps again.
    let spinNanoseconds: UInt64

    init(spinNanoseconds: UInt64) {
        self.spinNanoseconds = spinNanoseconds
        sem_init(wake, 0, 0)
        sem_init(done, 0, 0)
    }

    deinit {
        sem_destroy(wake)
        sem_destroy(done)
        wake.deallocate()
        done.deallocate()
    }

    // MARK: The calling thread

    /// Wakes the recording thread if it sleeps with no token on the way: a job follows soon.
    func wakeAhead() {
        guard phase.load(ordering: .sequentiallyConsistent) == Self.idle,
            wakes.load(ordering: .sequentiallyConsistent) == tokens
        else { return }
        postToken()
    }

    /// Hands over the job written before this call.
    func post() {
        while true {
            let current = phase.load(ordering: .sequentiallyConsistent)
            let from = current == Self.waiting ? Self.waiting : Self.idle
            if phase.compareExchange(expected: from, desired: Self.posted, ordering: .sequentiallyConsistent).exchanged {
                // Posted after the phase changed: a thread that took every token is asleep, or will
                // see `posted` as soon as it wakes.
                if from == Self.idle && wakes.load(ordering: .sequentiallyConsistent) == tokens { postToken() }
                return
            }
        }
    }

    /// Waits until the recording thread has finished the posted job.
    func waitDone() { _ = SystemCall.retryingInterrupts { sem_wait(done) } }

    /// Makes `take` return false (no job may be posted or running).
    func quit() {
        phase.store(Self.quitting, ordering: .sequentiallyConsistent)
        postToken()
    }

    private func postToken() {
        tokens += 1
        sem_post(wake)
    }

    // MARK: The recording thread

    /// Sleeps until a job is posted; false when quitting.
    func take() -> Bool {
        while true {
            _ = SystemCall.retryingInterrupts { sem_wait(wake) }
            wakes.add(1, ordering: .sequentiallyConsistent)
            if phase.compareExchange(expected: Self.idle, desired: Self.waiting, ordering: .sequentiallyConsistent).exchanged {
                let deadline = MonotonicInstant.now().nanoseconds + spinNanoseconds
                while phase.load(ordering: .sequentiallyConsistent) == Self.waiting {
                    if MonotonicInstant.now().nanoseconds > deadline,
                        phase.compareExchange(expected: Self.waiting, desired: Self.idle, ordering: .sequentiallyConsistent).exchanged
                    {
                        break
                    }
                }
            }
            switch phase.load(ordering: .sequentiallyConsistent) {
            case Self.posted: return true
            case Self.quitting: return false
            default: continue  // woken ahead of a job that did not come: sleep again
            }
        }
    }

    /// The job is done: the caller's `waitDone` returns.
    func finish() {
        // Not over `quitting`, which would leave the thread spinning for a job after `quit`.
        _ = phase.compareExchange(expected: Self.posted, desired: Self.idle, ordering: .sequentiallyConsistent)
        sem_post(done)
    }
}
