import Glibc

/// A scan's entropy-coded bytes with the byte stuffing (`FF 00`) taken out and the restart markers
/// turned into segment offsets, followed by zero padding, so the bit reader never has to look for
/// markers or check for the end inside a block.
final class EntropyData {
    /// Zero bytes after the data: more than one MCU can consume (24 blocks of 64 codes of ≤ 31
    /// bits) plus a load, so the decoder need only check for the end once per MCU.
    static let padding = 8192
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0
    /// Offsets in `bytes` where each restart interval after the first starts.
    private(set) var restarts: UnsafeMutablePointer<Int>
    private var restartCapacity: Int
    private(set) var restartCount = 0
    /// How many times the byte buffer was made; for tests.
    private(set) var allocations = 1

    init() {
        capacity = 64 * 1024
        bytes = .allocate(capacity: capacity + Self.padding)
        restartCapacity = 256
        restarts = .allocate(capacity: restartCapacity)
    }

    deinit {
        bytes.deallocate()
        restarts.deallocate()
    }

    /// Copies the entropy-coded segment starting at `offset` of `data` up to the first marker that
    /// is not a restart marker (normally EOI).
    func load(_ data: UnsafeRawBufferPointer, from offset: Int) {
        let base = data.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let end = data.count
        // A quarter more: the next pictures are as large give or take, and a new buffer costs
        // its page faults again.
        if end - offset > capacity { grow(to: (end - offset) * 5 / 4) }
        var src = offset, dst = 0
        restartCount = 0
        while src < end {
            guard let found = memchr(base + src, 0xFF, end - src) else {
                (bytes + dst).update(from: base + src, count: end - src)
                dst += end - src
                break
            }
            let ff = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            (bytes + dst).update(from: base + src, count: ff - src)
            dst += ff - src
            var next = ff + 1
            while next < end && base[next] == 0xFF { next += 1 }
            guard next < end else { break }
            let marker = base[next]
            if marker == 0 {
                bytes[dst] = 0xFF
                dst += 1
            } else if (0xD0...0xD7).contains(marker) {
                addRestart(at: dst)
            } else {
                break
            }
            src = next + 1
        }
        count = dst
        (bytes + dst).initialize(repeating: 0, count: Self.padding)
    }

    /// Makes room for pictures of `count` bytes and writes the room (faulting its pages in) ahead of
    /// the first picture.
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        grow(to: count)
        bytes.initialize(repeating: 0, count: capacity + Self.padding)
    }

    private func grow(to newCapacity: Int) {
        bytes.deallocate()
        capacity = newCapacity
        bytes = .allocate(capacity: capacity + Self.padding)
        allocations += 1
    }

    private func addRestart(at offset: Int) {
        if restartCount == restartCapacity {
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: restartCapacity * 2)
            grown.update(from: restarts, count: restartCount)
            restarts.deallocate()
            restarts = grown
            restartCapacity *= 2
        }
        restarts[restartCount] = offset
        restartCount += 1
    }
}

/// Reads a JPEG scan's bits MSB first from unstuffed, zero-padded bytes. The 64-bit window is
/// refilled without branches (at least 56 valid bits after `refill`).
struct BitReader {
    private var window: UInt64 = 0
    private var valid = 0
    private(set) var position: UnsafePointer<UInt8>

    init(_ start: UnsafePointer<UInt8>) { position = start }

    @inline(__always)
    mutating func refill() {
        let next = UInt64(bigEndian: UnsafeRawPointer(position).loadUnaligned(as: UInt64.self))
        window |= next &>> UInt64(valid)
        position += (63 &- valid) >> 3
        valid |= 56
    }

    /// The next `n` (1…32) bits, not consumed.
    @inline(__always)
    func peek(_ n: Int) -> Int { Int(truncatingIfNeeded: window &>> UInt64(64 &- n)) }

    /// Bits consumed since `start`.
    @inline(__always)
    func bitOffset(from start: UnsafePointer<UInt8>) -> Int { (position - start) &* 8 &- valid }

    /// The 16 next bits, left-aligned code prefix for lengths above the look-up width.
    @inline(__always)
    var next16: UInt32 { UInt32(truncatingIfNeeded: window &>> 48) }

    @inline(__always)
    mutating func consume(_ n: Int) {
        window &<<= UInt64(n)
        valid &-= n
    }
}
