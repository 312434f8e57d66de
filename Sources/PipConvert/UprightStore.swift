import PipCore

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

/// Colour conversion and packing of 8 filtered samples (2⁸ × the value) into 8 pixel words.
struct PixelPacker {
    typealias U16x8 = SIMD8<UInt16>
    typealias I16x8 = SIMD8<Int16>
    typealias Pixels = (SIMD4<UInt32>, SIMD4<UInt32>)

    let shifts: (Int32, Int32, Int32)
    let fill: UInt32
    /// The channels' bytes when they are bytes 0, 1 and 2 of the word and the padding byte 3 (the
    /// usual visuals): pixels are then packed with saturating byte packs and interleaves, which
    /// also clamp, instead of shifting each channel into place (`Lanes.bytePixels`).
    let byteOrder: ByteOrder?
    enum ByteOrder { case blueFirst, redFirst }
    let yOffset: I16x8, ys: I16x8, rv: I16x8, gu: I16x8, gv: I16x8, bu: I16x8
    let half = I16x8(repeating: 128 * 64)

    init(_ c: YUVCoefficients16, _ layout: PixelLayout) {
        shifts = (Int32(layout.redShift), Int32(layout.greenShift), Int32(layout.blueShift))
        fill = layout.fillBits
        switch (layout.redShift, layout.greenShift, layout.blueShift) {
        case (16, 8, 0): byteOrder = .blueFirst
        case (0, 8, 16): byteOrder = .redFirst
        default: byteOrder = nil
        }
        yOffset = I16x8(repeating: c.yOffset)
        ys = I16x8(repeating: c.yScale)
        rv = I16x8(repeating: c.rv)
        gu = I16x8(repeating: c.gu)
        gv = I16x8(repeating: c.gv)
        bu = I16x8(repeating: c.bu)
    }

    /// 2⁸ × value → 2⁶ × value, rounded, as signed lanes.
    @inline(__always)
    static func narrow(_ v: U16x8) -> I16x8 { Lanes.signed((v &+ 2) &>> 2) }


    @inline(__always)
    func yuv(_ y: U16x8, _ u: U16x8, _ v: U16x8) -> Pixels {
        let yy = Lanes.mulhi(Self.narrow(y) &- yOffset, ys)
        let uu = Self.narrow(u) &- half, vv = Self.narrow(v) &- half
        let r = yy &+ Lanes.mulhi(vv, rv)
        let g = yy &+ Lanes.mulhi(uu, gu) &+ Lanes.mulhi(vv, gv)
        let b = yy &+ Lanes.mulhi(uu, bu)
        return pack(Self.rounded(r), Self.rounded(g), Self.rounded(b))
    }

    @inline(__always)
    func gray(_ y: U16x8) -> Pixels {
        let g = Self.rounded(Lanes.mulhi(Self.narrow(y) &- yOffset, ys))
        return pack(g, g, g)
    }

    @inline(__always)
    func rgb(_ r: U16x8, _ g: U16x8, _ b: U16x8) -> Pixels {
        @inline(__always) func c(_ v: U16x8) -> I16x8 { Lanes.signed((v &+ 0x80) &>> 8) }
        return pack(c(r), c(g), c(b))
    }

    /// Rounds 2³ × value to the value, not yet clamped (`pack` clamps). Each high-half product
    /// rounds down by under one unit; the constant centres the error (two or three products per
    /// channel).
    @inline(__always)
    static func rounded(_ v: I16x8) -> I16x8 { (v &+ 5) &>> 3 }

    /// Pixel words from channel values, each clamped to 0…255.
    @inline(__always)
    func pack(_ r: I16x8, _ g: I16x8, _ b: I16x8) -> Pixels {
        switch byteOrder {
        case .blueFirst: return Lanes.bytePixels(b, g, r)
        case .redFirst: return Lanes.bytePixels(r, g, b)
        case nil: return Lanes.pixels(Lanes.clampByte(r), Lanes.clampByte(g), Lanes.clampByte(b), shifts: shifts, fill: fill)
        }
    }

    /// Writes the first `count` (≤ 8) of the pixels at `dst`.
    @inline(__always)
    static func put(_ pixels: Pixels, _ dst: UnsafeMutablePointer<UInt32>, _ count: Int) {
        if count >= 8 {
            UnsafeMutableRawPointer(dst).storeBytes(of: pixels.0, as: SIMD4<UInt32>.self)
            UnsafeMutableRawPointer(dst + 4).storeBytes(of: pixels.1, as: SIMD4<UInt32>.self)
        } else {
            for k in 0..<count { dst[k] = k < 4 ? pixels.0[k] : pixels.1[k - 4] }
        }
    }
}
