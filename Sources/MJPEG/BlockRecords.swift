/// What `BlockParser` writes for each block it parses, in parsing order: the block's AC sum (its
/// output pixels minus the DC part), its DC difference, and where its first code starts. The DC
/// part is left out because it depends on every block before: `BlockAssembler` adds it, which is
/// what lets a parser start in the middle of a scan.
final class BlockRecords {
    /// Blocks that fit; index `capacity` is where stores that must go nowhere go.
    private(set) var capacity = 0
    private(set) var sumStride = 0
    /// How many times `reserve` allocated; for tests.
    private(set) var allocations = 0
    private(set) var sums = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
    private(set) var differences = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    /// Bit offset in the scan's entropy data << 8 | the block's slot in its MCU.
    private(set) var starts = UnsafeMutablePointer<Int64>.allocate(capacity: 1)

    deinit {
        sums.deallocate()
        differences.deallocate()
        starts.deallocate()
    }

    /// Makes room for `blocks` blocks of sums `sumStride` bytes wide (allocates only to grow);
    /// returns whether it allocated.
    @discardableResult
    func reserve(blocks: Int, sumStride stride: Int) -> Bool {
        guard blocks > capacity || stride > sumStride else { return false }
        let count = max(blocks, capacity), width = max(stride, sumStride)
        sums.deallocate()
        differences.deallocate()
        starts.deallocate()
        sums = .allocate(byteCount: (count + 1) * width, alignment: 64)
        // Batches of 64 records then fill whole cache lines: the other thread reads a batch while
        // this one writes the next, and a shared line would go back and forth between them.
        differences = UnsafeMutableRawPointer.allocate(byteCount: (count + 1) * 4, alignment: 64).bindMemory(to: Int32.self, capacity: count + 1)
        starts = UnsafeMutableRawPointer.allocate(byteCount: (count + 1) * 8, alignment: 64).bindMemory(to: Int64.self, capacity: count + 1)
        capacity = count
        sumStride = width
        allocations += 1
        return true
    }

    /// Writes the first `blocks` records (faulting their pages in), so that the thread that fills
    /// them first does not pay for that.
    func touch(blocks: Int) {
        let n = min(blocks, capacity)
        sums.initializeMemory(as: UInt8.self, repeating: 0, count: n * sumStride)
        differences.initialize(repeating: 0, count: n)
        starts.initialize(repeating: 0, count: n)
    }

    /// The bit offset a start record holds.
    static func bitOffset(_ start: Int64) -> Int { Int(start >> 8) }
}
