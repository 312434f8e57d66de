import PipCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct SystemCallTests {
    @Test func aCallInterruptedThreeTimesIsRunFourTimesAndItsResultKept() {
        var runs = 0
        let (result, code) = SystemCall.retryingInterrupts { () -> Int in
            runs += 1
            if runs <= 3 { errno = EINTR; return -1 }
            return 42
        }
        #expect(runs == 4)
        #expect(result == 42)
        #expect(code == 0)
    }

    @Test func anotherFailureIsReturnedAtOnceWithItsErrno() {
        var runs = 0
        let (result, code) = SystemCall.retryingInterrupts { () -> Int32 in
            runs += 1
            errno = EBADF
            return -1
        }
        #expect(runs == 1)
        #expect(result == -1)
        #expect(code == EBADF)
    }

    /// A real interruption: a read on an empty pipe is hit by a signal whose handler was
    /// installed without SA_RESTART, so the kernel ends it with EINTR; the funnel reads again and
    /// gets the byte written once a second read has begun.
    @Test func aReadInterruptedByASignalIsReadAgain() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        // SIGURG: nothing else in pipcam or its tests handles it, and by default it is ignored.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGURG, &action, &previous) == 0)
        defer { sigaction(SIGURG, &previous, nil) }

        let runs = Locked(0)
        let outcome = Locked<(result: Int, errno: Int32, byte: UInt8)?>(nil)
        let readEnd = ends[0]
        // Its own thread, with SIGURG let through: the threads tests run on may block signals.
        let reader = ThreadSpawn.start {
            var urgent = sigset_t()
            sigemptyset(&urgent)
            sigaddset(&urgent, SIGURG)
            pthread_sigmask(SIG_UNBLOCK, &urgent, nil)
            var byte: UInt8 = 0
            let (result, code) = SystemCall.retryingInterrupts { () -> Int in
                runs.withLock { $0 += 1 }
                return read(readEnd, &byte, 1)
            }
            outcome.withLock { $0 = (result, code, byte) }
        }
        let deadline = MonotonicInstant.now().nanoseconds + 5_000_000_000
        // Signals until the read has been run a second time, that is, after one interruption.
        while runs.withLock({ $0 }) < 2 && MonotonicInstant.now().nanoseconds < deadline {
            pthread_kill(reader, SIGURG)
            usleep(5_000)
        }
        var byte: UInt8 = 7
        _ = write(ends[1], &byte, 1)
        pthread_join(reader, nil)
        let got = try #require(outcome.withLock { $0 })
        #expect(got.result == 1)
        #expect(got.errno == 0)
        #expect(got.byte == 7)
        #expect(runs.withLock { $0 } >= 2)
    }
}
