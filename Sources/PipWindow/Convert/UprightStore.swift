import CameraSource

/// Y′CbCr → R′G′B′ coefficients for 16-bit lanes: inputs 2⁶ × the value, coefficients 2¹³ ×,
/// products' high halves (`pmulhw`) in 2³ × the value.
struct YUVCoefficients16 {
    var yOffset: Int16
    var yScale: Int16
    var rv: Int16
    var gu: Int16
    var gv: Int16
    var bu: Int16

    init(_ colorimetry: Colorimetry) {
        let c = YUVCoefficients.floatingPoint(colorimetry)
        func q(_ x: Double) -> Int16 { Int16((x * 8192).rounded()) }
        yOffset = Int16(c.yOffset) * 64
        yScale = q(c.yScale)
        rv = q(c.rv)
        gu = q(c.gu)
        gv = q(c.gv)
        bu = q(c.bu)
    }
}

/// Colour conversion and packing of filtered lines into destination pixels, 8 at a time.
enum UprightStore {
    typealias U16x8 = SIMD8<UInt16>
    typealias I16x8 = SIMD8<Int16>

    @inline(__always)
    static func load(_ p: UnsafePointer<UInt16>) -> U16x8 { UnsafeRawPointer(p).loadUnaligned(as: U16x8.self) }

    /// Writes the first `count` (≤ 8) of the pixels at `dst`.
    @inline(__always)
    static func put(_ pixels: (SIMD4<UInt32>, SIMD4<UInt32>), _ dst: UnsafeMutablePointer<UInt32>, _ count: Int) {
        if count >= 8 {
            UnsafeMutableRawPointer(dst).storeBytes(of: pixels.0, as: SIMD4<UInt32>.self)
            UnsafeMutableRawPointer(dst + 4).storeBytes(of: pixels.1, as: SIMD4<UInt32>.self)
        } else {
            for k in 0..<count { dst[k] = k < 4 ? pixels.0[k] : pixels.1[k - 4] }
        }
    }

    /// 2⁸ × value → 2⁶ × value, rounded, as signed lanes.
    @inline(__always)
    static func narrow(_ v: U16x8) -> I16x8 { Lanes.signed((v &+ 2) &>> 2) }

    /// Rounds 2³ × value to 0…255. Each high-half product rounds down by under one unit; the
    /// constant centres the error (two or three products per channel).
    @inline(__always)
    static func channel(_ v: I16x8) -> I16x8 { Lanes.clampByte((v &+ 5) &>> 3) }

    static func storeYUV(
        y: UnsafePointer<UInt16>, u: UnsafePointer<UInt16>, v: UnsafePointer<UInt16>, count: Int,
        _ c: YUVCoefficients16, _ layout: PixelLayout, to dst: UnsafeMutablePointer<UInt32>
    ) {
        let shifts = (Int32(layout.redShift), Int32(layout.greenShift), Int32(layout.blueShift))
        let fill = layout.fillBits
        let yOffset = I16x8(repeating: c.yOffset), half = I16x8(repeating: 128 * 64)
        let ys = I16x8(repeating: c.yScale), rv = I16x8(repeating: c.rv), gu = I16x8(repeating: c.gu)
        let gv = I16x8(repeating: c.gv), bu = I16x8(repeating: c.bu)
        var i = 0
        while i < count {
            let yy = Lanes.mulhi(narrow(load(y + i)) &- yOffset, ys)
            let uu = narrow(load(u + i)) &- half, vv = narrow(load(v + i)) &- half
            let r = yy &+ Lanes.mulhi(vv, rv)
            let g = yy &+ Lanes.mulhi(uu, gu) &+ Lanes.mulhi(vv, gv)
            let b = yy &+ Lanes.mulhi(uu, bu)
            put(Lanes.pixels(channel(r), channel(g), channel(b), shifts: shifts, fill: fill), dst + i, count &- i)
            i &+= 8
        }
    }

    static func storeGray(
        y: UnsafePointer<UInt16>, count: Int, _ c: YUVCoefficients16, _ layout: PixelLayout,
        to dst: UnsafeMutablePointer<UInt32>
    ) {
        let shifts = (Int32(layout.redShift), Int32(layout.greenShift), Int32(layout.blueShift))
        let yOffset = I16x8(repeating: c.yOffset), ys = I16x8(repeating: c.yScale)
        var i = 0
        while i < count {
            let g = channel(Lanes.mulhi(narrow(load(y + i)) &- yOffset, ys))
            put(Lanes.pixels(g, g, g, shifts: shifts, fill: layout.fillBits), dst + i, count &- i)
            i &+= 8
        }
    }

    static func storeRGB(
        r: UnsafePointer<UInt16>, g: UnsafePointer<UInt16>, b: UnsafePointer<UInt16>, count: Int,
        _ layout: PixelLayout, to dst: UnsafeMutablePointer<UInt32>
    ) {
        let shifts = (Int32(layout.redShift), Int32(layout.greenShift), Int32(layout.blueShift))
        @inline(__always) func c(_ v: U16x8) -> I16x8 { Lanes.signed((v &+ 0x80) &>> 8) }
        var i = 0
        while i < count {
            put(Lanes.pixels(c(load(r + i)), c(load(g + i)), c(load(b + i)), shifts: shifts, fill: layout.fillBits),
                dst + i, count &- i)
            i &+= 8
        }
    }
}
