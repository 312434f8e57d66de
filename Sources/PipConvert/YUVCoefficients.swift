import PipCore

/// Y′CbCr → R′G′B′ for one matrix and range; the passes quantise these for their arithmetic
/// (`YUVCoefficients16`).
enum YUVCoefficients {
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
