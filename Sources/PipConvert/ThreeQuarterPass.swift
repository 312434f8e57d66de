import PipCore

/// The upright conversion of a picture exactly 4/3 the content's size each way (1280×720 in a
/// 960×540 window, 1920×1080 in 1440×810): the same box weights as `UprightPass` (3/4 + 1/4,
/// 1/2 + 1/2, 1/4 + 3/4), and the same 16-bit arithmetic, so the same pixels, without its
/// transposes: per output row one vertical pass per plane into a line, then groups of four
/// samples (two of half-width chroma) split into vectors by position, so that each of a group's
/// three outputs is two products of whole vectors, and the three phases' pixels woven back into
/// row order, 24 outputs at a time (docs/PERFORMANCE.md, "Conversion").
struct ThreeQuarterPass {
    typealias U16x8 = SIMD8<UInt16>
    let plan: ThreeQuarterPlan
    let input: RowPassInput
    var key: ConversionKey { input.key }

    /// The pass for `input` with `plan` (made for its key), when the plan's tables allow it.
    init?(_ input: RowPassInput, plan: ThreeQuarterPlan) {
        guard plan.isPeriodic, plan.key == input.key else { return nil }
        self.plan = plan
        self.input = input
    }

    func run() {
        let bars = input.bars
        bars.fillAboveAndBelow()
        let upsideDown = key.rotation == .deg180, reversed = upsideDown != key.mirror
        let packer = PixelPacker(input.coefficients, input.layout)
        let width = key.content.width, groups = plan.groups, gray = plan.lines.kind != .yuv
        // Copies, so that the loop below reads no class or array (no reference counting in it).
        let luma = plan.channels[0], cb = plan.channels[gray ? 0 : 1], cr = plan.channels[gray ? 0 : 2]
        for y in 0..<key.content.height {
            plan.lines.filter(row: y, of: input.planes)
            let out = bars.contentRow(y, upsideDown: upsideDown)
            var g = 0
            while g < groups {
                let (a, b, c) = Self.block(g, packer, gray: gray, luma, cb, cr)
                let count = min(24, width - 3 * g)
                Self.put(a, b, c, first: 3 * g, count: count, width: width, reversed: reversed, into: out)
                g &+= 8
            }
        }
    }

    /// Outputs 3g … 3g + 23 as pixels in row order (past the row's end they are not shown).
    @inline(__always)
    private static func block(
        _ g: Int, _ packer: PixelPacker, gray: Bool, _ luma: ThreeQuarterPlan.Channel, _ cb: ThreeQuarterPlan.Channel,
        _ cr: ThreeQuarterPlan.Channel
    ) -> (PixelPacker.Pixels, PixelPacker.Pixels, PixelPacker.Pixels) {
        let y = phases(luma, g)
        guard !gray else { return weave(packer.gray(y.0), packer.gray(y.1), packer.gray(y.2)) }
        let u = phases(cb, g), v = phases(cr, g)
        return weave(packer.yuv(y.0, u.0, v.0), packer.yuv(y.1, u.1, v.1), packer.yuv(y.2, u.2, v.2))
    }

    /// The channel's outputs 3g + p of groups g … g + 7 for each phase p.
    @inline(__always)
    private static func phases(_ channel: ThreeQuarterPlan.Channel, _ g: Int) -> (U16x8, U16x8, U16x8) {
        let a = channel.first, b = channel.second
        @inline(__always) func mix(_ s: U16x8, _ wa: U16x8, _ t: U16x8, _ wb: U16x8) -> U16x8 {
            Lanes.mulhi(s, wa) &+ Lanes.mulhi(t, wb)
        }
        if channel.half {
            let (c0, c1) = Lanes.evenOdd16(channel.samples + 2 &* g)
            return (mix(c0, a.0, c1, b.0), mix(c0, a.1, c1, b.1), mix(c0, a.2, c1, b.2))
        }
        let (s0, s1, s2, s3) = Lanes.byFours(channel.samples + 4 &* g)
        return (mix(s0, a.0, s1, b.0), mix(s1, a.1, s2, b.1), mix(s2, a.2, s3, b.2))
    }

    /// Three phases' 8 pixels each as 24 pixels in row order, in three pairs of vectors.
    @inline(__always)
    private static func weave(
        _ a: PixelPacker.Pixels, _ b: PixelPacker.Pixels, _ c: PixelPacker.Pixels
    ) -> (PixelPacker.Pixels, PixelPacker.Pixels, PixelPacker.Pixels) {
        let low = Lanes.woven(a.0, b.0, c.0), high = Lanes.woven(a.1, b.1, c.1)
        return ((low.0, low.1), (low.2, high.0), (high.1, high.2))
    }

    /// Writes `count` of the 24 pixels from output `first` on, right to left when `reversed`.
    @inline(__always)
    private static func put(
        _ a: PixelPacker.Pixels, _ b: PixelPacker.Pixels, _ c: PixelPacker.Pixels, first: Int, count: Int, width: Int,
        reversed: Bool, into out: UnsafeMutablePointer<UInt32>
    ) {
        if count == 24 && !reversed {
            PixelPacker.put(a, out + first, 8)
            PixelPacker.put(b, out + first + 8, 8)
            PixelPacker.put(c, out + first + 16, 8)
            return
        }
        if count == 24 {
            let end = width - first
            PixelPacker.put(Lanes.reversed(a), out + end - 8, 8)
            PixelPacker.put(Lanes.reversed(b), out + end - 16, 8)
            PixelPacker.put(Lanes.reversed(c), out + end - 24, 8)
            return
        }
        for k in 0..<count {
            let vector: SIMD4<UInt32>
            switch k >> 2 {
            case 0: vector = a.0
            case 1: vector = a.1
            case 2: vector = b.0
            case 3: vector = b.1
            case 4: vector = c.0
            default: vector = c.1
            }
            out[reversed ? width - 1 - (first + k) : first + k] = vector[k & 3]
        }
    }
}
