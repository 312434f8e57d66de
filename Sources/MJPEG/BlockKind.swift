/// What the decoding loop makes of one block, and how it is written out. Every kind leaves the
/// block's DC part out of its value: that part depends on the blocks before (the DC predictor),
/// and leaving it out is what lets a second thread parse from the middle of a scan and keep its
/// blocks' values (`BlockRecords`) until the predictors are known.
protocol BlockKind {
    /// One block's output without its DC part.
    associatedtype Value: BitwiseCopyable
    /// Bytes a record of `Value` takes in `BlockRecords`.
    static var recordStride: Int { get }
    /// Decodes one block at `reader`, adding its DC difference to `predictor`.
    static func decode(_ reader: inout BitReader, predictor: inout Int32, slot: BlockSlot) -> Value
    /// Writes a block's pixels (1, 2×2, 4×4 or 8×8) at `row`: `value` plus the DC part of `predictor`.
    static func write(_ value: Value, slot: BlockSlot, predictor: Int32, to row: UnsafeMutablePointer<UInt8>)
}

/// Where the Huffman loop (`HuffmanBlock.decode`) puts each AC coefficient it decodes.
protocol CoefficientSink {
    /// The coefficient at zig-zag position `k` (1…127: positions past 63 come from corrupt data or
    /// a code after the end of block, and must change nothing) is `value`.
    mutating func add(_ k: Int, _ value: Int32)
}

/// Block means at 1/2, 1/4 or 1/8 scale: each coefficient adds a precomputed weight vector
/// (`ReducedJPEGDecoder.prepareWeights`) to the block's sums.
struct MeanSink<Sum: SIMD>: CoefficientSink where Sum.Scalar == Float {
    var sum = Sum()
    /// `Sum` weights per zig-zag position; zero past 63.
    let weights: UnsafeRawPointer

    @inline(__always)
    mutating func add(_ k: Int, _ value: Int32) {
        sum += weights.load(fromByteOffset: k &* MemoryLayout<Sum>.stride, as: Sum.self) * Float(value)
    }
}

/// The 1/8 scale: a block's mean is its DC term alone, so AC coefficients are parsed and dropped.
struct NoCoefficients: CoefficientSink {
    // Not empty: the in-out accesses to an empty value all get one shared address, and the thread
    // sanitizer takes the two split threads' accesses there for a race.
    private var unused: UInt8 = 0

    @inline(__always) mutating func add(_ k: Int, _ value: Int32) {}
}

/// 1/8 scale: one pixel per block.
enum BlockMean: BlockKind {
    static var recordStride: Int { MemoryLayout<SIMD4<Float>>.stride }

    @inline(__always)
    static func decode(_ reader: inout BitReader, predictor: inout Int32, slot: BlockSlot) -> SIMD4<Float> {
        var sink = NoCoefficients()
        HuffmanBlock.decode(&reader, predictor: &predictor, dc: slot.dc, ac: slot.ac, into: &sink)
        return SIMD4()
    }

    @inline(__always)
    static func write(_ value: SIMD4<Float>, slot: BlockSlot, predictor: Int32, to row: UnsafeMutablePointer<UInt8>) {
        slot.write(value, predictor: predictor, side: 1, to: row)
    }
}

/// 1/4 scale (2×2 means per block, `SIMD4` sums) or 1/2 (4×4, `SIMD16`).
enum BlockMeans<Sum: SIMD & BitwiseCopyable>: BlockKind where Sum.Scalar == Float {
    /// Output pixels per block side.
    static var side: Int { Sum.scalarCount == 4 ? 2 : 4 }
    static var recordStride: Int { MemoryLayout<Sum>.stride }

    @inline(__always)
    static func decode(_ reader: inout BitReader, predictor: inout Int32, slot: BlockSlot) -> Sum {
        var sink = MeanSink<Sum>(weights: UnsafeRawPointer(slot.weights))
        HuffmanBlock.decode(&reader, predictor: &predictor, dc: slot.dc, ac: slot.ac, into: &sink)
        return sink.sum
    }

    @inline(__always)
    static func write(_ value: Sum, slot: BlockSlot, predictor: Int32, to row: UnsafeMutablePointer<UInt8>) {
        slot.write(value, predictor: predictor, side: side, to: row)
    }
}

typealias QuarterMeans = BlockMeans<SIMD4<Float>>
typealias HalfMeans = BlockMeans<SIMD16<Float>>
