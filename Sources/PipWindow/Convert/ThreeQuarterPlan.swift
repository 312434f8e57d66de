import PipCore

/// The tables and line buffers of `ThreeQuarterPass`, made once per geometry: per plane the
/// vertical taps of `UprightPlan` (the same `ScaleTable`s, in the same 16-bit weights) and one
/// line of 16-bit samples; per channel the horizontal weights of the three phases (outputs 3g,
/// 3g + 1 and 3g + 2 of each group g of four source samples, or two of half-width chroma) and a
/// line of its own samples when they are interleaved with others (YUYV, NV12's chroma).
final class ThreeQuarterPlan {
    typealias U16x8 = SIMD8<UInt16>

    struct Plane {
        var index: Int
        /// Bytes of a source row.
        var rowBytes: Int
        var taps: Int
        var starts: UnsafeMutablePointer<Int32>
        var weights: UnsafeMutablePointer<UInt16>
        /// The vertically filtered row, 2⁸ × the value, padded to whole groups of vectors.
        var line: UnsafeMutablePointer<UInt16>
    }

    struct Channel {
        var plane: Int
        var offset: Int
        var step: Int
        /// Half-width chroma: two samples to a group of three outputs, not four.
        var half: Bool
        /// Each phase's weight of the group's first and second tap (`ThreeQuarterPass.phases`).
        var first: (U16x8, U16x8, U16x8)
        var second: (U16x8, U16x8, U16x8)
        /// The channel's own samples of the filtered row (the plane's line when it holds no other).
        var samples: UnsafeMutablePointer<UInt16>
    }

    let key: ConversionKey
    let kind: SampleKind
    let planes: [Plane]
    let channels: [Channel]
    /// Groups of three outputs in a row.
    let groups: Int
    /// Whether every output's taps follow the three phases of the first group (they do at an
    /// exact 4:3 unless a table rounds unevenly; otherwise the resampling pass converts).
    let isPeriodic: Bool
    private var allocations: [UnsafeMutableRawPointer] = []

    /// Whether `key` is a case the pass converts: upright Y′CbCr or grey, the whole picture,
    /// exactly 3/4 of it each way, whole groups of four source rows and columns.
    static func handles(_ key: ConversionKey) -> Bool {
        guard UprightPlan.handles(key.rotation), key.showsWholePicture, key.sourceWidth % 4 == 0, key.sourceHeight % 4 == 0,
            key.content.width * 4 == key.sourceWidth * 3, key.content.height * 4 == key.sourceHeight * 3
        else { return false }
        switch key.format {
        case .gray, .i420, .i422, .i444, .yuyv, .nv12: return true
        default: return false
        }
    }

    init(key: ConversionKey) {
        precondition(Self.handles(key))
        self.key = key
        let layout = SampleKind.channels(of: key.format)
        kind = layout.kind
        groups = key.content.width / 3
        var allocations: [UnsafeMutableRawPointer] = []
        func buffer<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
            p.initialize(from: values, count: values.count)
            allocations.append(UnsafeMutableRawPointer(p))
            return p
        }
        // Whole blocks of 8 groups, and a block more: the last block's vectors read past the row.
        let padded = ((key.sourceWidth * 2 + 63) & ~63) + 64
        var planes: [Plane] = []
        var channels: [Channel] = []
        var periodic = true
        for source in layout.channels {
            if !planes.contains(where: { $0.index == source.plane }) {
                let outer = ScaleTable(sourceLength: key.sourceHeight, outputLength: key.content.height, subsampling: source.verticalShift)
                let samplesInRow = (key.sourceWidth + (1 << source.horizontalShift) - 1) >> source.horizontalShift
                planes.append(Plane(
                    // The plane's first channel spans its row: YUYV's luma, NV12's Cb.
                    index: source.plane, rowBytes: source.step * samplesInRow,
                    taps: outer.taps, starts: buffer(outer.starts), weights: buffer(outer.weights.map(UprightPlan.weight16)),
                    line: buffer([UInt16](repeating: 0, count: padded))))
            }
            let plane = planes.firstIndex { $0.index == source.plane }!
            let half = source.horizontalShift == 1
            let phases = Self.phases(source: key.sourceWidth, output: key.content.width, half: half)
            periodic = periodic && phases != nil
            let (first, second) = phases ?? ((0, 0, 0), (0, 0, 0))
            let interleaved = source.step > 1
            channels.append(Channel(
                plane: plane, offset: source.offset, step: source.step, half: half,
                first: (U16x8(repeating: first.0), U16x8(repeating: first.1), U16x8(repeating: first.2)),
                second: (U16x8(repeating: second.0), U16x8(repeating: second.1), U16x8(repeating: second.2)),
                samples: interleaved ? buffer([UInt16](repeating: 0, count: padded)) : planes[plane].line))
        }
        self.planes = planes
        self.channels = channels
        isPeriodic = periodic
        self.allocations = allocations
    }

    deinit {
        for p in allocations { p.deallocate() }
    }

    /// The 16-bit weights of the first and second tap of outputs 3g, 3g + 1 and 3g + 2 when every
    /// group's taps are those of group 0 moved along by four samples (two for `half` chroma); nil
    /// otherwise. The taps are the resampling pass's (`ScaleTable`), so both give the same pixels.
    static func phases(source: Int, output: Int, half: Bool) -> (first: (UInt16, UInt16, UInt16), second: (UInt16, UInt16, UInt16))? {
        let table = ScaleTable(sourceLength: source, outputLength: output, subsampling: half ? 1 : 0)
        guard table.taps == 2 else { return nil }
        let advance = half ? 2 : 4
        // Output i's weight on each sample it reads, zero weights left out (a clamped last output
        // lists its taps one sample earlier, with a zero in front).
        func taps(_ i: Int) -> [Int: UInt16] {
            var map: [Int: UInt16] = [:]
            for k in 0..<2 {
                let w = UprightPlan.weight16(table.weights[i * 2 + k])
                if w != 0 { map[Int(table.starts[i]) + k] = w }
            }
            return map
        }
        // Phase p's taps, counted from its group's first sample: tap 0 is sample p (p for half
        // chroma's phases 0 and 1, phase 2 at 0 too: both taps are the group's two samples).
        var first: [UInt16] = [], second: [UInt16] = []
        for p in 0..<3 {
            let base = half ? 0 : p
            let map = taps(p)
            guard map.keys.allSatisfy({ $0 == base || $0 == base + 1 }) else { return nil }
            first.append(map[base] ?? 0)
            second.append(map[base + 1] ?? 0)
        }
        for i in 0..<output {
            let g = i / 3, p = i % 3, base = g * advance + (half ? 0 : p)
            var expected: [Int: UInt16] = [:]
            if first[p] != 0 { expected[base] = first[p] }
            if second[p] != 0 { expected[base + 1] = second[p] }
            if taps(i) != expected { return nil }
        }
        return ((first[0], first[1], first[2]), (second[0], second[1], second[2]))
    }
}

extension ThreeQuarterPlan: KeyedPlan {}
