#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Where one block of an MCU goes: its tables, weights, predictor and output position.
struct BlockSlot {
    var dc: HuffmanTable.Tables, ac: HuffmanTable.Tables
    /// The component's quantization table's weights: `SIMD4<Float>` or `SIMD16<Float>` per position;
    /// at full size its `FullBlock.Dequantisation` instead.
    /// Position 0's weight is the same for every pixel: `dcWeight`.
    var weights: UnsafeMutableRawPointer
    var dcWeight: Float
    /// Index of the component's DC predictor.
    var component: Int
    /// Output offset of this block in the first MCU, and how far the next MCU across and down is.
    var offset: Int, stepX: Int, stepY: Int
    var stride: Int
}

extension BlockSlot {
    /// Writes a block's `side`×`side` pixels at `row`: its AC sums plus the DC part of `predictor`.
    @inline(__always)
    func write<Sum: SIMD>(_ ac: Sum, predictor: Int32, side: Int, to row: UnsafeMutablePointer<UInt8>)
    where Sum.Scalar == Float {
        let sum = ac + Sum(repeating: dcWeight * Float(predictor))
        // The casts are no-ops: side 2 comes with SIMD4 sums and side 4 with SIMD16.
        let out = UnsafeMutableRawPointer(row)
        switch side {
        case 2:
            let four = pixels(unsafeBitCast(sum, to: SIMD4<Float>.self))
            out.storeBytes(of: UInt16(truncatingIfNeeded: four), as: UInt16.self)
            out.storeBytes(of: UInt16(truncatingIfNeeded: four &>> 16), toByteOffset: stride, as: UInt16.self)
        case 4:
            let all = unsafeBitCast(sum, to: SIMD16<Float>.self)
            out.storeBytes(of: pixels(all.lowHalf.lowHalf), as: UInt32.self)
            out.storeBytes(of: pixels(all.lowHalf.highHalf), toByteOffset: stride, as: UInt32.self)
            out.storeBytes(of: pixels(all.highHalf.lowHalf), toByteOffset: 2 &* stride, as: UInt32.self)
            out.storeBytes(of: pixels(all.highHalf.highHalf), toByteOffset: 3 &* stride, as: UInt32.self)
        default:
            row[0] = pixel(sum[0])
        }
    }
}

/// Four block sums (pixel − 128) as bytes, rounded and clamped as `pixel` does, in one vector
/// pass: lane 0 in the lowest byte.
@inline(__always)
func pixels(_ sums: SIMD4<Float>) -> UInt32 {
    #if arch(x86_64)
    let v: __m128 = sums + SIMD4(repeating: 128.5)
    let clamped = _mm_min_ps(_mm_max_ps(v, _mm_setzero_ps()), _mm_set1_ps(255))
    let words = _mm_packs_epi32(_mm_cvttps_epi32(clamped), _mm_setzero_si128())
    return UInt32(truncatingIfNeeded: _mm_cvtsi128_si32(_mm_packus_epi16(words, words)))
    #else
    return UInt32(pixel(sums[0])) | UInt32(pixel(sums[1])) << 8 | UInt32(pixel(sums[2])) << 16 | UInt32(pixel(sums[3])) << 24
    #endif
}

/// A block sum (pixel − 128) as a byte, rounded and clamped.
@inline(__always)
func pixel(_ sum: Float) -> UInt8 {
    UInt8(truncatingIfNeeded: Int32(max(0, min(255, sum + 128.5))))
}
