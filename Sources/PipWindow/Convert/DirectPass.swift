import PipCore

/// The upright conversion of a planar picture exactly the content's size (a JPEG decoded at
/// 1/2, 1/4 or 1/8 for a window that size): no resampling, so each output row reads one row of
/// each plane and converts it 8 pixels at a time. Subsampled chroma is repeated, as `UprightPass`
/// does at this size (its single full-weight taps are copies), so both give the same pixels; this
/// only skips the line buffers and transposes, which makes it the cheaper of the two
/// (docs/PERFORMANCE.md, "Conversion").
struct DirectPass {
    let key: ConversionKey
    let planes: (FramePlane, FramePlane, FramePlane)
    let coefficients: YUVCoefficients16
    let layout: PixelLayout
    let target: ImageTarget

    /// The pass for `picture` (whose planes are `planes`) shown as `key` says, when it is a case
    /// this pass converts (`handles`).
    init?(picture: VideoFrame, planes: (FramePlane, FramePlane, FramePlane), key: ConversionKey, layout: PixelLayout, target: ImageTarget) {
        guard Self.handles(key) else { return nil }
        self.key = key
        self.planes = planes
        coefficients = YUVCoefficients16(picture.colorimetry)
        self.layout = layout
        self.target = target
    }

    /// Whether `key` is a case this pass converts: upright, planar Y′CbCr or grey, no scaling, and
    /// (when rows run right to left) whole chroma pairs.
    static func handles(_ key: ConversionKey) -> Bool {
        guard UprightPlan.handles(key.rotation), key.showsWholePicture, key.content.width == key.sourceWidth,
            key.content.height == key.sourceHeight
        else { return false }
        switch key.format {
        case .gray, .i444: return true
        case .i420, .i422: return !reversesRows(key) || key.sourceWidth % 2 == 0
        default: return false
        }
    }

    private static func reversesRows(_ key: ConversionKey) -> Bool { (key.rotation == .deg180) != key.mirror }

    func run() {
        fillAboveAndBelow()
        run(sourceRows: 0..<key.content.height)
    }

    /// The bars above and below the content.
    func fillAboveAndBelow() {
        Bars(target: target, content: key.content, black: layout.black).fillAboveAndBelow()
    }

    /// The output rows that show the picture's rows `sourceRows`, with the bars beside them.
    func run(sourceRows: Range<Int>) {
        let content = key.content
        let bars = Bars(target: target, content: content, black: layout.black)
        let packer = PixelPacker(coefficients, layout)
        let reversed = Self.reversesRows(key), upsideDown = key.rotation == .deg180
        let chromaShift = key.format == .i420 ? 1 : 0
        for y in sourceRows {
            let q = upsideDown ? content.height - 1 - y : y
            bars.fillSides(ofRow: content.y + q)
            let row = target.pixels + (content.y + q) &* target.stride
            let out = (row + content.x &* 4).assumingMemoryBound(to: UInt32.self)
            let luma = planes.0.base.assumingMemoryBound(to: UInt8.self) + y &* planes.0.stride
            switch key.format {
            case .gray:
                convertGray(luma, into: out, reversed: reversed, packer: packer)
            default:
                let cy = y >> chromaShift
                let cb = planes.1.base.assumingMemoryBound(to: UInt8.self) + cy &* planes.1.stride
                let cr = planes.2.base.assumingMemoryBound(to: UInt8.self) + cy &* planes.2.stride
                convertRow(luma, cb, cr, into: out, reversed: reversed, packer: packer, halfChroma: key.format != .i444)
            }
        }
    }

    /// One row of Y′CbCr: whole groups of 8 with vector loads, the rest lane by lane (a vector
    /// load there could read past the plane's end).
    @inline(__always)
    private func convertRow(
        _ luma: UnsafePointer<UInt8>, _ cb: UnsafePointer<UInt8>, _ cr: UnsafePointer<UInt8>,
        into out: UnsafeMutablePointer<UInt32>, reversed: Bool, packer: PixelPacker, halfChroma: Bool
    ) {
        let n = key.content.width, whole = n & ~7
        var i = 0
        while i < whole {
            // Output i…i+7 shows source s…s+7, backwards when reversed; s is even whenever chroma is halved.
            let s = reversed ? n - 8 - i : i
            let y = Lanes.load8(luma + s)
            let u = halfChroma ? Lanes.load4Doubled(cb + (s >> 1)) : Lanes.load8(cb + s)
            let v = halfChroma ? Lanes.load4Doubled(cr + (s >> 1)) : Lanes.load8(cr + s)
            var pixels = packer.yuv(y, u, v)
            if reversed { pixels = Lanes.reversed(pixels) }
            PixelPacker.put(pixels, out + i, 8)
            i &+= 8
        }
        guard i < n else { return }
        var y = SIMD8<UInt16>(), u = SIMD8<UInt16>(), v = SIMD8<UInt16>()
        for k in 0..<(n - i) {
            let x = reversed ? n - 1 - (i + k) : i + k, c = halfChroma ? x >> 1 : x
            y[k] = UInt16(luma[x]) << 8
            u[k] = UInt16(cb[c]) << 8
            v[k] = UInt16(cr[c]) << 8
        }
        PixelPacker.put(packer.yuv(y, u, v), out + i, n - i)
    }

    @inline(__always)
    private func convertGray(
        _ luma: UnsafePointer<UInt8>, into out: UnsafeMutablePointer<UInt32>, reversed: Bool, packer: PixelPacker
    ) {
        let n = key.content.width, whole = n & ~7
        var i = 0
        while i < whole {
            var pixels = packer.gray(Lanes.load8(luma + (reversed ? n - 8 - i : i)))
            if reversed { pixels = Lanes.reversed(pixels) }
            PixelPacker.put(pixels, out + i, 8)
            i &+= 8
        }
        guard i < n else { return }
        var y = SIMD8<UInt16>()
        for k in 0..<(n - i) { y[k] = UInt16(luma[reversed ? n - 1 - (i + k) : i + k]) << 8 }
        PixelPacker.put(packer.gray(y), out + i, n - i)
    }
}
