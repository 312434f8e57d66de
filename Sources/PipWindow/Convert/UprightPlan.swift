import CameraSource

/// The tables and scratch rows of an upright conversion (0° or 180°, mirrored or not), which
/// filters columns first: each output line is one vertical pass over the raw bytes of the source
/// rows it covers (contiguous, vectorised), then one horizontal pass per channel over that line.
///
/// Intermediate samples are 16-bit, 2⁸ × the sample value; weights are 16-bit fractions of 2¹⁶
/// (`mulhi` style), so both passes run on 16-bit lanes. The rotated cases keep `ConversionPlan`.
final class UprightPlan {
    /// One plane's vertical pass: which source rows each output line combines, with what weights.
    struct Plane {
        var index: Int
        /// Bytes of a source row the horizontal taps read.
        var rowBytes: Int
        var taps: Int
        var starts: UnsafeMutablePointer<Int32>
        /// `taps` weights per output line, in 2⁻¹⁶ (a lone full weight is stored as 2¹⁶ − 1).
        var weights: UnsafeMutablePointer<UInt16>
        /// The filtered line, `rowBytes` samples.
        var line: UnsafeMutablePointer<UInt16>
    }

    /// One channel's horizontal pass over its plane's filtered line.
    struct Channel {
        var plane: Int
        var taps: Int
        /// Index into the filtered line of each output's first tap (channel offset folded in),
        /// padded with zeros to `paddedCount`.
        var starts: UnsafeMutablePointer<Int32>
        /// Tap-major: tap `k` of output `i` at `k × paddedCount + i` (zero in the padding).
        var weights: UnsafeMutablePointer<UInt16>
        var step: Int
        /// `innerCount` filtered samples.
        var out: UnsafeMutablePointer<UInt16>
    }

    let key: ConversionPlan.Key
    let kind: SampleKind
    let innerCount: Int
    /// `innerCount` rounded up to whole vectors.
    let paddedCount: Int
    let outerCount: Int
    let outerReversed: Bool
    let planes: [Plane]
    let channels: [Channel]
    /// Output line whose filtered planes are in `Plane.line`, per plane (-1: none yet).
    var filteredLine: [Int]
    private var allocations: [UnsafeMutableRawPointer] = []

    /// Whether `UprightPlan` handles `rotation` (the others turn rows into columns).
    static func handles(_ rotation: Rotation) -> Bool { !rotation.swapsAxes }

    init(key: ConversionPlan.Key) {
        precondition(Self.handles(key.rotation))
        self.key = key
        let layout = SampleKind.channels(of: key.format)
        kind = layout.kind
        let upsideDown = key.rotation == .deg180
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
            // Padded so vector loops may run a little past the end.
            copy([UInt16](repeating: 0, count: count + 32))
        }
        var planes: [Plane] = []
        var channels: [Channel] = []
        var rowBytes: [Int: Int] = [:]
        for source in layout.channels {
            let inner = ScaleTable(
                sourceLength: key.sourceWidth, outputLength: innerCount,
                subsampling: source.horizontalShift, reversed: upsideDown != key.mirror)
            var starts = inner.starts.map { Int32(source.offset) + $0 * Int32(source.step) }
            let reach = Int(starts.max() ?? 0) + (inner.taps - 1) * source.step + 1
            starts += [Int32](repeating: 0, count: paddedCount - innerCount)
            var weights = [UInt16](repeating: 0, count: inner.taps * paddedCount)
            for i in 0..<innerCount {
                for k in 0..<inner.taps { weights[k * paddedCount + i] = Self.weight16(inner.weights[i * inner.taps + k]) }
            }
            rowBytes[source.plane] = max(rowBytes[source.plane] ?? 0, reach)
            if !planes.contains(where: { $0.index == source.plane }) {
                let outer = ScaleTable(
                    sourceLength: key.sourceHeight, outputLength: outerCount, subsampling: source.verticalShift)
                planes.append(Plane(
                    index: source.plane, rowBytes: 0, taps: outer.taps, starts: copy(outer.starts),
                    weights: copy(outer.weights.map(Self.weight16)), line: UnsafeMutablePointer(bitPattern: 1)!))
            }
            channels.append(Channel(
                plane: planes.firstIndex { $0.index == source.plane }!, taps: inner.taps, starts: copy(starts),
                weights: copy(weights), step: source.step, out: scratch(paddedCount)))
        }
        for i in planes.indices {
            planes[i].rowBytes = rowBytes[planes[i].index]!
            planes[i].line = scratch(planes[i].rowBytes)
        }
        self.planes = planes
        self.channels = channels
        filteredLine = [Int](repeating: -1, count: planes.count)
        self.allocations = allocations
    }

    deinit {
        for p in allocations { p.deallocate() }
    }

    /// A `ScaleTable` weight (2⁻¹⁴ units) in 2⁻¹⁶ units, saturated to 16 bits.
    static func weight16(_ w: Int16) -> UInt16 { UInt16(min(Int(w) << 2, 0xFFFF)) }
}
