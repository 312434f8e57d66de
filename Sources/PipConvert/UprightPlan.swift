/// The tables and scratch of an upright conversion (0° or 180°, mirrored or not), which works on
/// blocks of 8 output lines and filters columns first:
///
/// 1. per plane and line, one vertical pass over the raw bytes of the source rows the line covers
///    (contiguous, 16 bytes per step);
/// 2. the block's 8 filtered lines are transposed, so each sample position holds one vector of
///    8 lines;
/// 3. the horizontal taps then read whole vectors — no gathers — and produce 8 lines of each
///    output pixel at once, which are transposed back for colour conversion and storing.
///
/// Intermediate samples are 16-bit, 2⁸ × the value; weights are 16-bit fractions of 2¹⁶
/// (`mulhi` style). Quarter turns use it too, through `QuarterTurn`. A zoomed picture's tables
/// cover its shown part only (`ConversionKey.crop`): no pass reads the rest.
final class UprightPlan {
    static let block = 8

    /// One plane's vertical pass: which source rows each output line combines, with what weights.
    struct Plane {
        var index: Int
        /// Where the shown part (`ConversionKey.crop`) begins in each of the plane's rows, in bytes:
        /// the taps below count from there.
        var firstByte: Int
        /// Bytes of a source row the horizontal taps read, and that rounded up to whole vectors.
        var rowBytes: Int
        var rowSamples: Int
        var taps: Int
        var starts: UnsafeMutablePointer<Int32>
        /// `taps` weights per output line, in 2⁻¹⁶ (a lone full weight is stored as 2¹⁶ − 1).
        var weights: UnsafeMutablePointer<UInt16>
        /// `block` filtered lines, `rowSamples` apart.
        var lines: UnsafeMutablePointer<UInt16>
        /// The same, transposed: sample `x` of the block's lines at `x × block`.
        var columns: UnsafeMutablePointer<UInt16>
    }

    /// One channel's horizontal pass over its plane's transposed block.
    struct Channel {
        var plane: Int
        var taps: Int
        /// Index into the plane's row of each output's first tap (channel offset folded in).
        var starts: UnsafeMutablePointer<Int32>
        /// Weight `k` of output `i` repeated over a vector, at `(i × taps + k) × block`.
        var weights: UnsafeMutablePointer<UInt16>
        var step: Int
        /// The block's filtered outputs: output `i` of the 8 lines at `i × block`.
        var out: UnsafeMutablePointer<UInt16>
    }

    let key: ConversionKey
    let kind: SampleKind
    let innerCount: Int
    /// `innerCount` rounded up to whole vectors.
    let paddedCount: Int
    let outerCount: Int
    let outerReversed: Bool
    let planes: [Plane]
    let channels: [Channel]
    /// Per channel, 8 outputs of the block's 8 lines transposed back to line order (64 samples).
    let transposed: UnsafeMutablePointer<UInt16>
    /// How many blocks of `block` output lines a frame has.
    var blockCount: Int { (outerCount + Self.block - 1) / Self.block }
    /// For each block, how many of the picture's rows (from the top, in every plane) its vertical
    /// passes read: a picture still being decoded can have the block converted once that many
    /// rows are final (`ProgressivePass`).
    let rowsNeeded: UnsafeMutablePointer<Int32>
    private var allocations: [UnsafeMutableRawPointer] = []

    /// Whether `UprightPlan` handles `rotation` (the others turn rows into columns).
    static func handles(_ rotation: Rotation) -> Bool { !rotation.swapsAxes }

    init(key: ConversionKey) {
        precondition(Self.handles(key.rotation))
        self.key = key
        let layout = SampleKind.channels(of: key.format)
        kind = layout.kind
        let upsideDown = key.rotation == .deg180, block = Self.block
        outerReversed = upsideDown
        innerCount = key.content.width
        let paddedCount = (key.content.width + 7) & ~7
        self.paddedCount = paddedCount
        outerCount = key.content.height

        var allocations: [UnsafeMutableRawPointer] = []
        func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, array.count))
            p.initialize(from: array, count: array.count)
            allocations.append(UnsafeMutableRawPointer(p))
            return p
        }
        func scratch(_ count: Int) -> UnsafeMutablePointer<UInt16> {
            copy([UInt16](repeating: 0, count: count))
        }
        var planes: [Plane] = []
        var channels: [Channel] = []
        var reach: [Int: Int] = [:]
        var verticalShifts: [Int: Int] = [:]
        let crop = key.crop
        for source in layout.channels {
            let inner = ScaleTable(
                sourceLength: crop.width, outputLength: innerCount,
                subsampling: source.horizontalShift, reversed: upsideDown != key.mirror)
            var starts = inner.starts.map { Int32(source.offset) + $0 * Int32(source.step) }
            reach[source.plane] = max(
                reach[source.plane] ?? 0, Int(starts.max() ?? 0) + (inner.taps - 1) * source.step + 1)
            // Padding outputs read sample 0 with zero weights.
            starts += [Int32](repeating: 0, count: paddedCount - innerCount)
            var weights = [UInt16](repeating: 0, count: paddedCount * inner.taps * block)
            for i in 0..<innerCount {
                for k in 0..<inner.taps {
                    let w = Self.weight16(inner.weights[i * inner.taps + k])
                    for lane in 0..<block { weights[(i * inner.taps + k) * block + lane] = w }
                }
            }
            verticalShifts[source.plane] = source.verticalShift
            if !planes.contains(where: { $0.index == source.plane }) {
                let outer = ScaleTable(
                    sourceLength: crop.height, outputLength: outerCount, subsampling: source.verticalShift)
                // The crop's edges are even, so every subsampled plane's part starts on a whole sample.
                let firstRow = Int32(crop.y >> source.verticalShift)
                planes.append(Plane(
                    index: source.plane, firstByte: (crop.x >> source.horizontalShift) * source.step,
                    rowBytes: 0, rowSamples: 0, taps: outer.taps, starts: copy(outer.starts.map { $0 + firstRow }),
                    weights: copy(outer.weights.map(Self.weight16)), lines: UnsafeMutablePointer(bitPattern: 2)!,
                    columns: UnsafeMutablePointer(bitPattern: 2)!))
            }
            channels.append(Channel(
                plane: planes.firstIndex { $0.index == source.plane }!, taps: inner.taps, starts: copy(starts),
                weights: copy(weights), step: source.step, out: scratch(paddedCount * block)))
        }
        for i in planes.indices {
            planes[i].rowBytes = reach[planes[i].index]!
            let samples = (planes[i].rowBytes + 7) & ~7
            planes[i].rowSamples = samples
            planes[i].lines = scratch(samples * block)
            planes[i].columns = scratch(samples * block)
        }
        self.planes = planes
        self.channels = channels
        transposed = scratch(3 * block * block)
        rowsNeeded = copy(
            Self.rowsNeeded(planes: planes, shifts: verticalShifts, lines: outerCount, pictureHeight: key.sourceHeight))
        self.allocations = allocations
    }

    deinit {
        for p in allocations { p.deallocate() }
    }

    /// `rowsNeeded`: per block, the furthest picture row any line's vertical taps reach, in any
    /// plane (a subsampled plane's row `r` is final once picture rows up to `(r + 1) << shift` are).
    private static func rowsNeeded(planes: [Plane], shifts: [Int: Int], lines: Int, pictureHeight: Int) -> [Int32] {
        stride(from: 0, to: lines, by: block).map { first in
            var needed = 0
            for plane in planes {
                let shift = shifts[plane.index] ?? 0
                for line in first..<min(first + block, lines) {
                    needed = max(needed, min((Int(plane.starts[line]) + plane.taps) << shift, pictureHeight))
                }
            }
            return Int32(needed)
        }
    }

    /// A `ScaleTable` weight (2⁻¹⁴ units) in 2⁻¹⁶ units, saturated to 16 bits.
    static func weight16(_ w: Int16) -> UInt16 { UInt16(min(Int(w) << 2, 0xFFFF)) }
}
