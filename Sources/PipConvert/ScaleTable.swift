/// Resampling taps along one axis: for each output sample, `taps` consecutive source samples
/// starting at `starts[i]`, with fixed-point weights (`weights[i * taps + k]`) summing to
/// `ScaleTable.one`. Tables are built when the geometry changes and are read-only afterwards.
struct ScaleTable {
    static let weightBits = 14
    static let one = 1 << weightBits

    /// Number of output samples.
    let count: Int
    /// Weights per output (the widest footprint; narrower ones are padded with zero weights).
    let taps: Int
    /// First source index per output; `starts[i] + taps` never passes the source's end.
    let starts: [Int32]
    /// `count × taps` weights.
    let weights: [Int16]

    /// Taps mapping `sourceLength` samples onto `outputLength`: area average (box) when
    /// shrinking, bilinear when growing or keeping the size.
    ///
    /// Samples are unit cells; output `j` covers source `[j, j + 1) × L / N`. `subsampling` (a
    /// shift) folds the taps onto a source stored at 1/2ⁿ resolution whose samples each replicate
    /// over 2ⁿ full-resolution cells (chroma); `reversed` lists the outputs last-first.
    init(sourceLength: Int, outputLength: Int, subsampling: Int = 0, reversed: Bool = false) {
        precondition(sourceLength > 0 && outputLength > 0)
        let exact = Self.exactTaps(sourceLength: sourceLength, outputLength: outputLength)
        let storedLength = (sourceLength + (1 << subsampling) - 1) >> subsampling
        var folded: [(first: Int, numerators: [Int])] = []
        folded.reserveCapacity(outputLength)
        for (first, numerators) in exact.taps {
            let f = first >> subsampling
            var merged: [Int] = []
            for (k, n) in numerators.enumerated() {
                let index = ((first + k) >> subsampling) - f
                if index == merged.count { merged.append(0) }
                merged[index] += n
            }
            folded.append((f, merged))
        }
        if reversed { folded.reverse() }
        let taps = min(storedLength, folded.map { $0.numerators.count }.max() ?? 1)
        var starts = [Int32](repeating: 0, count: outputLength)
        var weights = [Int16](repeating: 0, count: outputLength * taps)
        for (i, (first, numerators)) in folded.enumerated() {
            let start = min(first, storedLength - taps)
            starts[i] = Int32(start)
            // Cumulative rounding keeps the quantised weights summing to exactly `one`.
            var cumulative = 0, previous = 0
            for (k, n) in numerators.enumerated() {
                cumulative += n
                let q = (cumulative * Self.one + exact.denominator / 2) / exact.denominator
                weights[i * taps + first - start + k] = Int16(q - previous)
                previous = q
            }
        }
        self.count = outputLength
        self.taps = taps
        self.starts = starts
        self.weights = weights
    }

    /// Nearest-sample resampling, without filtering (the share's, `YCbCrConverter`): for each
    /// output sample, `offset` plus the source sample its cell starts in — the box's first tap
    /// below, whether shrinking or growing.
    static func nearest(sourceLength l: Int, outputLength n: Int, offset: Int = 0) -> [Int] {
        (0..<n).map { offset + firstCell(of: $0, sourceLength: l, outputLength: n) }
    }

    /// The source sample output `j`'s cell, `[j, j + 1) × L / N`, starts in.
    @inline(__always)
    static func firstCell(of j: Int, sourceLength l: Int, outputLength n: Int) -> Int { j * l / n }

    /// Exact rational taps: per output, the first source index and integer weight numerators
    /// over a common denominator.
    static func exactTaps(sourceLength l: Int, outputLength n: Int)
        -> (taps: [(first: Int, numerators: [Int])], denominator: Int)
    {
        var result: [(first: Int, numerators: [Int])] = []
        result.reserveCapacity(n)
        if n < l {
            // Box: in units of 1/n source pixel, output j covers [j·l, (j+1)·l), source k covers
            // [k·n, (k+1)·n); the weight is the overlap over l.
            for j in 0..<n {
                let lo = j * l, hi = lo + l
                let first = firstCell(of: j, sourceLength: l, outputLength: n), last = (hi - 1) / n
                result.append((first, (first...last).map { k in min(hi, (k + 1) * n) - max(lo, k * n) }))
            }
            return (result, l)
        }
        // Bilinear: output centre j + ½ sits at source (j + ½)·l/n − ½ = ((2j+1)·l − n) / 2n,
        // clamped to the first and last source centres.
        let denominator = 2 * n
        for j in 0..<n {
            let position = (2 * j + 1) * l - n
            if position <= 0 {
                result.append((0, [denominator]))
                continue
            }
            let i0 = position / denominator, fraction = position % denominator
            if i0 >= l - 1 {
                result.append((l - 1, [denominator]))
            } else if fraction == 0 {
                result.append((i0, [denominator]))
            } else {
                result.append((i0, [denominator - fraction, fraction]))
            }
        }
        return (result, denominator)
    }
}
