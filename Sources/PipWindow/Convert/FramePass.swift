import CameraSource

/// One frame's conversion with a ready plan: bars, then output lines in source-row order.
struct FramePass {
    let plan: ConversionPlan
    let planes: (FramePlane, FramePlane, FramePlane)
    let coefficients: YUVCoefficients
    let layout: PixelLayout
    let target: ImageTarget

    func run() {
        let content = plan.key.content
        let swaps = plan.key.rotation.swapsAxes
        let bars = Bars(target: target, content: content, black: layout.black)
        bars.fillAboveAndBelow()
        if swaps {
            // Content goes in column by column; the side bars are written row by row first.
            for y in content.y..<(content.y + content.height) { bars.fillSides(ofRow: y) }
        }
        guard !content.isEmpty else { return }
        // The row caches hold the previous frame's rows.
        for channel in plan.channels { channel.cachedRows.update(repeating: -1, count: channel.outerTaps) }

        let n = plan.innerCount, acc = plan.accumulators
        let origin = target.pixels + content.y &* target.stride + content.x &* 4
        for o in 0..<plan.outerCount {
            for c in 0..<plan.channels.count { verticalPass(channel: c, line: o, into: acc + c &* n) }
            let q = plan.outerReversed ? plan.outerCount - 1 - o : o
            if swaps {
                store(to: origin + q &* 4, step: target.stride)
            } else {
                bars.fillSides(ofRow: content.y + q)
                store(to: origin + q &* target.stride, step: 4)
            }
        }
    }

    /// Combines the filtered source rows output line `line` covers into `acc`.
    private func verticalPass(channel c: Int, line: Int, into acc: UnsafeMutablePointer<Int32>) {
        let ch = plan.channels[c], n = plan.innerCount
        let taps = ch.outerTaps, start = Int(ch.outerStarts[line]), weights = ch.outerWeights + line &* taps
        var first = true
        for t in 0..<taps {
            let w = Int32(weights[t])
            if w == 0 { continue }
            let row = start + t, slot = row % taps
            let cached = ch.cache + slot &* n
            if ch.cachedRows[slot] != row {
                let plane = self.plane(ch.plane)
                RowKernels.filterRow(
                    plane.base.assumingMemoryBound(to: UInt8.self) + row &* plane.stride, step: ch.step,
                    starts: ch.innerStarts, weights: ch.innerWeights, taps: ch.innerTaps, count: n, into: cached)
                ch.cachedRows[slot] = row
            }
            RowKernels.accumulate(cached, weight: w, into: acc, count: n, first: first)
            first = false
        }
    }

    private func plane(_ i: Int) -> FramePlane {
        i == 0 ? planes.0 : i == 1 ? planes.1 : planes.2
    }

    /// Converts the accumulated line to pixels at `dst + i·step`.
    @inline(__always)
    private func store(to dst: UnsafeMutableRawPointer, step: Int) {
        let n = plan.innerCount, a = UnsafePointer(plan.accumulators)
        switch plan.kind {
        case .yuv: RowKernels.storeYUV(y: a, u: a + n, v: a + 2 &* n, count: n, coefficients, layout, to: dst, step: step)
        case .gray: RowKernels.storeGray(y: a, count: n, coefficients, layout, to: dst, step: step)
        case .rgb: RowKernels.storeRGB(r: a, g: a + n, b: a + 2 &* n, count: n, layout, to: dst, step: step)
        }
    }
}
