import PipCore
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct LockedTests {
    /// Two threads adding under the lock lose no update, and (under `make test-sanitizers`)
    /// ThreadSanitizer sees the lock: with `Synchronization.Mutex` in its place it reported this
    /// contended count as a race.
    @Test func contendedUpdatesAreAllKept() {
        let counter = Locked(0)
        let threads = (0..<2).map { _ in
            ThreadSpawn.start { for _ in 0..<50_000 { counter.withLock { $0 += 1 } } }
        }
        for thread in threads { pthread_join(thread, nil) }
        #expect(counter.withLock { $0 } == 100_000)
    }
}
