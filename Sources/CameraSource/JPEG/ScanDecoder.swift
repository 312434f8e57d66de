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
        // Checked once per MCU: valid data never reads past this; corrupt data is caught within
        // the MCU that ran out, inside the padding.
        let end = start + entropy.count + 16
        var reader = BitReader(start)
        // Separate scalars: one lane of a vector written through inout stalls on every block.
        var predictors: (Int32, Int32, Int32) = (0, 0, 0)
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
                    predictors = (0, 0, 0)
                }
                mcu += 1
                blocks(p0, &reader, predictor: &predictors.0, mcuX: mcuX, mcuY: mcuY, quarters: quarters)
                if components == 3 {
                    blocks(p1, &reader, predictor: &predictors.1, mcuX: mcuX, mcuY: mcuY, quarters: quarters)
                    blocks(p2, &reader, predictor: &predictors.2, mcuX: mcuX, mcuY: mcuY, quarters: quarters)
                }
                guard reader.position < end else { return }  // corrupt: ran past the data
            }
        }
    }

    /// One component's blocks of an MCU, decoded and written.
    @inline(__always)
    private func blocks(
        _ plane: Plane, _ reader: inout BitReader, predictor: inout Int32, mcuX: Int, mcuY: Int, quarters: Bool
    ) {
        for by in 0..<plane.blocksHigh {
            for bx in 0..<plane.blocksWide {
                let sum = block(
                    &reader, predictor: &predictor, dc: plane.dc, ac: plane.ac,
                    weights: weights + plane.quant * ReducedJPEGDecoder.weightsPerTable, quarters: quarters)
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

    /// Decodes one block and returns its weighted coefficient sum (the output pixels minus 128).
    @inline(__always)
    private func block(
        _ reader: inout BitReader, predictor: inout Int32, dc: HuffmanTable.Tables, ac: HuffmanTable.Tables,
        weights: UnsafeMutablePointer<SIMD4<Float>>, quarters: Bool
    ) -> SIMD4<Float> {
        reader.refill()
        let dcEntry = dc.fastDC[reader.peek(HuffmanTable.lookupBits)]
        if dcEntry != 0 {
            reader.consume(Int(dcEntry & 0xFF))
            predictor &+= dcEntry >> 16
        } else {
            let size = min(decodeSymbol(&reader, dc), 16)
            if size != 0 {
                predictor &+= Int32(truncatingIfNeeded: HuffmanTable.extend(reader.peek(size), size: size))
                reader.consume(size)
            }
        }
        var sum = weights[0] * Float(predictor)
        var k = 1
        while k < 64 {
            reader.refill()
            let entry = ac.pairs[reader.peek(HuffmanTable.lookupBits)]
            if entry != 0 {
                let first = k &+ Int((entry >> 16) & 0xFF)
                let firstValue = Float(Int16(truncatingIfNeeded: entry >> 32))
                if first >= 63 {
                    // End of block, or its last coefficient: a second code belongs to the next block.
                    reader.consume(Int((entry >> 8) & 0xFF))
                    if first == 63 && quarters { sum += weights[63] * firstValue }
                    break
                }
                reader.consume(Int(entry & 0xFF))
                let second = first &+ 1 &+ Int((entry >> 24) & 0x7F)
                if quarters {
                    // Weights past 63 are zero, so an end-of-block second code adds nothing.
                    sum += weights[first] * firstValue
                    sum += weights[second] * Float(Int16(truncatingIfNeeded: entry >> 48))
                }
                k = second &+ Int((entry >> 31) & 1)
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
