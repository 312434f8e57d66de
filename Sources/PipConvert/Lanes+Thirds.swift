#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The lane moves of the three-quarter pass (`ThreeQuarterPass`): splitting lines of 16-bit
/// samples by twos and fours, and weaving three phases of pixels into one row. SSE2 on x86-64.
extension Lanes {
    /// 16 samples at `p` (two vectors) as (the even ones, the odd ones).
    @inline(__always)
    static func evenOdd16(_ p: UnsafePointer<UInt16>) -> (even: U16x8, odd: U16x8) {
        evenOdd16(load(p), load(p + 8))
    }

    /// The 16 samples of `a` then `b` as (the even ones, the odd ones).
    @inline(__always)
    static func evenOdd16(_ a: U16x8, _ b: U16x8) -> (even: U16x8, odd: U16x8) {
        #if arch(x86_64)
        // Each 32-bit lane's halves, sign-extended, pack back exactly (signed saturation never bites).
        let even = _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32(m(a), 16), 16), _mm_srai_epi32(_mm_slli_epi32(m(b), 16), 16))
        let odd = _mm_packs_epi32(_mm_srai_epi32(m(a), 16), _mm_srai_epi32(m(b), 16))
        return (u(even), u(odd))
        #else
        var even = U16x8(), odd = U16x8()
        for k in 0..<4 {
            even[k] = a[2 * k]
            odd[k] = a[2 * k + 1]
            even[k + 4] = b[2 * k]
            odd[k + 4] = b[2 * k + 1]
        }
        return (even, odd)
        #endif
    }

    /// 32 samples at `p` as four vectors: sample 4k + j of them is lane k of vector j.
    @inline(__always)
    static func byFours(_ p: UnsafePointer<UInt16>) -> (U16x8, U16x8, U16x8, U16x8) {
        #if arch(x86_64)
        let v0 = m(load(p)), v1 = m(load(p + 8)), v2 = m(load(p + 16)), v3 = m(load(p + 24))
        let x0 = _mm_unpacklo_epi16(v0, v1), x1 = _mm_unpackhi_epi16(v0, v1)
        let x2 = _mm_unpacklo_epi16(v2, v3), x3 = _mm_unpackhi_epi16(v2, v3)
        let y0 = _mm_unpacklo_epi16(x0, x1), y1 = _mm_unpackhi_epi16(x0, x1)
        let y2 = _mm_unpacklo_epi16(x2, x3), y3 = _mm_unpackhi_epi16(x2, x3)
        return (u(_mm_unpacklo_epi64(y0, y2)), u(_mm_unpackhi_epi64(y0, y2)),
                u(_mm_unpacklo_epi64(y1, y3)), u(_mm_unpackhi_epi64(y1, y3)))
        #else
        var s = (U16x8(), U16x8(), U16x8(), U16x8())
        for k in 0..<8 {
            s.0[k] = p[4 * k]
            s.1[k] = p[4 * k + 1]
            s.2[k] = p[4 * k + 2]
            s.3[k] = p[4 * k + 3]
        }
        return s
        #endif
    }

    /// Pixels 3k, 3k + 1 and 3k + 2 of a row given as three vectors (lane k of `a`, `b`, `c`),
    /// in row order: a0 b0 c0 a1 | b1 c1 a2 b2 | c2 a3 b3 c3.
    @inline(__always)
    static func woven(_ a: U32x4, _ b: U32x4, _ c: U32x4) -> (U32x4, U32x4, U32x4) {
        (U32x4(a[0], b[0], c[0], a[1]), U32x4(b[1], c[1], a[2], b[2]), U32x4(c[2], a[3], b[3], c[3]))
    }

    @inline(__always)
    static func load(_ p: UnsafePointer<UInt16>) -> U16x8 { UnsafeRawPointer(p).loadUnaligned(as: U16x8.self) }
}
