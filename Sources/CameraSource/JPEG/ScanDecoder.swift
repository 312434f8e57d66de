/// Where one block of an MCU goes: its tables, weights, predictor and output position.
struct BlockSlot {
    var dc: HuffmanTable.Tables, ac: HuffmanTable.Tables
    /// The component's quantization table's weights: `SIMD4<Float>` or `SIMD16<Float>` per position.
    var weights: UnsafeMutableRawPointer
    /// Index of the component's DC predictor.
    var component: Int
    /// Output offset of this block in the first MCU, and how far the next MCU across and down is.
    var offset: Int, stepX: Int, stepY: Int
    var stride: Int
}

/// The entropy-decoding loop of `ReducedJPEGDecoder`: walks the MCUs of one scan, decodes each
/// block's coefficients and writes the block's 1, 2×2 or 4×4 output pixels. One flat loop over the
/// MCU's blocks, so the bit reader stays in registers.
struct ScanDecoder {
    let entropy: EntropyData
    let slots: UnsafeMutablePointer<BlockSlot>
    let slotCount: Int
    /// One DC predictor per component.
    let predictors: UnsafeMutablePointer<Int32>
    let restartInterval: Int
    let mcusX: Int, mcusY: Int
    let output: UnsafeMutablePointer<UInt8>

    /// Decodes the scan into `side`×`side` means per block (1, 2 or 4).
    func run(side: Int) {
        switch side {
        case 1: scan(SIMD4<Float>.self, side: 1, coefficients: false)
        case 2: scan(SIMD4<Float>.self, side: 2, coefficients: true)
        default: scan(SIMD16<Float>.self, side: 4, coefficients: true)
        }
    }

    /// `coefficients`: whether AC coefficients count (not for block means, which are the DC alone).
    @inline(__always)
    private func scan<Sum: SIMD>(_: Sum.Type, side: Int, coefficients: Bool) where Sum.Scalar == Float {
        let start = UnsafePointer(entropy.bytes)
        // Checked once per MCU: valid data never reads past this; corrupt data is caught within
        // the MCU that ran out, inside the padding.
        let end = start + entropy.count + 16
        var reader = BitReader(start)
        predictors.update(repeating: 0, count: 4)
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
                    predictors.update(repeating: 0, count: 4)
                }
                mcu += 1
                for s in 0..<slotCount {
                    let slot = slots[s]
                    let sum = block(
                        Sum.self, &reader, predictor: &predictors[slot.component], dc: slot.dc, ac: slot.ac,
                        weights: UnsafeRawPointer(slot.weights), coefficients: coefficients)
                    var row = output + slot.offset + mcuX * slot.stepX + mcuY * slot.stepY
                    if side == 2 {  // written out: the general loop costs 4 % at this, the common scale
                        row[0] = pixel(sum[0])
                        row[1] = pixel(sum[1])
                        row[slot.stride] = pixel(sum[2])
                        row[slot.stride + 1] = pixel(sum[3])
                    } else {
                        for y in 0..<side {
                            for x in 0..<side { row[x] = pixel(sum[y * side + x]) }
                            row += slot.stride
                        }
                    }
                }
                guard reader.position < end else { return }  // corrupt: ran past the data
            }
        }
    }

    /// Decodes one block and returns its weighted coefficient sum (the output pixels minus 128).
    @inline(__always)
    private func block<Sum: SIMD>(
        _: Sum.Type, _ reader: inout BitReader, predictor: inout Int32, dc: HuffmanTable.Tables, ac: HuffmanTable.Tables,
        weights: UnsafeRawPointer, coefficients: Bool
    ) -> Sum where Sum.Scalar == Float {
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
        // Raw loads: the weights are written as Floats, read as vectors of them.
        @inline(__always) func weight(_ k: Int) -> Sum { weights.load(fromByteOffset: k &* MemoryLayout<Sum>.stride, as: Sum.self) }
        var sum = weight(0) * Float(predictor)
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
                    if first == 63 && coefficients { sum += weight(63) * firstValue }
                    break
                }
                reader.consume(Int(entry & 0xFF))
                let second = first &+ 1 &+ Int((entry >> 24) & 0x7F)
                if coefficients {
                    // Weights past 63 are zero, so an end-of-block second code adds nothing.
                    sum += weight(first) * firstValue
                    sum += weight(second) * Float(Int16(truncatingIfNeeded: entry >> 48))
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
                if coefficients { sum += weight(k) * Float(value) }
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
