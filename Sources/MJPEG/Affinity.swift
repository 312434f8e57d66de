import Glibc

/// glibc's CPU affinity calls, which Swift's Glibc module leaves out (they need _GNU_SOURCE);
/// nil where they are missing, and then threads go where the scheduler puts them.
struct Affinity {
    let currentCPU: @convention(c) () -> Int32
    let getProcess: @convention(c) (pid_t, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32
    let setThread: @convention(c) (pthread_t, Int, UnsafePointer<cpu_set_t>) -> Int32

    /// The CPUs this process may run on (empty when that cannot be read).
    func allowedCPUs() -> [Int] {
        var allowed = cpu_set_t()
        guard getProcess(0, MemoryLayout<cpu_set_t>.size, &allowed) == 0 else { return [] }
        return withUnsafeBytes(of: &allowed) { bits in
            (0..<(bits.count * 8)).filter { bits[$0 / 8] & (1 << ($0 % 8)) != 0 }
        }
    }

    static let shared: Affinity? = {
        guard let current = dlsym(nil, "sched_getcpu"), let get = dlsym(nil, "sched_getaffinity"),
            let set = dlsym(nil, "pthread_setaffinity_np")
        else { return nil }
        return Affinity(
            currentCPU: unsafeBitCast(current, to: (@convention(c) () -> Int32).self),
            getProcess: unsafeBitCast(get, to: (@convention(c) (pid_t, Int, UnsafeMutablePointer<cpu_set_t>) -> Int32).self),
            setThread: unsafeBitCast(set, to: (@convention(c) (pthread_t, Int, UnsafePointer<cpu_set_t>) -> Int32).self))
    }()
}
