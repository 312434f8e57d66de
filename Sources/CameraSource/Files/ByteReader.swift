#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Buffered reads from a file descriptor (file, pipe or stdin) with absolute byte offsets.
///
/// Small structures (headers, markers) are parsed straight out of the read-ahead buffer;
/// big payloads are copied from it and then read directly into their destination.
final class ByteReader {
    let fd: Int32
    private let storage: UnsafeMutableRawPointer
    let capacity: Int
    private var start = 0
    private var end = 0
    /// Absolute stream offset of the first unconsumed byte.
    private(set) var offset = 0
    private(set) var reachedEOF = false

    init(fd: Int32, capacity: Int = 64 * 1024) {
        self.fd = fd
        self.capacity = capacity
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 64)
    }

    deinit { storage.deallocate() }

    /// The file mapped, when it is a regular file read from its start: `borrow` hands out frames
    /// from it without copying them.
    var mapping: MappedFile?

    /// Where the next `count` bytes lie in the file's mapping, consumed; nil (nothing consumed)
    /// when nothing is mapped or the file, as it is now, ends before them — read them instead.
    func borrow(_ count: Int) -> UnsafeRawPointer? {
        guard let mapping, count > 0, offset + count <= mapping.length,
            let size = MappedFile.size(of: fd), offset + count <= size
        else { return nil }
        let at = offset
        let buffered = min(count, end - start)
        consume(buffered)
        // The descriptor reads on after the borrowed bytes, for what comes between frames.
        if count > buffered {
            guard lseek(fd, off_t(count - buffered), SEEK_CUR) >= 0 else { return nil }
            offset += count - buffered
        }
        return mapping.base + at
    }

    /// Goes to stream offset `to` (a regular file only): what was read ahead is dropped.
    func seek(to target: Int) throws(Errno) {
        guard lseek(fd, off_t(target), SEEK_SET) >= 0 else { throw Errno.current }
        start = 0
        end = 0
        offset = target
        reachedEOF = false
    }

    /// The bytes read ahead but not consumed yet.
    var available: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + start, count: end - start)
    }

    var availableCount: Int { end - start }

    func consume(_ count: Int) {
        precondition(count <= end - start)
        start += count
        offset += count
    }

    /// Reads more into the buffer (after moving the unconsumed rest to its front).
    /// Returns false at end of file, or when the buffer is already full.
    @discardableResult
    func fill() throws(Errno) -> Bool {
        if start > 0 {
            let rest = end - start
            if rest > 0 { memmove(storage, storage + start, rest) }
            start = 0
            end = rest
        }
        guard end < capacity, !reachedEOF else { return false }
        let got = try Self.readSome(fd: fd, into: storage + end, count: capacity - end)
        if got == 0 {
            reachedEOF = true
            return false
        }
        end += got
        return true
    }

    /// Makes at least `count` bytes (at most `capacity`) available, unless the stream ends first.
    func ensureAvailable(_ count: Int) throws(Errno) -> Bool {
        while end - start < count {
            if try !fill() { return end - start >= count }
        }
        return true
    }

    /// Index into `available` of the first `byte` already buffered (reads nothing).
    func firstBuffered(_ byte: UInt8) -> Int? {
        guard end > start, let hit = memchr(storage + start, Int32(byte), end - start) else { return nil }
        return (storage + start).distance(to: hit)
    }

    /// Index into `available` of the first `byte`, looking at most `limit` bytes ahead.
    func find(_ byte: UInt8, within limit: Int) throws(Errno) -> Int? {
        var searched = 0
        while true {
            let count = min(end - start, limit)
            if count > searched,
                let hit = memchr(storage + start + searched, Int32(byte), count - searched)
            {
                return (storage + start).distance(to: hit)
            }
            searched = count
            if searched >= limit { return nil }
            if try !fill() { return nil }
        }
    }

    /// Copies up to `count` bytes into `destination`, looping over short reads.
    /// Returns fewer than `count` only at end of file.
    func read(into destination: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
        let buffered = min(count, end - start)
        if buffered > 0 {
            destination.copyMemory(from: storage + start, byteCount: buffered)
            consume(buffered)
        }
        var got = buffered
        while got < count && !reachedEOF {
            // Large remainders go straight to the destination: one copy instead of two.
            let n = try Self.readSome(fd: fd, into: destination + got, count: count - got)
            if n == 0 { reachedEOF = true }
            got += n
            offset += n
        }
        return got
    }

    /// One `read(2)`, tried again when interrupted (`SystemCall`) and waiting on a non-blocking descriptor. 0 means end of file.
    static func readSome(fd: Int32, into destination: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
        while true {
            let (n, code) = SystemCall.retryingInterrupts { Glibc.read(fd, destination, count) }
            if n >= 0 { return n }
            guard code == EAGAIN || code == EWOULDBLOCK else { throw Errno(code) }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, -1)
        }
    }
}
