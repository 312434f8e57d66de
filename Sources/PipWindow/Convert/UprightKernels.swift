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

    /// `out[i] = Σₖ w[k][i] · line[starts[i] + k·step]` for `count` outputs (rounded up to 8:
    /// `starts`, `weights` and `out` are padded). Weights are tap-major, `stride` apart.
    static func horizontalLine(
        _ line: UnsafePointer<UInt16>, step: Int, starts: UnsafePointer<Int32>, weights: UnsafePointer<UInt16>,
        weightStride: Int, taps: Int, count: Int, into out: UnsafeMutablePointer<UInt16>
    ) {
        @inline(__always) func gather(_ i: Int, _ offset: Int) -> U16x8 {
            let s = starts + i, p = line + offset
            var v = U16x8()
            v[0] = p[Int(s[0])]
            v[1] = p[Int(s[1])]
            v[2] = p[Int(s[2])]
            v[3] = p[Int(s[3])]
            v[4] = p[Int(s[4])]
            v[5] = p[Int(s[5])]
            v[6] = p[Int(s[6])]
            v[7] = p[Int(s[7])]
            return v
        }
        @inline(__always) func weight(_ k: Int, _ i: Int) -> U16x8 {
            UnsafeRawPointer(weights + (k &* weightStride &+ i)).loadUnaligned(as: U16x8.self)
        }
        @inline(__always) func put(_ i: Int, _ v: U16x8) {
            UnsafeMutableRawPointer(out + i).storeBytes(of: v, as: U16x8.self)
        }
        var i = 0
        switch taps {
        case 1:
            // One tap is a full weight (or a zero one in the padding): a copy.
            while i < count {
                put(i, gather(i, 0))
                i &+= 8
            }
        case 2:
            while i < count {
                put(i, mulhi(gather(i, 0), weight(0, i)) &+ mulhi(gather(i, step), weight(1, i)))
                i &+= 8
            }
        case 3:
            while i < count {
                put(i, mulhi(gather(i, 0), weight(0, i)) &+ mulhi(gather(i, step), weight(1, i))
                    &+ mulhi(gather(i, 2 &* step), weight(2, i)))
                i &+= 8
            }
        case 4:
            while i < count {
                let a = mulhi(gather(i, 0), weight(0, i)) &+ mulhi(gather(i, step), weight(1, i))
                let b = mulhi(gather(i, 2 &* step), weight(2, i)) &+ mulhi(gather(i, 3 &* step), weight(3, i))
                put(i, a &+ b)
                i &+= 8
            }
        default:
            while i < count {
                var s = U16x8(repeating: 0)
                for k in 0..<taps { s &+= mulhi(gather(i, k &* step), weight(k, i)) }
                put(i, s)
                i &+= 8
            }
        }
    }
}
