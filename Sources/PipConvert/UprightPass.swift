import PipCore

/// One frame's upright conversion with a ready plan (see `UprightPlan`): bars, then per block of
/// 8 output lines the vertical passes, transposes, horizontal passes and colour conversion.
struct UprightPass {
    let plan: UprightPlan
    let planes: (FramePlane, FramePlane, FramePlane)
    let coefficients: YUVCoefficients16
    let layout: PixelLayout
    let target: ImageTarget

    func run() {
        fillAboveAndBelow()
        run(blocks: 0..<plan.blockCount)
    }

    /// The bars above and below the content.
    func fillAboveAndBelow() {
        Bars(target: target, content: plan.key.content, black: layout.black).fillAboveAndBelow()
    }

    /// The output lines of blocks `blocks` (`UprightPlan.block` lines each), with the bars beside them.
    func run(blocks: Range<Int>) {
        let content = plan.key.content, block = UprightPlan.block
        let bars = Bars(target: target, content: content, black: layout.black)
        guard !content.isEmpty else { return }
        let packer = PixelPacker(coefficients, layout)
        for b in blocks {
            let first = b * block, lines = min(block, plan.outerCount - first)
            for p in plan.planes.indices { filterBlock(plan.planes[p], first: first, lines: lines) }
            for ch in plan.channels {
                UprightKernels.horizontalBlock(
                    plan.planes[ch.plane].columns, step: ch.step, starts: ch.starts, weights: ch.weights,
                    taps: ch.taps, count: plan.paddedCount, into: ch.out)
            }
            for j in 0..<lines {
                let o = first + j, q = plan.outerReversed ? plan.outerCount - 1 - o : o
                bars.fillSides(ofRow: content.y + q)
            }
            store(first: first, lines: lines, packer: packer)
        }
    }

    /// The vertical passes of `lines` output lines from `first` into the plane's line buffers,
    /// then their transpose into columns.
    private func filterBlock(_ plane: UprightPlan.Plane, first: Int, lines: Int) {
        let taps = plane.taps, source = self.plane(plane.index), n = plane.rowSamples
        let base = source.base.assumingMemoryBound(to: UInt8.self) + plane.firstByte
        for j in 0..<lines {
            let line = first + j, out = plane.lines + j &* n
            let start = plane.starts[line], weights = plane.weights + line &* taps
            if j > 0, plane.starts[line - 1] == start, sameWeights(weights - taps, weights, taps) {
                // Subsampled chroma repeats for pairs of lines.
                out.update(from: out - n, count: plane.rowBytes)
                continue
            }
            UprightKernels.verticalLine(
                base, stride: source.stride, first: Int(start), taps: taps, weights: weights,
                count: plane.rowBytes, into: out)
        }
        var x = 0
        while x < n {
            Lanes.transpose8x8(plane.lines + x, sourceStride: n, into: plane.columns + x &* 8, destinationStride: 8)
            x &+= 8
        }
    }

    @inline(__always)
    private func sameWeights(_ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>, _ taps: Int) -> Bool {
        for t in 0..<taps where a[t] != b[t] { return false }
        return true
    }

    private func plane(_ i: Int) -> FramePlane {
        i == 0 ? planes.0 : i == 1 ? planes.1 : planes.2
    }

    /// Transposes 8 outputs at a time back to line order, converts and stores them.
    private func store(first: Int, lines: Int, packer: PixelPacker) {
        let content = plan.key.content, c = plan.channels, t = plan.transposed
        let kind = plan.kind, count = c.count
        var i = 0
        while i < plan.innerCount {
            for k in 0..<count {
                Lanes.transpose8x8(c[k].out + i &* 8, sourceStride: 8, into: t + k &* 64, destinationStride: 8)
            }
            let n = min(8, plan.innerCount - i)
            for j in 0..<lines {
                let o = first + j, q = plan.outerReversed ? plan.outerCount - 1 - o : o
                let dst = (target.pixels + (content.y + q) &* target.stride + (content.x + i) &* 4)
                    .assumingMemoryBound(to: UInt32.self)
                @inline(__always) func lane(_ k: Int) -> SIMD8<UInt16> {
                    UnsafeRawPointer(t + k &* 64 + j &* 8).loadUnaligned(as: SIMD8<UInt16>.self)
                }
                let pixels: PixelPacker.Pixels
                switch kind {
                case .yuv: pixels = packer.yuv(lane(0), lane(1), lane(2))
                case .gray: pixels = packer.gray(lane(0))
                case .rgb: pixels = packer.rgb(lane(0), lane(1), lane(2))
                }
                PixelPacker.put(pixels, dst, n)
            }
            i &+= 8
        }
    }
}
