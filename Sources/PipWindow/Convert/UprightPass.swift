import CameraSource

/// One frame's upright conversion with a ready plan: bars, then per output line a vertical pass
/// per plane, a horizontal pass per channel and the colour conversion into the destination row.
struct UprightPass {
    let plan: UprightPlan
    let planes: (FramePlane, FramePlane, FramePlane)
    let coefficients: YUVCoefficients16
    let layout: PixelLayout
    let destination: UnsafeMutableRawPointer
    let stride: Int
    let width: Int
    let height: Int

    func run() {
        let content = plan.key.content, black = layout.black
        for y in 0..<height where y < content.y || y >= content.y + content.height {
            RowKernels.fill(destination + y &* stride, pixel: black, count: width, step: 4)
        }
        guard !content.isEmpty else { return }
        // Scratch lines hold the previous frame's samples.
        for p in plan.planes.indices { plan.filteredLine[p] = -1 }
        let right = content.x + content.width
        for o in 0..<plan.outerCount {
            for p in plan.planes.indices { filterPlane(p, line: o) }
            for ch in plan.channels {
                let line = plan.planes[ch.plane].line
                UprightKernels.horizontalLine(
                    line, step: ch.step, starts: ch.starts, weights: ch.weights, weightStride: plan.paddedCount,
                    taps: ch.taps, count: plan.innerCount, into: ch.out)
            }
            let q = plan.outerReversed ? plan.outerCount - 1 - o : o
            let row = destination + (content.y + q) &* stride
            RowKernels.fill(row, pixel: black, count: content.x, step: 4)
            RowKernels.fill(row + right &* 4, pixel: black, count: width - right, step: 4)
            store(to: (row + content.x &* 4).assumingMemoryBound(to: UInt32.self))
        }
    }

    /// Runs plane `p`'s vertical pass for output line `line`, unless the line it holds already has
    /// the same taps (subsampled chroma repeats for pairs of lines).
    private func filterPlane(_ p: Int, line: Int) {
        let plane = plan.planes[p], taps = plane.taps
        let start = plane.starts[line], weights = plane.weights + line &* taps
        let held = plan.filteredLine[p]
        if held >= 0, plane.starts[held] == start {
            let old = plane.weights + held &* taps
            var same = true
            for t in 0..<taps where old[t] != weights[t] { same = false }
            if same { return }
        }
        let source = self.plane(plane.index)
        UprightKernels.verticalLine(
            source.base.assumingMemoryBound(to: UInt8.self), stride: source.stride, first: Int(start), taps: taps,
            weights: weights, count: plane.rowBytes, into: plane.line)
        plan.filteredLine[p] = line
    }

    private func plane(_ i: Int) -> FramePlane {
        i == 0 ? planes.0 : i == 1 ? planes.1 : planes.2
    }

    @inline(__always)
    private func store(to dst: UnsafeMutablePointer<UInt32>) {
        let n = plan.innerCount, c = plan.channels
        switch plan.kind {
        case .yuv:
            UprightStore.storeYUV(y: c[0].out, u: c[1].out, v: c[2].out, count: n, coefficients, layout, to: dst)
        case .gray:
            UprightStore.storeGray(y: c[0].out, count: n, coefficients, layout, to: dst)
        case .rgb:
            UprightStore.storeRGB(r: c[0].out, g: c[1].out, b: c[2].out, count: n, layout, to: dst)
        }
    }
}
