/// The inner loops of `UprightPass`, on 8-lane vectors of 16-bit samples (see `Lanes`).
/// Samples are 2⁸ × the value; weights are fractions of 2¹⁶.
enum UprightKernels {
    typealias U16x8 = SIMD8<UInt16>

    @inline(__always) static func mulhi(_ a: U16x8, _ b: U16x8) -> U16x8 { Lanes.mulhi(a, b) }
    @inline(__always) static func load8(_ p: UnsafePointer<UInt8>) -> U16x8 { Lanes.load8(p) }

    /// `out[i] = Σₜ w[t] · rows[t][i]` over the `taps` source rows from row `first`.
    /// Each product truncates by less than 2⁻⁸ of a value, and sums stay below 2¹⁶.
    static func verticalLine(
        _ plane: UnsafePointer<UInt8>, stride: Int, first: Int, taps: Int, weights: UnsafePointer<UInt16>,
        count: Int, into out: UnsafeMutablePointer<UInt16>
    ) {
        // Rows with zero weight are skipped; at most 8 taps at a time stay in registers.
        var rows: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?) = (nil, nil, nil, nil)
        var w = U16x8(repeating: 0), used = 0, accumulate = false
        func flush() {
            guard used > 0 else { return }
            filterChunked(rows, weights: w, used: used, count: count, into: out, accumulate: accumulate)
            accumulate = true
            used = 0
        }
        for t in 0..<taps {
            let weight = weights[t]
            if weight == 0 { continue }
            let row = plane + (first &+ t) &* stride
            switch used {
            case 0: rows.0 = row
            case 1: rows.1 = row
            case 2: rows.2 = row
            default: rows.3 = row
            }
            w[used] = weight
            used += 1
            if used == 4 { flush() }
        }
        flush()
        if !accumulate { out.update(repeating: 0, count: count) }
    }

    @inline(__always)
    private static func filterChunked(
        _ rows: (UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?, UnsafePointer<UInt8>?),
        weights w: U16x8, used: Int, count: Int, into out: UnsafeMutablePointer<UInt16>, accumulate: Bool
    ) {
        let r0 = rows.0!, r1 = rows.1 ?? r0, r2 = rows.2 ?? r0, r3 = rows.3 ?? r0
        let w0 = U16x8(repeating: w[0]), w1 = U16x8(repeating: w[1])
        let w2 = U16x8(repeating: w[2]), w3 = U16x8(repeating: w[3])
        let full = used == 1 && w[0] == 0xFFFF
        let vectorCount = count & ~15
        var i = 0
        while i < vectorCount {
            var (lo, hi) = Lanes.load16(r0 + i)
            if !full {
                // A lone full weight is an exact copy; otherwise weigh and sum.
                lo = mulhi(lo, w0)
                hi = mulhi(hi, w0)
                if used > 1 {
                    let (a, b) = Lanes.load16(r1 + i)
                    lo &+= mulhi(a, w1)
                    hi &+= mulhi(b, w1)
                }
                if used > 2 {
                    let (a, b) = Lanes.load16(r2 + i)
                    lo &+= mulhi(a, w2)
                    hi &+= mulhi(b, w2)
                }
                if used > 3 {
                    let (a, b) = Lanes.load16(r3 + i)
                    lo &+= mulhi(a, w3)
                    hi &+= mulhi(b, w3)
                }
            }
            let o = UnsafeMutableRawPointer(out + i)
            if accumulate {
                lo &+= o.loadUnaligned(as: U16x8.self)
                hi &+= o.loadUnaligned(fromByteOffset: 16, as: U16x8.self)
            }
            o.storeBytes(of: lo, as: U16x8.self)
            o.storeBytes(of: hi, toByteOffset: 16, as: U16x8.self)
            i &+= 16
        }
        // The tail, one sample at a time (reading past the row could leave the buffer).
        while i < count {
            var s: UInt32 = 0
            for t in 0..<used {
                let row = t == 0 ? r0 : t == 1 ? r1 : t == 2 ? r2 : r3
                let sample = UInt32(row[i]) &<< 8
                s &+= full ? sample : (sample &* UInt32(w[t])) &>> 16
            }
            out[i] = accumulate ? out[i] &+ UInt16(truncatingIfNeeded: s) : UInt16(truncatingIfNeeded: s)
            i &+= 1
        }
    }

    /// The horizontal taps on a transposed block: `out[i] = Σₖ w[i,k] · column[starts[i] + k·step]`,
    /// each term a vector of the block's 8 lines. `count` outputs (the padding ones read column 0
    /// with zero weights); weights come pre-splatted, `(i × taps + k) × 8`.
    static func horizontalBlock(
        _ columns: UnsafePointer<UInt16>, step: Int, starts: UnsafePointer<Int32>, weights: UnsafePointer<UInt16>,
        taps: Int, count: Int, into out: UnsafeMutablePointer<UInt16>
    ) {
        @inline(__always) func load(_ p: UnsafePointer<UInt16>) -> U16x8 {
            UnsafeRawPointer(p).loadUnaligned(as: U16x8.self)
        }
        @inline(__always) func term(_ x: Int, _ w: UnsafePointer<UInt16>) -> U16x8 {
            mulhi(load(columns + x &* 8), load(w))
        }
        @inline(__always) func put(_ i: Int, _ v: U16x8) {
            UnsafeMutableRawPointer(out + i &* 8).storeBytes(of: v, as: U16x8.self)
        }
        switch taps {
        case 1:
            // A single tap is a full weight: a copy.
            for i in 0..<count { put(i, load(columns + Int(starts[i]) &* 8)) }
        case 2:
            for i in 0..<count {
                let x = Int(starts[i]), w = weights + i &* 16
                put(i, term(x, w) &+ term(x &+ step, w + 8))
            }
        case 3:
            for i in 0..<count {
                let x = Int(starts[i]), w = weights + i &* 24
                put(i, term(x, w) &+ term(x &+ step, w + 8) &+ term(x &+ 2 &* step, w + 16))
            }
        case 4:
            for i in 0..<count {
                let x = Int(starts[i]), w = weights + i &* 32
                put(i, (term(x, w) &+ term(x &+ step, w + 8)) &+ (term(x &+ 2 &* step, w + 16) &+ term(x &+ 3 &* step, w + 24)))
            }
        default:
            for i in 0..<count {
                let x = Int(starts[i]), w = weights + i &* taps &* 8
                var s = term(x, w)
                for k in 1..<taps { s &+= term(x &+ k &* step, w + k &* 8) }
                put(i, s)
            }
        }
    }
}
