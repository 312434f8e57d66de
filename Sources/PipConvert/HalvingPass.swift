import PipCore

/// The upright conversion of a picture exactly twice the content's size each way (1920×1080 in a
/// 960×540 window, 1280×720 in 640×360): each output pixel is the mean of a 2×2 square, which is
/// what `UprightPass`'s area average gives at this ratio, to the bit (its half weights are exact
/// in 16 bits), without its line buffers, transposes and tap tables: one pass over two source
/// rows per output row, 8 outputs at a time. Chroma at half resolution needs no averaging across
/// (a pair of pixels shares it), and 4:2:0 chroma none down either (docs/PERFORMANCE.md,
/// "Conversion").
struct HalvingPass {
    let input: RowPassInput
    var key: ConversionKey { input.key }
    private var planes: (FramePlane, FramePlane, FramePlane) { input.planes }

    /// The pass for `input`, when it is a case this pass converts (`handles`).
    init?(_ input: RowPassInput) {
        guard Self.handles(input.key) else { return nil }
        self.input = input
    }

    /// Whether `key` is a case this pass converts: upright Y′CbCr or grey, the whole picture,
    /// exactly halved each way.
    static func handles(_ key: ConversionKey) -> Bool {
        guard UprightPlan.handles(key.rotation), key.showsWholePicture, key.content.width * 2 == key.sourceWidth,
            key.content.height * 2 == key.sourceHeight
        else { return false }
        switch key.format {
        case .gray, .i420, .i422, .i444, .yuyv, .nv12: return true
        default: return false
        }
    }

    func run() {
        let bars = input.bars, writer = input.writer
        bars.fillAboveAndBelow()
        let upsideDown = key.rotation == .deg180
        for y in 0..<key.content.height {
            let out = bars.contentRow(y, upsideDown: upsideDown)
            switch key.format {
            case .yuyv: packedRow(y, writer, out)
            case .nv12: semiPlanarRow(y, writer, out)
            default: planarRow(y, writer, out)
            }
        }
    }

    private func row(_ plane: FramePlane, _ y: Int) -> UnsafePointer<UInt8> { input.row(plane, y) }

    /// 2⁸ × the mean of the 2×2 square of `plane`'s samples whose top left is (2x, 2y) for
    /// outputs `s…s+7` (`top` and `bottom` are rows 2y and 2y + 1).
    @inline(__always)
    private static func squares(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, _ s: Int) -> SIMD8<UInt16> {
        let (a0, a1) = Lanes.widen16(top + 2 &* s), (b0, b1) = Lanes.widen16(bottom + 2 &* s)
        return Lanes.pairSums(a0 &+ b0, a1 &+ b1) &<< 6
    }

    @inline(__always)
    private static func square(_ top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, _ x: Int) -> UInt16 {
        (UInt16(top[2 &* x]) + UInt16(top[2 &* x + 1]) + UInt16(bottom[2 &* x]) + UInt16(bottom[2 &* x + 1])) << 6
    }

    /// Grey or planar Y′CbCr: luma by 2×2 squares; chroma the same at 4:4:4, down a pair of rows
    /// at 4:2:2 (a pair of pixels shares each sample), as it is at 4:2:0.
    @inline(__always)
    private func planarRow(_ y: Int, _ writer: RowWriter, _ out: UnsafeMutablePointer<UInt32>) {
        let top = row(planes.0, 2 &* y), bottom = row(planes.0, 2 &* y + 1)
        let format = key.format
        let cbTop = row(planes.1, format == .i420 ? y : 2 &* y), cbBottom = row(planes.1, format == .i420 ? y : 2 &* y + 1)
        let crTop = row(planes.2, format == .i420 ? y : 2 &* y), crBottom = row(planes.2, format == .i420 ? y : 2 &* y + 1)
        writer.write(
            into: out,
            eight: { s in
                let luma = Self.squares(top, bottom, s)
                switch format {
                case .gray: return (luma, luma, luma)
                case .i444: return (luma, Self.squares(cbTop, cbBottom, s), Self.squares(crTop, crBottom, s))
                case .i422:
                    return (luma, (Lanes.widen8(cbTop + s) &+ Lanes.widen8(cbBottom + s)) &<< 7,
                            (Lanes.widen8(crTop + s) &+ Lanes.widen8(crBottom + s)) &<< 7)
                default: return (luma, Lanes.load8(cbTop + s), Lanes.load8(crTop + s))
                }
            },
            one: { x in
                let luma = Self.square(top, bottom, x)
                switch format {
                case .gray: return (luma, 0, 0)
                case .i444: return (luma, Self.square(cbTop, cbBottom, x), Self.square(crTop, crBottom, x))
                case .i422:
                    return (luma, (UInt16(cbTop[x]) + UInt16(cbBottom[x])) << 7, (UInt16(crTop[x]) + UInt16(crBottom[x])) << 7)
                default: return (luma, UInt16(cbTop[x]) << 8, UInt16(crTop[x]) << 8)
                }
            })
    }

    /// YUYV: output `x` covers source pixels 2x and 2x + 1, one Y′ Cb Y′ Cr group, on two rows.
    @inline(__always)
    private func packedRow(_ y: Int, _ writer: RowWriter, _ out: UnsafeMutablePointer<UInt32>) {
        let top = row(planes.0, 2 &* y), bottom = row(planes.0, 2 &* y + 1)
        writer.write(
            into: out,
            eight: { s in
                let (ya0, ca0) = Lanes.evenOdd(top + 4 &* s), (ya1, ca1) = Lanes.evenOdd(top + 4 &* s + 16)
                let (yb0, cb0) = Lanes.evenOdd(bottom + 4 &* s), (yb1, cb1) = Lanes.evenOdd(bottom + 4 &* s + 16)
                let chroma = Lanes.deinterleave(ca0 &+ cb0, ca1 &+ cb1)
                return (Lanes.pairSums(ya0 &+ yb0, ya1 &+ yb1) &<< 6, chroma.even &<< 7, chroma.odd &<< 7)
            },
            one: { x in
                let a = top + 4 &* x, b = bottom + 4 &* x
                let luma = (UInt16(a[0]) + UInt16(a[2]) + UInt16(b[0]) + UInt16(b[2])) << 6
                return (luma, (UInt16(a[1]) + UInt16(b[1])) << 7, (UInt16(a[3]) + UInt16(b[3])) << 7)
            })
    }

    /// NV12: luma by 2×2 squares; the chroma row's pair `x` as it is.
    @inline(__always)
    private func semiPlanarRow(_ y: Int, _ writer: RowWriter, _ out: UnsafeMutablePointer<UInt32>) {
        let top = row(planes.0, 2 &* y), bottom = row(planes.0, 2 &* y + 1), chroma = row(planes.1, y)
        writer.write(
            into: out,
            eight: { s in
                let (cb, cr) = Lanes.evenOdd(chroma + 2 &* s)
                return (Self.squares(top, bottom, s), cb &<< 8, cr &<< 8)
            },
            one: { x in (Self.square(top, bottom, x), UInt16(chroma[2 &* x]) << 8, UInt16(chroma[2 &* x + 1]) << 8) })
    }
}
