#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The few vector operations the upright kernels need that Swift's generic SIMD conversions do
/// not reliably compile to single instructions (they can stay out-of-line loops): widening bytes,
/// high halves of 16-bit products, clamping and packing pixels. SSE2 on x86-64 (every x86-64 CPU
/// has it); lane-by-lane Swift elsewhere.
package enum Lanes {
    typealias U16x8 = SIMD8<UInt16>
    typealias I16x8 = SIMD8<Int16>
    typealias U32x4 = SIMD4<UInt32>

    #if arch(x86_64)
    @inline(__always) static func m(_ v: U16x8) -> __m128i { unsafeBitCast(v, to: __m128i.self) }
    @inline(__always) static func m(_ v: I16x8) -> __m128i { unsafeBitCast(v, to: __m128i.self) }
    @inline(__always) static func u(_ v: __m128i) -> U16x8 { unsafeBitCast(v, to: U16x8.self) }
    @inline(__always) static func s(_ v: __m128i) -> I16x8 { unsafeBitCast(v, to: I16x8.self) }
    #endif

    /// 8 bytes at `p` as 16-bit lanes holding 2⁸ × each byte.
    @inline(__always)
    static func load8(_ p: UnsafePointer<UInt8>) -> U16x8 {
        #if arch(x86_64)
        let b = _mm_loadl_epi64(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
        return u(_mm_unpacklo_epi8(_mm_setzero_si128(), b))
        #else
        var v = U16x8()
        for k in 0..<8 { v[k] = UInt16(p[k]) << 8 }
        return v
        #endif
    }

    /// 16 bytes at `p` as two vectors of 2⁸ × each byte.
    @inline(__always)
    static func load16(_ p: UnsafePointer<UInt8>) -> (U16x8, U16x8) {
        #if arch(x86_64)
        let b = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
        let zero = _mm_setzero_si128()
        return (u(_mm_unpacklo_epi8(zero, b)), u(_mm_unpackhi_epi8(zero, b)))
        #else
        return (load8(p), load8(p + 8))
        #endif
    }

    /// 4 bytes at `p`, each twice, as 16-bit lanes holding 2⁸ × the byte (half-width chroma).
    @inline(__always)
    static func load4Doubled(_ p: UnsafePointer<UInt8>) -> U16x8 {
        #if arch(x86_64)
        let b = _mm_cvtsi32_si128(Int32(bitPattern: UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)))
        return u(_mm_unpacklo_epi8(_mm_setzero_si128(), _mm_unpacklo_epi8(b, b)))
        #else
        var v = U16x8()
        for k in 0..<8 { v[k] = UInt16(p[k >> 1]) << 8 }
        return v
        #endif
    }

    /// Eight pixel words in the opposite order (one `pshufd` per half).
    @inline(__always)
    static func reversed(_ pixels: (U32x4, U32x4)) -> (U32x4, U32x4) {
        let a = pixels.1, b = pixels.0
        return (U32x4(a[3], a[2], a[1], a[0]), U32x4(b[3], b[2], b[1], b[0]))
    }

    /// `(a × b) >> 16` per lane, unsigned.
    @inline(__always)
    static func mulhi(_ a: U16x8, _ b: U16x8) -> U16x8 {
        #if arch(x86_64)
        return u(_mm_mulhi_epu16(m(a), m(b)))
        #else
        var v = U16x8()
        for k in 0..<8 { v[k] = UInt16(truncatingIfNeeded: (UInt32(a[k]) * UInt32(b[k])) >> 16) }
        return v
        #endif
    }

    /// `(a × b) >> 16` per lane, signed (rounded towards −∞).
    @inline(__always)
    static func mulhi(_ a: I16x8, _ b: I16x8) -> I16x8 {
        #if arch(x86_64)
        return s(_mm_mulhi_epi16(m(a), m(b)))
        #else
        var v = I16x8()
        for k in 0..<8 { v[k] = Int16(truncatingIfNeeded: (Int32(a[k]) * Int32(b[k])) >> 16) }
        return v
        #endif
    }

    /// Unsigned lanes reinterpreted as signed (values below 2¹⁵).
    @inline(__always)
    static func signed(_ v: U16x8) -> I16x8 { unsafeBitCast(v, to: I16x8.self) }

    /// Each lane clamped to 0…255.
    @inline(__always)
    static func clampByte(_ v: I16x8) -> I16x8 {
        #if arch(x86_64)
        return s(_mm_min_epi16(_mm_max_epi16(m(v), _mm_setzero_si128()), _mm_set1_epi16(255)))
        #else
        var r = I16x8()
        for k in 0..<8 { r[k] = min(max(v[k], 0), 255) }
        return r
        #endif
    }

    /// Pixel words `r << rs | g << gs | b << bs | fill` from channels in 0…255, as two halves.
    @inline(__always)
    static func pixels(
        _ r: I16x8, _ g: I16x8, _ b: I16x8, shifts: (Int32, Int32, Int32), fill: UInt32
    ) -> (U32x4, U32x4) {
        #if arch(x86_64)
        let zero = _mm_setzero_si128(), f = _mm_set1_epi32(Int32(bitPattern: fill))
        let rs = _mm_cvtsi32_si128(shifts.0), gs = _mm_cvtsi32_si128(shifts.1), bs = _mm_cvtsi32_si128(shifts.2)
        func half(_ lo: Bool) -> U32x4 {
            func widen(_ v: I16x8) -> __m128i { lo ? _mm_unpacklo_epi16(m(v), zero) : _mm_unpackhi_epi16(m(v), zero) }
            let p = _mm_or_si128(
                _mm_or_si128(_mm_sll_epi32(widen(r), rs), _mm_sll_epi32(widen(g), gs)),
                _mm_or_si128(_mm_sll_epi32(widen(b), bs), f))
            return unsafeBitCast(p, to: U32x4.self)
        }
        return (half(true), half(false))
        #else
        var lo = U32x4(), hi = U32x4()
        for k in 0..<8 {
            let p = UInt32(r[k]) << UInt32(shifts.0) | UInt32(g[k]) << UInt32(shifts.1)
                | UInt32(b[k]) << UInt32(shifts.2) | fill
            if k < 4 { lo[k] = p } else { hi[k - 4] = p }
        }
        return (lo, hi)
        #endif
    }

    /// Transposes the 4×4 block of 32-bit pixels whose rows start `sourceStride` bytes apart at
    /// `source` into rows `destinationStride` bytes apart at `destination` (row `m` = column `m`).
    @inline(__always)
    static func transpose4x4(
        _ source: UnsafeRawPointer, sourceStride: Int, into destination: UnsafeMutableRawPointer, destinationStride: Int
    ) {
        #if arch(x86_64)
        @inline(__always) func row(_ j: Int) -> __m128i {
            _mm_loadu_si128((source + j &* sourceStride).assumingMemoryBound(to: __m128i.self))
        }
        @inline(__always) func put(_ m: Int, _ v: __m128i) {
            _mm_storeu_si128((destination + m &* destinationStride).assumingMemoryBound(to: __m128i.self), v)
        }
        let a0 = row(0), a1 = row(1), a2 = row(2), a3 = row(3)
        let b0 = _mm_unpacklo_epi32(a0, a1), b1 = _mm_unpackhi_epi32(a0, a1)
        let b2 = _mm_unpacklo_epi32(a2, a3), b3 = _mm_unpackhi_epi32(a2, a3)
        put(0, _mm_unpacklo_epi64(b0, b2))
        put(1, _mm_unpackhi_epi64(b0, b2))
        put(2, _mm_unpacklo_epi64(b1, b3))
        put(3, _mm_unpackhi_epi64(b1, b3))
        #else
        for j in 0..<4 {
            for m in 0..<4 {
                (destination + m * destinationStride).storeBytes(
                    of: source.load(fromByteOffset: j * sourceStride + m * 4, as: UInt32.self), toByteOffset: j * 4, as: UInt32.self)
            }
        }
        #endif
    }

    /// Transposes the 8×8 block of 16-bit samples whose rows start `sourceStride` apart at
    /// `source` into rows `destinationStride` apart at `destination` (row `m` = column `m`).
    @inline(__always)
    static func transpose8x8(
        _ source: UnsafePointer<UInt16>, sourceStride: Int,
        into destination: UnsafeMutablePointer<UInt16>, destinationStride: Int
    ) {
        #if arch(x86_64)
        @inline(__always) func row(_ j: Int) -> __m128i {
            _mm_loadu_si128(UnsafeRawPointer(source + j &* sourceStride).assumingMemoryBound(to: __m128i.self))
        }
        @inline(__always) func put(_ m: Int, _ v: __m128i) {
            _mm_storeu_si128(UnsafeMutableRawPointer(destination + m &* destinationStride).assumingMemoryBound(to: __m128i.self), v)
        }
        let a0 = row(0), a1 = row(1), a2 = row(2), a3 = row(3), a4 = row(4), a5 = row(5), a6 = row(6), a7 = row(7)
        let b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1)
        let b2 = _mm_unpacklo_epi16(a2, a3), b3 = _mm_unpackhi_epi16(a2, a3)
        let b4 = _mm_unpacklo_epi16(a4, a5), b5 = _mm_unpackhi_epi16(a4, a5)
        let b6 = _mm_unpacklo_epi16(a6, a7), b7 = _mm_unpackhi_epi16(a6, a7)
        let c0 = _mm_unpacklo_epi32(b0, b2), c1 = _mm_unpackhi_epi32(b0, b2)
        let c2 = _mm_unpacklo_epi32(b1, b3), c3 = _mm_unpackhi_epi32(b1, b3)
        let c4 = _mm_unpacklo_epi32(b4, b6), c5 = _mm_unpackhi_epi32(b4, b6)
        let c6 = _mm_unpacklo_epi32(b5, b7), c7 = _mm_unpackhi_epi32(b5, b7)
        put(0, _mm_unpacklo_epi64(c0, c4))
        put(1, _mm_unpackhi_epi64(c0, c4))
        put(2, _mm_unpacklo_epi64(c1, c5))
        put(3, _mm_unpackhi_epi64(c1, c5))
        put(4, _mm_unpacklo_epi64(c2, c6))
        put(5, _mm_unpackhi_epi64(c2, c6))
        put(6, _mm_unpacklo_epi64(c3, c7))
        put(7, _mm_unpackhi_epi64(c3, c7))
        #else
        for j in 0..<8 {
            for m in 0..<8 { destination[m * destinationStride + j] = source[j * sourceStride + m] }
        }
        #endif
    }
}
