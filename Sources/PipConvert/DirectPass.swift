import PipCore

/// The upright conversion of a picture exactly the content's size (a camera's frames in a window
/// their size, a JPEG decoded at 1/2, 1/4 or 1/8 for it): no resampling, so each output row reads
/// one row of each plane and converts it 8 pixels at a time. Subsampled chroma is repeated, as
/// `UprightPass` does at this size (its single full-weight taps are copies), so both give the same
/// pixels; this only skips the line buffers and transposes, which makes it the cheaper of the two
/// (docs/PERFORMANCE.md, "Conversion").
struct DirectPass {
    let input: RowPassInput
    var key: ConversionKey { input.key }
    private var planes: (FramePlane, FramePlane, FramePlane) { input.planes }

    /// The pass for `input`, when it is a case this pass converts (`handles`).
    init?(_ input: RowPassInput) {
        guard Self.handles(input.key) else { return nil }
        self.input = input
    }

    /// Whether `key` is a case this pass converts: upright, Y′CbCr or grey, no scaling, and
    /// (when rows run right to left) whole chroma pairs.
    static func handles(_ key: ConversionKey) -> Bool {
        guard UprightPlan.handles(key.rotation), key.showsWholePicture, key.content.width == key.sourceWidth,
            key.content.height == key.sourceHeight
        else { return false }
        switch key.format {
        case .gray, .i444: return true
        case .i420, .i422, .yuyv, .nv12: return !reversesRows(key) || key.sourceWidth % 2 == 0
        default: return false
        }
    }

    private static func reversesRows(_ key: ConversionKey) -> Bool { (key.rotation == .deg180) != key.mirror }

    func run() {
        fillAboveAndBelow()
        run(sourceRows: 0..<key.content.height)
    }

    /// The bars above and below the content.
    func fillAboveAndBelow() { input.bars.fillAboveAndBelow() }

    /// The output rows that show the picture's rows `sourceRows`, with the bars beside them.
    func run(sourceRows: Range<Int>) {
        let bars = input.bars, writer = input.writer
        let upsideDown = key.rotation == .deg180
        for y in sourceRows {
            let out = bars.contentRow(y, upsideDown: upsideDown)
            switch key.format {
            case .yuyv: packedRow(y, writer, out)
            case .nv12: semiPlanarRow(y, writer, out)
            default: planarRow(y, writer, out)
            }
        }
    }

    private func row(_ plane: FramePlane, _ y: Int) -> UnsafePointer<UInt8> { input.row(plane, y) }

    /// Grey or planar Y′CbCr, chroma at full, half or quarter resolution.
    @inline(__always)
    private func planarRow(_ y: Int, _ writer: RowWriter, _ out: UnsafeMutablePointer<UInt32>) {
        let luma = row(planes.0, y)
        let cy = key.format == .i420 ? y >> 1 : y, halfChroma = key.format == .i420 || key.format == .i422
        let cb = row(planes.1, cy), cr = row(planes.2, cy)
        writer.write(
            into: out,
            eight: { s in
                let y = Lanes.load8(luma + s)
                guard !writer.gray else { return (y, y, y) }
                return halfChroma
                    ? (y, Lanes.load4Doubled(cb + (s >> 1)), Lanes.load4Doubled(cr + (s >> 1)))
                    : (y, Lanes.load8(cb + s), Lanes.load8(cr + s))
            },
            one: { x in
                let c = halfChroma ? x >> 1 : x
                return writer.gray ? (UInt16(luma[x]) << 8, 0, 0) : (UInt16(luma[x]) << 8, UInt16(cb[c]) << 8, UInt16(cr[c]) << 8)
            })
    }

    /// YUYV: Y′ Cb Y′ Cr, four bytes for two pixels.
    @inline(__always)
    private func packedRow(_ y: Int, _ writer: RowWriter, _ out: UnsafeMutablePointer<UInt32>) {
        let bytes = row(planes.0, y)
        writer.write(
            into: out,
            eight: { s in
                let (luma, chroma) = Lanes.evenOdd(bytes + 2 &* s)
                let (cb, cr) = Lanes.doubledPairs(chroma)
                return (luma &<< 8, cb &<< 8, cr &<< 8)
            },
            one: { x in
                let pair = bytes + (x >> 1) &* 4
                return (UInt16(bytes[2 &* x]) << 8, UInt16(pair[1]) << 8, UInt16(pair[3]) << 8)
            })
    }

    /// NV12: a Y′ plane and a half-size plane of Cb Cr pairs.
    @inline(__always)
    private func semiPlanarRow(_ y: Int, _ writer: RowWriter, _ out: UnsafeMutablePointer<UInt32>) {
        let luma = row(planes.0, y), chroma = row(planes.1, y >> 1)
        writer.write(
            into: out,
            eight: { s in
                let (cb, cr) = Lanes.doubledPairs(Lanes.widen8(chroma + s))
                return (Lanes.load8(luma + s), cb &<< 8, cr &<< 8)
            },
            one: { x in
                let pair = chroma + (x >> 1) &* 2
                return (UInt16(luma[x]) << 8, UInt16(pair[0]) << 8, UInt16(pair[1]) << 8)
            })
    }
}
