#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// A regular file mapped read-only, so a frame can point into it instead of being copied out of
/// it with `read(2)` (docs/PERFORMANCE.md, "Files without a copy") — as a camera's frames point
/// into its driver's buffers.
///
/// A file cut short while mapped would kill the program with SIGBUS when a frame past its new end
/// is read; `MappedFile` catches SIGBUS inside its mappings and puts a page of zeros where the
/// file went, so such a frame shows black where it was cut. The source meanwhile sees the file
/// shorter (`size(now:)`) and ends there. Faults anywhere else go to the handler that was there
/// before (the Swift runtime's backtracer, or the default action).
final class MappedFile {
    let base: UnsafeRawPointer
    /// The file's size when it was mapped: the mapping's length.
    let length: Int
    private let slot: Int

    /// Maps the file open at `fd`; nil when it is not a regular file, is empty, or no mapping
    /// could be made (the caller then reads it instead).
    init?(fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
            let slot = MappedRanges.shared.reserveSlot()
        else { return nil }
        let length = Int(info.st_size)
        guard let address = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0), address != MAP_FAILED else {
            MappedRanges.shared.release(slot: slot)
            return nil
        }
        // Frames are read front to back: read ahead generously, drop behind.
        _ = madvise(address, length, MADV_SEQUENTIAL)
        base = UnsafeRawPointer(address)
        self.length = length
        self.slot = slot
        MappedRanges.shared.publish(slot: slot, start: UInt(bitPattern: address), length: length)
    }

    deinit {
        MappedRanges.shared.release(slot: slot)
        munmap(UnsafeMutableRawPointer(mutating: base), length)
    }

    /// The file's size now (it may have been cut or grown since it was mapped).
    static func size(of fd: Int32) -> Int? {
        var info = stat()
        return fstat(fd, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Lets go of the pages holding `count` bytes at `offset`: they stay in the page cache but no
    /// longer count towards this process's memory (a frame shown and given back). A page shared
    /// with a neighbouring frame still in use is only read in again when that frame is read.
    func dropPages(offset: Int, count: Int) {
        let page = MappedRanges.pageSize
        let first = offset / page * page, end = min((offset + count + page - 1) / page * page, length)
        guard end > first else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + first), end - first, MADV_DONTNEED)
    }
}

/// The address ranges of the live mappings, read by the SIGBUS handler (which may run on any
/// thread, at any moment): a fixed array of start/end pairs, each published before frames from
/// it are handed out and cleared after they are all back.
private final class MappedRanges: @unchecked Sendable {
    static let shared = MappedRanges()
    static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    static let capacity = 8

    /// `capacity` pairs (start, end); end 0: the slot is free.
    fileprivate let bounds = UnsafeMutablePointer<UInt>.allocate(capacity: 2 * capacity)
    private let inUse = Locked([Bool](repeating: false, count: capacity))
    fileprivate var previous = sigaction()

    private init() {
        _ = Self.pageSize  // read by the handler: set up now, not in a signal
        bounds.initialize(repeating: 0, count: 2 * Self.capacity)
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = catchBusError
        action.sa_flags = SA_SIGINFO | SA_NODEFER
        sigemptyset(&action.sa_mask)
        sigaction(SIGBUS, &action, &previous)
    }

    func reserveSlot() -> Int? {
        inUse.withLock { used in
            guard let free = used.firstIndex(of: false) else { return nil }
            used[free] = true
            return free
        }
    }

    func publish(slot: Int, start: UInt, length: Int) {
        bounds[2 * slot] = start
        bounds[2 * slot + 1] = start + UInt(length)
    }

    func release(slot: Int) {
        bounds[2 * slot + 1] = 0
        bounds[2 * slot] = 0
        inUse.withLock { $0[slot] = false }
    }
}

/// SIGBUS: inside a mapping, the page the file no longer has becomes a page of zeros and the read
/// goes on; elsewhere the previous handler gets the fault (put back, it sees the fault again).
private func catchBusError(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    let ranges = MappedRanges.shared
    let address = UInt(bitPattern: info?.pointee._sifields._sigfault.si_addr)
    for slot in 0..<MappedRanges.capacity {
        let start = ranges.bounds[2 * slot], end = ranges.bounds[2 * slot + 1]
        guard address >= start, address < end else { continue }
        let page = address & ~UInt(MappedRanges.pageSize - 1)
        _ = mmap(UnsafeMutableRawPointer(bitPattern: page), MappedRanges.pageSize, PROT_READ,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
        return
    }
    sigaction(SIGBUS, &ranges.previous, nil)
}
