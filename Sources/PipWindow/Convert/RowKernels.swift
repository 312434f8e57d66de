/// The inner loops: raw pointers only, no bounds checks, no reference counting.
enum RowKernels {
    /// Filters one source row along its length: `out[i] = Σₖ w[i,k] · src[starts[i] + k·step]`,
    /// kept at 2⁶ × the sample value (weights sum to 2¹⁴, so the sum is shifted down by 8).
    @inline(__always)
    static func filterRow(
        _ src: UnsafePointer<UInt8>, step: Int, starts: UnsafePointer<Int32>,
        weights: UnsafePointer<Int16>, taps: Int, count: Int, into out: UnsafeMutablePointer<UInt16>
    ) {
        switch taps {
        case 1:
            for i in 0..<count {
                out[i] = UInt16(truncatingIfNeeded: Int32(src[Int(starts[i])]) &<< 6)
            }
        case 2:
            for i in 0..<count {
                let p = src + Int(starts[i]), w = weights + 2 &* i
                let s = Int32(p[0]) &* Int32(w[0]) &+ Int32(p[step]) &* Int32(w[1])
                out[i] = UInt16(truncatingIfNeeded: (s &+ 128) &>> 8)
            }
        case 3:
            for i in 0..<count {
                let p = src + Int(starts[i]), w = weights + 3 &* i
                let s = Int32(p[0]) &* Int32(w[0]) &+ Int32(p[step]) &* Int32(w[1])
                    &+ Int32(p[2 &* step]) &* Int32(w[2])
                out[i] = UInt16(truncatingIfNeeded: (s &+ 128) &>> 8)
            }
        case 4:
            for i in 0..<count {
                let p = src + Int(starts[i]), w = weights + 4 &* i
                let s = Int32(p[0]) &* Int32(w[0]) &+ Int32(p[step]) &* Int32(w[1])
                    &+ Int32(p[2 &* step]) &* Int32(w[2]) &+ Int32(p[3 &* step]) &* Int32(w[3])
                out[i] = UInt16(truncatingIfNeeded: (s &+ 128) &>> 8)
            }
        default:
            for i in 0..<count {
                var p = src + Int(starts[i])
                let w = weights + taps &* i
                var s: Int32 = 128
                for k in 0..<taps {
                    s &+= Int32(p[0]) &* Int32(w[k])
                    p += step
                }
                out[i] = UInt16(truncatingIfNeeded: s &>> 8)
            }
        }
    }

    /// `acc = w · row` (first tap) or `acc += w · row`.
    @inline(__always)
    static func accumulate(
        _ row: UnsafePointer<UInt16>, weight: Int32, into acc: UnsafeMutablePointer<Int32>, count: Int, first: Bool
    ) {
        if first {
            for i in 0..<count { acc[i] = Int32(row[i]) &* weight }
        } else {
            for i in 0..<count { acc[i] &+= Int32(row[i]) &* weight }
        }
    }

    /// Accumulated sums are 2²⁰ × the sample value; this brings them to 2⁶ × for conversion.
    @inline(__always)
    static func narrow(_ v: Int32) -> Int32 { (v &+ (1 << 13)) &>> 14 }

    @inline(__always)
    static func clamp8(_ v: Int32) -> UInt32 { UInt32(truncatingIfNeeded: min(max(v, 0), 255)) }

    /// Converts accumulated Y′CbCr to pixels at `dst + i·step`.
    @inline(__always)
    static func storeYUV(
        y: UnsafePointer<Int32>, u: UnsafePointer<Int32>, v: UnsafePointer<Int32>, count: Int,
        _ c: YUVCoefficients, _ layout: PixelLayout, to dst: UnsafeMutableRawPointer, step: Int
    ) {
        let rs = UInt32(layout.redShift), gs = UInt32(layout.greenShift), bs = UInt32(layout.blueShift)
        let fill = layout.fillBits, half: Int32 = 128 << YUVCoefficients.inputBits
        let round = YUVCoefficients.rounding, shift = YUVCoefficients.shift
        for i in 0..<count {
            let yy = (narrow(y[i]) &- c.yOffset) &* c.yScale &+ round
            let uu = narrow(u[i]) &- half, vv = narrow(v[i]) &- half
            let r = clamp8((yy &+ c.rv &* vv) &>> shift)
            let g = clamp8((yy &+ c.gu &* uu &+ c.gv &* vv) &>> shift)
            let b = clamp8((yy &+ c.bu &* uu) &>> shift)
            (dst + i &* step).storeBytes(of: r &<< rs | g &<< gs | b &<< bs | fill, as: UInt32.self)
        }
    }

    /// Converts accumulated luma to grey pixels at `dst + i·step`.
    @inline(__always)
    static func storeGray(
        y: UnsafePointer<Int32>, count: Int, _ c: YUVCoefficients, _ layout: PixelLayout,
        to dst: UnsafeMutableRawPointer, step: Int
    ) {
        let fill = layout.fillBits, round = YUVCoefficients.rounding, shift = YUVCoefficients.shift
        for i in 0..<count {
            let g = clamp8(((narrow(y[i]) &- c.yOffset) &* c.yScale &+ round) &>> shift)
            (dst + i &* step).storeBytes(of: g &* 0x0101_0101 | fill, as: UInt32.self)
        }
    }

    /// Stores accumulated R′G′B′ at `dst + i·step`.
    @inline(__always)
    static func storeRGB(
        r: UnsafePointer<Int32>, g: UnsafePointer<Int32>, b: UnsafePointer<Int32>, count: Int,
        _ layout: PixelLayout, to dst: UnsafeMutableRawPointer, step: Int
    ) {
        let rs = UInt32(layout.redShift), gs = UInt32(layout.greenShift), bs = UInt32(layout.blueShift)
        let fill = layout.fillBits, round: Int32 = 1 << 19
        for i in 0..<count {
            let rr = clamp8((r[i] &+ round) &>> 20), gg = clamp8((g[i] &+ round) &>> 20)
            let bb = clamp8((b[i] &+ round) &>> 20)
            (dst + i &* step).storeBytes(of: rr &<< rs | gg &<< gs | bb &<< bs | fill, as: UInt32.self)
        }
    }

    /// Writes `count` copies of `pixel` at `dst + i·step`.
    @inline(__always)
    static func fill(_ dst: UnsafeMutableRawPointer, pixel: UInt32, count: Int, step: Int) {
        for i in 0..<count { (dst + i &* step).storeBytes(of: pixel, as: UInt32.self) }
    }
}

/// A 32-bit picture to write: `width`×`height` pixels, rows `stride` bytes apart.
struct ImageTarget {
    let pixels: UnsafeMutableRawPointer
    let stride: Int
    let width: Int
    let height: Int
}

/// The black bars around the content rectangle of a target, for the passes that write the content.
struct Bars {
    let target: ImageTarget
    let content: ContentGeometry
    let black: UInt32

    /// Fills the whole rows above and below the content.
    func fillAboveAndBelow() {
        for y in 0..<target.height where y < content.y || y >= content.y + content.height {
            RowKernels.fill(target.pixels + y &* target.stride, pixel: black, count: target.width, step: 4)
        }
    }

    /// Fills destination row `y` left and right of the content.
    @inline(__always)
    func fillSides(ofRow y: Int) {
        let row = target.pixels + y &* target.stride, right = content.x + content.width
        RowKernels.fill(row, pixel: black, count: content.x, step: 4)
        RowKernels.fill(row + right &* 4, pixel: black, count: target.width - right, step: 4)
    }
}
