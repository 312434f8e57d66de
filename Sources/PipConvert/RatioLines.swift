import PipCore

/// The vertical half of a straight ratio pass (`ThreeQuarterPass`): per
/// plane the vertical taps of `UprightPlan` (the same `ScaleTable`s, in the same 16-bit weights)
/// and one line of 16-bit samples, and per channel its samples of the filtered row, split into a
/// line of their own when they are interleaved with others (YUYV, NV12's chroma). Made once per
/// geometry; every line is padded so that vector reads past a row's end stay inside it.
final class RatioLines {
    typealias U16x8 = SIMD8<UInt16>

    struct Plane {
        var index: Int
        /// Bytes of a source row.
        var rowBytes: Int
        var taps: Int
        var starts: UnsafeMutablePointer<Int32>
        var weights: UnsafeMutablePointer<UInt16>
        /// The vertically filtered row, 2⁸ × the value.
        var line: UnsafeMutablePointer<UInt16>
    }

    let format: PixelFormat
    let kind: SampleKind
    let planes: [Plane]
    /// Each channel's samples of the filtered row (its plane's line when it holds no other).
    let samples: [UnsafeMutablePointer<UInt16>]
    /// Whether each channel is half-width chroma.
    let half: [Bool]
    private var allocations: [UnsafeMutableRawPointer] = []

    init(key: ConversionKey) {
        format = key.format
        let layout = SampleKind.channels(of: key.format)
        kind = layout.kind
        var allocations: [UnsafeMutableRawPointer] = []
        func buffer<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
            p.initialize(from: values, count: values.count)
            allocations.append(UnsafeMutableRawPointer(p))
            return p
        }
        // A row's samples rounded up to whole blocks of vectors, and a block more.
        let padded = ((key.sourceWidth * 2 + 63) & ~63) + 64
        var planes: [Plane] = []
        var samples: [UnsafeMutablePointer<UInt16>] = []
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
            let plane = planes.first { $0.index == source.plane }!
            samples.append(source.step > 1 ? buffer([UInt16](repeating: 0, count: padded)) : plane.line)
        }
        self.planes = planes
        self.samples = samples
        half = layout.channels.map { $0.horizontalShift == 1 }
        self.allocations = allocations
    }

    deinit {
        for p in allocations { p.deallocate() }
    }

    /// The vertical passes of output row `y` into the planes' lines, and the interleaved
    /// channels' samples split into lines of their own.
    func filter(row y: Int, of source: (FramePlane, FramePlane, FramePlane)) {
        for plane in planes {
            let p = plane.index == 0 ? source.0 : plane.index == 1 ? source.1 : source.2
            UprightKernels.verticalLine(
                p.base.assumingMemoryBound(to: UInt8.self), stride: p.stride, first: Int(plane.starts[y]),
                taps: plane.taps, weights: plane.weights + y &* plane.taps, count: plane.rowBytes, into: plane.line)
        }
        switch format {
        case .yuyv:
            // Y′ Cb Y′ Cr: luma the even samples, chroma the odd ones, Cb and Cr alternating.
            let line = planes[0].line, luma = samples[0], cb = samples[1], cr = samples[2]
            var i = 0
            while i < planes[0].rowBytes {
                let first = Lanes.evenOdd16(line + i), second = Lanes.evenOdd16(line + i + 16)
                Self.store(first.even, luma + i / 2)
                Self.store(second.even, luma + i / 2 + 8)
                let chroma = Lanes.evenOdd16(first.odd, second.odd)
                Self.store(chroma.even, cb + i / 4)
                Self.store(chroma.odd, cr + i / 4)
                i &+= 32
            }
        case .nv12:
            let line = planes[1].line, cb = samples[1], cr = samples[2]
            var i = 0
            while i < planes[1].rowBytes {
                let pair = Lanes.evenOdd16(line + i)
                Self.store(pair.even, cb + i / 2)
                Self.store(pair.odd, cr + i / 2)
                i &+= 16
            }
        default: break
        }
    }

    @inline(__always)
    private static func store(_ v: U16x8, _ p: UnsafeMutablePointer<UInt16>) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, as: U16x8.self)
    }

    /// Output `i`'s weight on each sample of a channel it reads, in 16-bit weights, zero weights
    /// left out (a clamped last output lists its taps one sample earlier, with a zero in front).
    static func taps(_ table: ScaleTable, _ i: Int) -> [Int: UInt16] {
        var map: [Int: UInt16] = [:]
        for k in 0..<table.taps {
            let w = UprightPlan.weight16(table.weights[i * table.taps + k])
            if w != 0 { map[Int(table.starts[i]) + k] = w }
        }
        return map
    }
}
