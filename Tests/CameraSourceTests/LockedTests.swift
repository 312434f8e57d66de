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
        final class Box: @unchecked Sendable { let counter: Locked<Int>; init(_ c: Locked<Int>) { counter = c } }
        let box = Unmanaged.passRetained(Box(counter))
        var threads: [pthread_t] = []
        for _ in 0..<2 {
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, { arg in
                let box = Unmanaged<Box>.fromOpaque(arg!).takeUnretainedValue()
                for _ in 0..<50_000 { box.counter.withLock { $0 += 1 } }
                return nil
            }, box.toOpaque())
            #expect(rc == 0)
            threads.append(thread)
        }
        for thread in threads { pthread_join(thread, nil) }
        box.release()
        #expect(counter.withLock { $0 } == 100_000)
    }
}
