import CameraSource

/// Fixed-point Y′CbCr → R′G′B′ for one matrix and range.
///
/// Inputs are samples scaled by 2⁶ (as the filters leave them); coefficients are scaled by 2¹²,
/// so a product fits comfortably in `Int32` and the result is shifted down by 18 with rounding.
struct YUVCoefficients: Equatable {
    static let inputBits: Int32 = 6
    static let coefficientBits: Int32 = 12
    static let shift: Int32 = inputBits + coefficientBits
    static let rounding: Int32 = 1 << (shift - 1)

    /// Luma black level (16 or 0), scaled by 2⁶.
    let yOffset: Int32
    let yScale: Int32
    let rv: Int32
    let gu: Int32
    let gv: Int32
    let bu: Int32

    init(_ colorimetry: Colorimetry) {
        let c = Self.floatingPoint(colorimetry)
        func q(_ x: Double) -> Int32 { Int32((x * Double(1 << Self.coefficientBits)).rounded()) }
        yOffset = Int32(c.yOffset) << Self.inputBits
        yScale = q(c.yScale)
        rv = q(c.rv)
        gu = q(c.gu)
        gv = q(c.gv)
        bu = q(c.bu)
    }

    /// The exact coefficients: R = yScale·(Y − yOffset) + rv·(V − 128), G = … + gu·(U − 128) +
    /// gv·(V − 128), B = … + bu·(U − 128).
    static func floatingPoint(_ colorimetry: Colorimetry)
        -> (yOffset: Double, yScale: Double, rv: Double, gu: Double, gv: Double, bu: Double)
    {
        let (kr, kb): (Double, Double) = colorimetry.matrix == .bt709 ? (0.2126, 0.0722) : (0.299, 0.114)
        let kg = 1 - kr - kb
        let limited = colorimetry.range == .limited
        let ys = limited ? 255.0 / 219.0 : 1.0
        let cs = limited ? 255.0 / 224.0 : 1.0
        return (limited ? 16 : 0, ys, 2 * (1 - kr) * cs, -2 * kb * (1 - kb) / kg * cs,
                -2 * kr * (1 - kr) / kg * cs, 2 * (1 - kb) * cs)
    }
}
