/// The entropy-decoding loop of `ReducedJPEGDecoder`: walks the MCUs of one scan, decodes each
/// block's coefficients and writes the block's 1 or 2×2 output pixels.
struct ScanDecoder {
    let entropy: EntropyData
    let weights: UnsafeMutablePointer<SIMD4<Float>>
    let restartInterval: Int
    let mcusX: Int, mcusY: Int
    let pixelsPerBlock: Int
    let output: UnsafeMutablePointer<UInt8>

    /// A grayscale (non-interleaved) scan.
    func run(_ p0: Plane) {
        if pixelsPerBlock == 2 { scan(p0, p0, p0, components: 1, quarters: true) } else { scan(p0, p0, p0, components: 1, quarters: false) }
    }

    /// A three-component interleaved scan.
    func run(_ p0: Plane, _ p1: Plane, _ p2: Plane) {
        if pixelsPerBlock == 2 { scan(p0, p1, p2, components: 3, quarters: true) } else { scan(p0, p1, p2, components: 3, quarters: false) }
    }

    @inline(__always)
    private func scan(_ p0: Plane, _ p1: Plane, _ p2: Plane, components: Int, quarters: Bool) {
        let start = UnsafePointer(entropy.bytes)
        let end = start + entropy.count + EntropyData.padding / 2
        var reader = BitReader(start)
        var predictors = SIMD4<Int32>.zero
        var nextRestart = 0
        var mcu = 0
        for mcuY in 0..<mcusY {
            for mcuX in 0..<mcusX {
                if restartInterval > 0 && mcu > 0 && mcu % restartInterval == 0 {
                    // Each interval starts byte-aligned with fresh predictors; a missing marker ends
                    // the picture (the rest keeps what the previous frame left there).
                    guard nextRestart < entropy.restartCount else { return }
                    reader = BitReader(start + entropy.restarts[nextRestart])
                    nextRestart += 1
                    predictors = .zero
                }
                mcu += 1
                for c in 0..<components {
                    let plane = c == 0 ? p0 : c == 1 ? p1 : p2
                    for by in 0..<plane.blocksHigh {
                        for bx in 0..<plane.blocksWide {
                            guard reader.position < end else { return }  // corrupt: ran past the data
                            let sum = block(
                                &reader, predictor: &predictors[c], dc: plane.dc, ac: plane.ac,
                                weights: weights + plane.quant * 64, quarters: quarters)
                            let x = (mcuX * plane.blocksWide + bx) * pixelsPerBlock
                            let y = (mcuY * plane.blocksHigh + by) * pixelsPerBlock
                            let row = output + plane.offset + y * plane.stride + x
                            row[0] = pixel(sum[0])
                            if quarters {
                                row[1] = pixel(sum[1])
                                row[plane.stride] = pixel(sum[2])
                                row[plane.stride + 1] = pixel(sum[3])
                            }
                        }
                    }
                }
            }
        }
    }

    /// Decodes one block and returns its weighted coefficient sum (the output pixels minus 128).
    @inline(__always)
    private func block(
        _ reader: inout BitReader, predictor: inout Int32, dc: HuffmanTable.Tables, ac: HuffmanTable.Tables,
        weights: UnsafeMutablePointer<SIMD4<Float>>, quarters: Bool
    ) -> SIMD4<Float> {
        reader.refill()
        let dcSize = decodeSymbol(&reader, dc)
        if dcSize != 0 {
            let size = min(dcSize, 16)
            predictor &+= Int32(truncatingIfNeeded: HuffmanTable.extend(reader.peek(size), size: size))
            reader.consume(size)
        }
        var sum = weights[0] * Float(predictor)
        let fast = ac.fastAC
        do {
            var k = 1
            while k < 64 {
                reader.refill()
                let entry = fast[reader.peek(HuffmanTable.lookupBits)]
                if entry != 0 {
                    reader.consume(Int(entry & 0xFF))
                    k &+= Int((entry >> 8) & 0xFF)
                    if k >= 64 { break }
                    if quarters { sum += weights[k] * Float(entry >> 16) }
                    k &+= 1
                } else {
                    let symbol = decodeSymbol(&reader, ac)
                    let run = symbol >> 4, size = symbol & 15
                    if size == 0 {
                        if run != 15 { break }  // end of block
                        k &+= 16
                        continue
                    }
                    k &+= run
                    let value = HuffmanTable.extend(reader.peek(size), size: size)
                    reader.consume(size)
                    if k >= 64 { break }
                    if quarters { sum += weights[k] * Float(value) }
                    k &+= 1
                }
            }
        }
        return sum
    }

    /// Decodes and consumes one Huffman code; an invalid code yields symbol 0 after 16 bits.
    @inline(__always)
    private func decodeSymbol(_ reader: inout BitReader, _ table: HuffmanTable.Tables) -> Int {
        let entry = table.lookup[reader.peek(HuffmanTable.lookupBits)]
        if entry != 0 {
            reader.consume(Int(entry >> 8))
            return Int(entry & 0xFF)
        }
        let bits = reader.next16
        var length = HuffmanTable.lookupBits + 1
        while length <= 16 && bits >= table.limit[length] { length += 1 }
        guard length <= 16 else {
            reader.consume(16)
            return 0
        }
        reader.consume(length)
        let index = Int(table.delta[length]) + Int(bits >> UInt32(16 - length))
        return Int(table.symbols[index & 0xFF])
    }
}

/// A block sum (pixel − 128) as a byte, rounded and clamped.
@inline(__always)
private func pixel(_ sum: Float) -> UInt8 {
    UInt8(truncatingIfNeeded: Int32(max(0, min(255, sum + 128.5))))
}
