#if canImport(Glibc)
import Glibc
#endif

/// A value shared between threads, reached only while holding a pthread mutex.
///
/// Not `Synchronization.Mutex`: on Linux a contended `Mutex` is handed to its waiter by a
/// priority-inheriting futex in the kernel, which ThreadSanitizer cannot see, so `make
/// test-sanitizers` reported races on values that were only ever touched under the lock.
/// Uncontended, both cost an atomic exchange on each side.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private var value: Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    public init(_ value: consuming Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value while holding the lock.
    public func withLock<Result: ~Copyable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
