/// Full-range Y′CbCr (0–255, a JPEG's) squeezed into limited range (16–235 luma, 16–240 chroma),
/// and the rounded mean of two rows of samples: what `YCbCrConverter` does to whole rows.
enum LimitedRange {
    /// Luma's and chroma's scales: limited range spans 219 and 224 steps.
    static let lumaScale: UInt16 = 219
    static let chromaScale: UInt16 = 224
    /// Full range → limited, one entry per value, for samples taken one at a time.
    static let luma = table(scale: lumaScale)
    static let chroma = table(scale: chromaScale)
    /// Every value to itself: samples already in limited range.
    static let identity = (0..<256).map { UInt8($0) }

    /// 16 + v × `scale` / 255, rounded.
    private static func table(scale: UInt16) -> [UInt8] {
        (0..<256).map { (v: Int) -> UInt8 in UInt8((16 * 255 + v * Int(scale) + 127) / 255) }
    }

    /// `d[i] = (a[i] + b[i] + 1) / 2`, 16 at a time.
    static func average(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, count: Int) {
        var i = 0
        while i + 16 <= count {
            let x = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(a + i).loadUnaligned(as: SIMD16<UInt8>.self))
            let y = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(b + i).loadUnaligned(as: SIMD16<UInt8>.self))
            UnsafeMutableRawPointer(d + i).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: (x &+ y &+ 1) &>> 1), as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            d[i] = UInt8((Int(a[i]) + Int(b[i]) + 1) >> 1)
            i += 1
        }
    }

    /// `count` samples from full range to limited: 16 + v × `scale` / 255, rounded, 16 at a time
    /// (a table lookup per byte costs ten times as much on a 1080p plane). The division by 255 is
    /// exact for the 16-bit values here: ⌊x / 255⌋ = (x + 1 + x >> 8) >> 8 for x < 65535.
    static func squeeze(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, count: Int, scale: UInt16) {
        let offset = SIMD16<UInt16>(repeating: 16 * 255 + 127), k = SIMD16<UInt16>(repeating: scale)
        var i = 0
        while i + 16 <= count {
            let v = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(s + i).loadUnaligned(as: SIMD16<UInt8>.self))
            let x = v &* k &+ offset
            let q = (x &+ 1 &+ (x &>> 8)) &>> 8
            UnsafeMutableRawPointer(d + i).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: q), as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            d[i] = UInt8((16 * 255 + Int(s[i]) * Int(scale) + 127) / 255)
            i += 1
        }
    }
}
