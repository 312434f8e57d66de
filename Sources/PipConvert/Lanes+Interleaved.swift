#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// The lane moves of the unscaled and halving passes (`DirectPass`, `HalvingPass`) — splitting
/// interleaved bytes (YUYV, NV12's chroma) and summing neighbours, on plain sample values rather
/// than the 2⁸-scaled ones, so that sums of up to four samples fit a lane — and the packing of
/// pixels in the usual byte layouts (`bytePixels`). SSE2 on x86-64.
extension Lanes {
    /// 8 bytes at `p` as 16-bit lanes holding each byte's value.
    @inline(__always)
    static func widen8(_ p: UnsafePointer<UInt8>) -> U16x8 {
        #if arch(x86_64)
        let b = _mm_loadl_epi64(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
        return u(_mm_unpacklo_epi8(b, _mm_setzero_si128()))
        #else
        var v = U16x8()
        for k in 0..<8 { v[k] = UInt16(p[k]) }
        return v
        #endif
    }

    /// 16 bytes at `p` as values: (bytes 0…7, bytes 8…15).
    @inline(__always)
    static func widen16(_ p: UnsafePointer<UInt8>) -> (U16x8, U16x8) {
        #if arch(x86_64)
        let b = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
        let zero = _mm_setzero_si128()
        return (u(_mm_unpacklo_epi8(b, zero)), u(_mm_unpackhi_epi8(b, zero)))
        #else
        return (widen8(p), widen8(p + 8))
        #endif
    }

    /// 16 bytes at `p` as values: (the even bytes, the odd bytes) — YUYV's Y′ and its chroma.
    @inline(__always)
    static func evenOdd(_ p: UnsafePointer<UInt8>) -> (U16x8, U16x8) {
        #if arch(x86_64)
        let b = _mm_loadu_si128(UnsafeRawPointer(p).assumingMemoryBound(to: __m128i.self))
        return (u(_mm_and_si128(b, _mm_set1_epi16(0x00FF))), u(_mm_srli_epi16(b, 8)))
        #else
        var even = U16x8(), odd = U16x8()
        for k in 0..<8 {
            even[k] = UInt16(p[2 * k])
            odd[k] = UInt16(p[2 * k + 1])
        }
        return (even, odd)
        #endif
    }

    /// Lanes 0, 2, 4, 6 each twice, and lanes 1, 3, 5, 7 each twice: interleaved Cb/Cr pairs
    /// spread over the 8 pixels that share them.
    @inline(__always)
    static func doubledPairs(_ c: U16x8) -> (even: U16x8, odd: U16x8) {
        #if arch(x86_64)
        let x = m(c)
        let even = _mm_or_si128(_mm_and_si128(x, _mm_set1_epi32(0xFFFF)), _mm_slli_epi32(x, 16))
        let odd = _mm_or_si128(_mm_srli_epi32(x, 16), _mm_andnot_si128(_mm_set1_epi32(0xFFFF), x))
        return (u(even), u(odd))
        #else
        var even = U16x8(), odd = U16x8()
        for k in 0..<8 {
            even[k] = c[k & ~1]
            odd[k] = c[k | 1]
        }
        return (even, odd)
        #endif
    }

    /// The even and the odd lanes of `a` followed by `b`: (a0 a2 a4 a6 b0 b2 b4 b6, a1 a3 … b7).
    /// Lanes must be below 2¹⁵.
    @inline(__always)
    static func deinterleave(_ a: U16x8, _ b: U16x8) -> (even: U16x8, odd: U16x8) {
        #if arch(x86_64)
        let mask = _mm_set1_epi32(0xFFFF)
        let even = _mm_packs_epi32(_mm_and_si128(m(a), mask), _mm_and_si128(m(b), mask))
        let odd = _mm_packs_epi32(_mm_srli_epi32(m(a), 16), _mm_srli_epi32(m(b), 16))
        return (u(even), u(odd))
        #else
        var even = U16x8(), odd = U16x8()
        for k in 0..<4 {
            even[k] = a[2 * k]
            even[k + 4] = b[2 * k]
            odd[k] = a[2 * k + 1]
            odd[k + 4] = b[2 * k + 1]
        }
        return (even, odd)
        #endif
    }

    /// Sums of neighbouring lanes of `a` followed by `b`: (a0 + a1, a2 + a3, …, b6 + b7).
    /// Sums must be below 2¹⁵.
    @inline(__always)
    static func pairSums(_ a: U16x8, _ b: U16x8) -> U16x8 {
        #if arch(x86_64)
        let ones = _mm_set1_epi16(1)
        return u(_mm_packs_epi32(_mm_madd_epi16(m(a), ones), _mm_madd_epi16(m(b), ones)))
        #else
        var v = U16x8()
        for k in 0..<4 {
            v[k] = a[2 * k] &+ a[2 * k + 1]
            v[k + 4] = b[2 * k] &+ b[2 * k + 1]
        }
        return v
        #endif
    }

    /// Pixel words whose bytes 0, 1 and 2 are `c0`, `c1` and `c2`, each clamped to 0…255 (a
    /// saturating pack), and byte 3 all ones: two packs and four interleaves for 8 pixels.
    @inline(__always)
    static func bytePixels(_ c0: I16x8, _ c1: I16x8, _ c2: I16x8) -> (U32x4, U32x4) {
        #if arch(x86_64)
        let first = _mm_packus_epi16(m(c0), m(c2)), second = _mm_packus_epi16(m(c1), _mm_set1_epi16(255))
        let low = _mm_unpacklo_epi8(first, second), high = _mm_unpackhi_epi8(first, second)
        return (unsafeBitCast(_mm_unpacklo_epi16(low, high), to: U32x4.self),
                unsafeBitCast(_mm_unpackhi_epi16(low, high), to: U32x4.self))
        #else
        let a = clampByte(c0), b = clampByte(c1), c = clampByte(c2)
        var lo = U32x4(), hi = U32x4()
        for k in 0..<8 {
            let p = UInt32(a[k]) | UInt32(b[k]) << 8 | UInt32(c[k]) << 16 | 0xFF00_0000
            if k < 4 { lo[k] = p } else { hi[k - 4] = p }
        }
        return (lo, hi)
        #endif
    }

    /// Each byte `c` of the `count` bytes at `p` (a multiple of 16) becomes ⌊(c·`keep` + 127) / 255⌋
    /// — darkening toward black, rounded as `Compositor` does one pixel at a time — and then the
    /// bits of `fill` in each 32-bit word are set again (the padding byte).
    @inline(__always)
    package static func scaleBytes(_ p: UnsafeMutableRawPointer, count: Int, by keep: Int, fill: UInt32) {
        #if arch(x86_64)
        let k = _mm_set1_epi16(Int16(keep)), half = _mm_set1_epi16(127), one = _mm_set1_epi16(1)
        let zero = _mm_setzero_si128(), mask = _mm_set1_epi32(Int32(bitPattern: fill))
        @inline(__always) func scaled(_ v: __m128i) -> __m128i {
            // x / 255 for x < 65535 is (x + 1 + x / 256) / 256.
            let x = _mm_add_epi16(_mm_mullo_epi16(v, k), half)
            return _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(x, one), _mm_srli_epi16(x, 8)), 8)
        }
        var i = 0
        while i < count {
            let at = (p + i).assumingMemoryBound(to: __m128i.self)
            let b = _mm_loadu_si128(at)
            let packed = _mm_packus_epi16(scaled(_mm_unpacklo_epi8(b, zero)), scaled(_mm_unpackhi_epi8(b, zero)))
            _mm_storeu_si128(at, _mm_or_si128(packed, mask))
            i &+= 16
        }
        #else
        let bytes = p.assumingMemoryBound(to: UInt8.self)
        for i in 0..<count { bytes[i] = UInt8((Int(bytes[i]) * keep + 127) / 255) }
        var i = 0
        while i < count {
            (p + i).storeBytes(of: p.load(fromByteOffset: i, as: UInt32.self) | fill, as: UInt32.self)
            i += 4
        }
        #endif
    }
}
