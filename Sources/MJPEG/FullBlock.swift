import Glibc

#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Full size: a block's 8×8 pixels, from a separable inverse DCT (the Arai–Agui–Nakajima
/// factorisation, in floating point, four lanes to a vector). The DC coefficient is left out of
/// the transform: its part is the same for all 64 pixels (`dcWeight` × the DC value), so it is
/// added when the block is written, and a block's value does not depend on the blocks before.
///
/// `slot.weights` points at the component's `Dequantisation`.
enum FullBlock: BlockKind {
    /// The pixels minus 128 and minus the DC part, row by row, in sixteenths: rounding them to
    /// whole levels before the DC part is added would round twice, and a quarter of the pixels would
    /// come out one level off.
    struct Value: BitwiseCopyable {
        var rows: (SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>)
    }

    /// `Value`'s unit: a sixteenth of a level.
    static let fraction = 16
    static var recordStride: Int { MemoryLayout<Value>.stride }

    /// One quantisation table prepared for `FullBlock`: where each zig-zag position goes in the
    /// coefficient block, and what a coefficient of 1 there weighs before the transform.
    enum Dequantisation {
        /// Where the 128 `UInt8` positions start, after the 64 `Float` scales (384 bytes in all).
        static let orderOffset = 64 * 4

        /// Writes the table for `quant` (64 steps in zig-zag order) at `table`.
        static func prepare(_ table: UnsafeMutableRawPointer, quant: UnsafePointer<UInt16>) {
            // The AAN transform computes the DCT up to a factor per frequency; the factors, the 1/8
            // of the 2-D inverse DCT, the quantisation step and the 16 of `Value`'s sixteenths are
            // folded into one scale.
            func factor(_ u: Int) -> Double { u == 0 ? 1 : 2.0.squareRoot() * cos(Double(u) * Double.pi / 16) }
            for k in 0..<128 {
                // Past 63: a slot after the block that the transform never reads.
                table.storeBytes(of: UInt8(k < 64 ? FullBlock.position(ZigZag.natural[k]) : 64), toByteOffset: orderOffset + k, as: UInt8.self)
            }
            for k in 0..<64 {
                let natural = ZigZag.natural[k], u = natural % 8, v = natural / 8
                let scale = k == 0 ? 0 : Double(quant[k]) * factor(u) * factor(v) * Double(FullBlock.fraction) / 8
                table.storeBytes(of: Float(scale), toByteOffset: FullBlock.position(natural) * 4, as: Float.self)
            }
        }
    }

    /// Where the coefficient of natural (row-major) index `natural` goes in the block the
    /// transform reads: transposed, row `u` holding horizontal frequency `u` of every vertical one,
    /// so that the first pass transforms along rows and only its result needs transposing.
    static func position(_ natural: Int) -> Int { (natural % 8) * 8 + natural / 8 }

    /// The coefficients of one block as they are decoded: 64 in `position` order and a 65th slot
    /// where positions past 63 go.
    private struct Coefficients {
        var rows = (
            SIMD8<Int16>(), SIMD8<Int16>(), SIMD8<Int16>(), SIMD8<Int16>(), SIMD8<Int16>(), SIMD8<Int16>(), SIMD8<Int16>(),
            SIMD8<Int16>(), SIMD8<Int16>())
    }

    private struct Sink: CoefficientSink {
        let coefficients: UnsafeMutablePointer<Int16>
        let order: UnsafePointer<UInt8>
        var any = false

        @inline(__always)
        mutating func add(_ k: Int, _ value: Int32) {
            coefficients[Int(order[k])] = Int16(truncatingIfNeeded: value)
            any = true
        }
    }

    @inline(__always)
    static func decode(_ reader: inout BitReader, predictor: inout Int32, slot: BlockSlot) -> Value {
        var c = Coefficients()
        let any = withUnsafeMutableBytes(of: &c) { raw in
            var sink = Sink(
                coefficients: raw.baseAddress!.assumingMemoryBound(to: Int16.self),
                order: UnsafePointer((slot.weights + Dequantisation.orderOffset).assumingMemoryBound(to: UInt8.self)))
            HuffmanBlock.decode(&reader, predictor: &predictor, dc: slot.dc, ac: slot.ac, into: &sink)
            return sink.any
        }
        // Flat blocks (no AC coefficient) are common in camera pictures: their pixels are the DC part.
        guard any else { return Value(rows: (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)) }
        return inverseDCT(c.rows, scales: UnsafeRawPointer(slot.weights))
    }

    /// The 2-D inverse DCT of `rows` (transposed, see `position`) scaled by `scales`.
    // In 4-lane halves: `SIMD8<Float>`'s halves and conversions go lane by lane, which cost
    // several times the transform itself. Kept out of the decoding loop, which has no registers to
    // spare for it (a little faster, `make bench-kernels`).
    @inline(never)
    private static func inverseDCT(
        _ r: (SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>),
        scales: UnsafeRawPointer
    ) -> Value {
        @inline(__always) func load(_ row: SIMD8<Int16>, _ i: Int) -> (Four, Four) {
            let (low, high) = floats(row)
            return (
                low * scales.load(fromByteOffset: i &* 32, as: Four.self),
                high * scales.load(fromByteOffset: i &* 32 &+ 16, as: Four.self))
        }
        let (l0, h0) = load(r.0, 0), (l1, h1) = load(r.1, 1), (l2, h2) = load(r.2, 2), (l3, h3) = load(r.3, 3)
        let (l4, h4) = load(r.4, 4), (l5, h5) = load(r.5, 5), (l6, h6) = load(r.6, 6), (l7, h7) = load(r.7, 7)
        // First pass: along each row of the transposed block, i.e. horizontally in the picture; its
        // results are vertical frequencies 0…3 (first) and 4…7 (second) of output columns 0…7.
        return secondPass(idct1D(l0, l1, l2, l3, l4, l5, l6, l7), idct1D(h0, h1, h2, h3, h4, h5, h6, h7))
    }

    /// Transposes the first pass's result (`a`: vertical frequencies 0…3 of columns 0…7, `b`: 4…7)
    /// and transforms vertically.
    // Not inlined into the first pass: there the optimiser moves the transpose's shuffles up
    // through the (linear) first pass and the transform became several times slower.
    @inline(never)
    private static func secondPass(_ a: Eight, _ b: Eight) -> Value {
        // Transposed: vertical frequency v of columns 0…3 (`c`) and 4…7 (`d`).
        let (c0, c1, c2, c3) = transpose4(a.0, a.1, a.2, a.3), (d0, d1, d2, d3) = transpose4(a.4, a.5, a.6, a.7)
        let (c4, c5, c6, c7) = transpose4(b.0, b.1, b.2, b.3), (d4, d5, d6, d7) = transpose4(b.4, b.5, b.6, b.7)
        let left = idct1D(c0, c1, c2, c3, c4, c5, c6, c7), right = idct1D(d0, d1, d2, d3, d4, d5, d6, d7)
        return Value(rows: (
            words(left.0, right.0), words(left.1, right.1), words(left.2, right.2), words(left.3, right.3),
            words(left.4, right.4), words(left.5, right.5), words(left.6, right.6), words(left.7, right.7)))
    }

    typealias Four = SIMD4<Float>
    typealias Eight = (Four, Four, Four, Four, Four, Four, Four, Four)

    /// The 1-D AAN inverse DCT of four lanes at once: `in0…in7` are frequencies 0…7 (prescaled),
    /// the result samples 0…7.
    @inline(__always)
    static func idct1D(
        _ in0: Four, _ in1: Four, _ in2: Four, _ in3: Four, _ in4: Four, _ in5: Four, _ in6: Four, _ in7: Four
    ) -> Eight {
        let sqrt2 = Four(repeating: 1.414213562)
        // Even part: frequencies 0, 2, 4, 6.
        let s04 = in0 + in4, d04 = in0 - in4
        let s26 = in2 + in6
        let d26 = (in2 - in6) * sqrt2 - s26
        let e0 = s04 + s26, e3 = s04 - s26, e1 = d04 + d26, e2 = d04 - d26
        // Odd part: frequencies 1, 3, 5, 7.
        let z13 = in5 + in3, z10 = in5 - in3, z11 = in1 + in7, z12 = in1 - in7
        let o7 = z11 + z13
        let o11 = (z11 - z13) * sqrt2
        let z5 = (z10 + z12) * Four(repeating: 1.847759065)
        let o10 = z12 * Four(repeating: 1.082392200) - z5
        let o12 = z5 - z10 * Four(repeating: 2.613125930)
        let o6 = o12 - o7
        let o5 = o11 - o6
        let o4 = o10 + o5
        return (e0 + o7, e1 + o6, e2 + o5, e3 - o4, e3 + o4, e2 - o5, e1 - o6, e0 - o7)
    }

    /// The 4×4 transpose: lane `j` of vector `i` becomes lane `i` of vector `j`.
    @inline(__always)
    static func transpose4(_ a: Four, _ b: Four, _ c: Four, _ d: Four) -> (Four, Four, Four, Four) {
        #if arch(x86_64)
        let t0 = _mm_unpacklo_ps(a, b), t1 = _mm_unpacklo_ps(c, d), t2 = _mm_unpackhi_ps(a, b), t3 = _mm_unpackhi_ps(c, d)
        return (_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3), _mm_movehl_ps(t3, t2))
        #else
        return (Four(a[0], b[0], c[0], d[0]), Four(a[1], b[1], c[1], d[1]), Four(a[2], b[2], c[2], d[2]), Four(a[3], b[3], c[3], d[3]))
        #endif
    }

    // The standard library's conversions between integer and float vectors go lane by lane
    // through generic code.
    @inline(__always)
    private static func floats(_ row: SIMD8<Int16>) -> (Four, Four) {
        #if arch(x86_64)
        let x = unsafeBitCast(row, to: __m128i.self)
        return (
            _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpacklo_epi16(x, x), 16)),
            _mm_cvtepi32_ps(_mm_srai_epi32(_mm_unpackhi_epi16(x, x), 16)))
        #else
        return (Four(Float(row[0]), Float(row[1]), Float(row[2]), Float(row[3])), Four(Float(row[4]), Float(row[5]), Float(row[6]), Float(row[7])))
        #endif
    }

    /// Eight values rounded to the nearest integer, saturated to `Int16`.
    @inline(__always)
    private static func words(_ low: Four, _ high: Four) -> SIMD8<Int16> {
        #if arch(x86_64)
        return unsafeBitCast(_mm_packs_epi32(_mm_cvtps_epi32(low), _mm_cvtps_epi32(high)), to: SIMD8<Int16>.self)
        #else
        @inline(__always) func word(_ v: Float) -> Int16 { Int16(max(-32768, min(32767, v.rounded(.toNearestOrEven)))) }
        return SIMD8(word(low[0]), word(low[1]), word(low[2]), word(low[3]), word(high[0]), word(high[1]), word(high[2]), word(high[3]))
        #endif
    }

    @inline(__always)
    static func write(_ value: Value, slot: BlockSlot, predictor: Int32, to row: UnsafeMutablePointer<UInt8>) {
        // The DC part (DC value × quantisation step / 8, `dcWeight` × 8 being the step) and the
        // 128 the samples are centred on, in sixteenths, plus a half for rounding; in integers,
        // which cost no library call.
        let dc = Int32(slot.dcWeight * 8) &* predictor &* Int32(fraction / 8) &+ Int32(128 * fraction + fraction / 2)
        let offset = SIMD8<Int16>(repeating: Int16(clamping: dc))
        let out = UnsafeMutableRawPointer(row), stride = slot.stride
        @inline(__always) func put(_ r: SIMD8<Int16>, _ y: Int) {
            #if arch(x86_64)
            let sixteenths = _mm_adds_epi16(unsafeBitCast(r, to: __m128i.self), unsafeBitCast(offset, to: __m128i.self))
            let words = _mm_srai_epi16(sixteenths, 4)
            let bytes = _mm_packus_epi16(words, words)
            out.storeBytes(of: UInt64(truncatingIfNeeded: _mm_cvtsi128_si64(bytes)), toByteOffset: y &* stride, as: UInt64.self)
            #else
            let sum = (SIMD8<Int32>(truncatingIfNeeded: r) &+ SIMD8<Int32>(truncatingIfNeeded: offset))
                .clamped(lowerBound: SIMD8(repeating: -32768), upperBound: SIMD8(repeating: 32767)) &>> 4
            let pixels = SIMD8<UInt8>(truncatingIfNeeded: sum.clamped(lowerBound: .zero, upperBound: SIMD8(repeating: 255)))
            out.storeBytes(of: pixels, toByteOffset: y &* stride, as: SIMD8<UInt8>.self)
            #endif
        }
        let r = value.rows
        put(r.0, 0); put(r.1, 1); put(r.2, 2); put(r.3, 3); put(r.4, 4); put(r.5, 5); put(r.6, 6); put(r.7, 7)
    }
}
