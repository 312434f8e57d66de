import PipCore

/// The tables of `ThreeQuarterPass`, made once per geometry: its rows' vertical passes
/// (`RatioLines`), and per channel the horizontal weights of the three phases (outputs 3g,
/// 3g + 1 and 3g + 2 of each group g of four source samples, or two of half-width chroma).
final class ThreeQuarterPlan {
    typealias U16x8 = SIMD8<UInt16>

    struct Channel {
        /// Half-width chroma: two samples to a group of three outputs, not four.
        var half: Bool
        /// Each phase's weight of the group's first and second tap (`ThreeQuarterPass.phases`).
        var first: (U16x8, U16x8, U16x8)
        var second: (U16x8, U16x8, U16x8)
        /// The channel's samples of the filtered row (`RatioLines`).
        var samples: UnsafeMutablePointer<UInt16>
    }

    let key: ConversionKey
    let lines: RatioLines
    let channels: [Channel]
    /// Groups of three outputs in a row.
    let groups: Int
    /// Whether every output's taps follow the three phases of the first group (they do at an
    /// exact 4:3 unless a table rounds unevenly; otherwise the resampling pass converts).
    let isPeriodic: Bool

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
        lines = RatioLines(key: key)
        groups = key.content.width / 3
        var channels: [Channel] = []
        var periodic = true
        for (samples, half) in zip(lines.samples, lines.half) {
            let phases = Self.phases(source: key.sourceWidth, output: key.content.width, half: half)
            periodic = periodic && phases != nil
            let (first, second) = phases ?? ((0, 0, 0), (0, 0, 0))
            channels.append(Channel(
                half: half, first: (U16x8(repeating: first.0), U16x8(repeating: first.1), U16x8(repeating: first.2)),
                second: (U16x8(repeating: second.0), U16x8(repeating: second.1), U16x8(repeating: second.2)),
                samples: samples))
        }
        self.channels = channels
        isPeriodic = periodic
    }

    /// The 16-bit weights of the first and second tap of outputs 3g, 3g + 1 and 3g + 2 when every
    /// group's taps are those of group 0 moved along by four samples (two for `half` chroma); nil
    /// otherwise. The taps are the resampling pass's (`ScaleTable`), so both give the same pixels.
    static func phases(source: Int, output: Int, half: Bool) -> (first: (UInt16, UInt16, UInt16), second: (UInt16, UInt16, UInt16))? {
        let table = ScaleTable(sourceLength: source, outputLength: output, subsampling: half ? 1 : 0)
        guard table.taps == 2 else { return nil }
        let advance = half ? 2 : 4
        func taps(_ i: Int) -> [Int: UInt16] { RatioLines.taps(table, i) }
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
