import PipCore

/// A few frame buffers, each either free or lent out in a frame until recycled.
///
/// Allocated once at start; a buffer only grows (keeping its contents) when a bigger frame
/// arrives, so steady-state playback allocates nothing.
struct BufferRing {
    private(set) var bases: [UnsafeMutableRawPointer] = []
    private(set) var capacities: [Int] = []
    private var lent: [Bool] = []
    private var next = 0

    var count: Int { bases.count }

    /// Allocates `count` buffers of `byteCount` bytes each (freeing any previous ones).
    mutating func allocate(count: Int, byteCount: Int) {
        deallocate()
        for _ in 0..<count {
            bases.append(UnsafeMutableRawPointer.allocate(byteCount: max(byteCount, 1), alignment: 64))
            capacities.append(max(byteCount, 1))
            lent.append(false)
        }
        next = 0
    }

    mutating func deallocate() {
        for base in bases { base.deallocate() }
        bases = []
        capacities = []
        lent = []
    }

    /// A free buffer's index, now marked lent, or nil when all are out.
    mutating func acquire() -> Int? {
        for step in 0..<bases.count {
            let index = (next + step) % bases.count
            if !lent[index] {
                lent[index] = true
                next = (index + 1) % bases.count
                return index
            }
        }
        return nil
    }

    /// Marks a buffer free again; unknown or already free indices are ignored.
    mutating func release(_ index: Int) {
        guard lent.indices.contains(index) else { return }
        lent[index] = false
    }

    func isLent(_ index: Int) -> Bool { lent.indices.contains(index) && lent[index] }

    /// Grows buffer `index` to hold at least `byteCount` bytes, keeping the first `keeping` bytes.
    mutating func reserve(_ index: Int, byteCount: Int, keeping: Int) {
        guard byteCount > capacities[index] else { return }
        var size = capacities[index]
        while size < byteCount { size *= 2 }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        if keeping > 0 { grown.copyMemory(from: bases[index], byteCount: keeping) }
        bases[index].deallocate()
        bases[index] = grown
        capacities[index] = size
    }
}

/// When frame k of a file is due: `anchor + k/fps`, computed from `now` passed in.
///
/// The pump asks for frame k+1 once the display has taken frame k. Asked so late that frame k would
/// be on screen for less than half a period — the display held it (a window not mapped yet, PiP
/// starting) or the source delivered it late — the schedule restarts there, frame k+1 a whole period
/// later: a file's first frames do not flash past, and a late frame is not followed by a burst.
struct FramePacer {
    let fps: Double
    let maxLagNanoseconds: UInt64
    private var anchor: MonotonicInstant?
    private var anchorIndex: UInt64 = 0
    /// The frame asked for last: only the first ask for a frame may restart the schedule.
    private var askedIndex: UInt64?

    init(fps: Double, maxLagNanoseconds: UInt64 = 250_000_000) {
        self.fps = fps
        self.maxLagNanoseconds = maxLagNanoseconds
    }

    /// Nil when frame `index` may go out at `now`; otherwise the instant it is due.
    mutating func deadline(forFrame index: UInt64, now: MonotonicInstant) -> MonotonicInstant? {
        let firstAsk = askedIndex != index
        askedIndex = index
        guard let anchor else {
            self.anchor = now
            anchorIndex = index
            return nil
        }
        let period = Self.offset(frames: 1, fps: fps)
        var due = anchor.advanced(byNanoseconds: Self.offset(frames: index &- anchorIndex, fps: fps))
        if firstAsk && Int64(bitPattern: due.nanoseconds &- now.nanoseconds) < period / 2 {
            due = now.advanced(byNanoseconds: period)
            self.anchor = due
            anchorIndex = index
        }
        if now < due { return due }
        // Woken far past the deadline (the pump's thread descheduled): restart from here.
        if now.nanoseconds - due.nanoseconds > maxLagNanoseconds {
            self.anchor = now
            anchorIndex = index
        }
        return nil
    }

    /// Nanoseconds from frame 0 to frame `frames`, rounded up so that waking at the deadline is never early.
    static func offset(frames: UInt64, fps: Double) -> Int64 {
        Int64((Double(frames) * 1e9 / fps).rounded(.up))
    }
}
