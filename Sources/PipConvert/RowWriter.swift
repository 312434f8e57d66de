import PipCore

/// What a pass that writes rows straight (`DirectPass`, `HalvingPass`) converts, and where to.
struct RowPassInput {
    let key: ConversionKey
    let planes: (FramePlane, FramePlane, FramePlane)
    let coefficients: YUVCoefficients16
    let layout: PixelLayout
    let target: ImageTarget

    init(picture: VideoFrame, planes: (FramePlane, FramePlane, FramePlane), key: ConversionKey, layout: PixelLayout, target: ImageTarget) {
        self.key = key
        self.planes = planes
        coefficients = YUVCoefficients16(picture.colorimetry)
        self.layout = layout
        self.target = target
    }

    var bars: Bars { Bars(target: target, content: key.content, black: layout.black) }

    /// The writer of the content's rows: right to left when mirrored or upside down (not both).
    var writer: RowWriter {
        RowWriter(
            count: key.content.width, reversed: (key.rotation == .deg180) != key.mirror,
            packer: PixelPacker(coefficients, layout), gray: key.format == .gray)
    }

    /// Row `y` of plane `plane`.
    func row(_ plane: FramePlane, _ y: Int) -> UnsafePointer<UInt8> {
        plane.base.assumingMemoryBound(to: UInt8.self) + y &* plane.stride
    }
}

/// One output row of a pass that does not resample (`DirectPass`, `HalvingPass`): 8 pixels at a
/// time with vector loads, right to left when the picture is mirrored or upside down, and the
/// tail lane by lane (a vector load there could read past the plane's end).
struct RowWriter {
    typealias U16x8 = SIMD8<UInt16>
    /// Y′, Cb, Cr of 8 outputs, left to right, 2⁸ × the value (Cb and Cr are ignored for grey).
    typealias Eight = (y: U16x8, u: U16x8, v: U16x8)
    /// The same for one output.
    typealias One = (y: UInt16, u: UInt16, v: UInt16)

    /// Outputs in the row.
    let count: Int
    /// Whether output `i` shows sample `count − 1 − i`.
    let reversed: Bool
    let packer: PixelPacker
    let gray: Bool

    /// Writes the row at `out`: `eight(s)` gives samples `s…s+7`, `one(x)` sample `x`. When
    /// `reversed`, `s` is `count − 8 − i` for output `i`: callers whose samples come in pairs
    /// (half-width chroma) need an even `count` then.
    @inline(__always)
    func write(into out: UnsafeMutablePointer<UInt32>, eight: (Int) -> Eight, one: (Int) -> One) {
        let n = count, whole = n & ~7
        var i = 0
        while i < whole {
            let samples = eight(reversed ? n - 8 - i : i)
            var pixels = gray ? packer.gray(samples.y) : packer.yuv(samples.y, samples.u, samples.v)
            if reversed { pixels = Lanes.reversed(pixels) }
            PixelPacker.put(pixels, out + i, 8)
            i &+= 8
        }
        guard i < n else { return }
        var y = U16x8(), u = U16x8(), v = U16x8()
        for k in 0..<(n - i) {
            let sample = one(reversed ? n - 1 - (i + k) : i + k)
            y[k] = sample.y
            u[k] = sample.u
            v[k] = sample.v
        }
        PixelPacker.put(gray ? packer.gray(y) : packer.yuv(y, u, v), out + i, n - i)
    }
}

extension Bars {
    /// Fills the bars beside the content's row `row` (counted from the picture's top, which is
    /// the bottom when `upsideDown`) and returns where that row's content begins.
    @inline(__always)
    func contentRow(_ row: Int, upsideDown: Bool) -> UnsafeMutablePointer<UInt32> {
        let q = upsideDown ? content.height - 1 - row : row
        fillSides(ofRow: content.y + q)
        return (target.pixels + (content.y + q) &* target.stride + content.x &* 4).assumingMemoryBound(to: UInt32.self)
    }
}
