#if canImport(Glibc)
import Glibc
#endif

/// The one place a POSIX thread is made (the capture thread, the second JPEG decoding thread, the
/// source start-up): `body` runs on a new thread, which holds what `body` captures until it returns.
public enum ThreadSpawn {
    /// Starts `body` on a new joinable thread and returns its id; `detached` threads are not joined.
    @discardableResult
    public static func start(detached: Bool = false, _ body: @escaping @Sendable () -> Void) -> pthread_t {
        let box = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { arg in
            Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue().run()
            return nil
        }, box.toOpaque())
        // Only a system out of threads or memory fails here: nothing pipcam could go on without.
        precondition(rc == 0, "pthread_create failed: \(rc)")
        if detached { pthread_detach(thread) }
        return thread
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
