/// The second half of the reduced decoder: turns `BlockRecords` into pixels. Walks blocks in
/// picture order, keeps each component's DC predictor, adds the DC part to each block's AC sum and
/// writes the block's 1, 2×2 or 4×4 pixels where its MCU and slot put them.
struct BlockAssembler {
    let slots: UnsafePointer<BlockSlot>
    let slotCount: Int
    let mcusX: Int
    let output: UnsafeMutablePointer<UInt8>

    /// Writes blocks `blocks` of the picture, whose records start at `records`' index `first`,
    /// with `predictors` (one per component) as they were before `blocks.lowerBound`; leaves them
    /// as they are after.
    func assemble(
        side: Int, records: BlockRecords, first: Int, blocks: Range<Int>, predictors: UnsafeMutablePointer<Int32>
    ) {
        switch side {
        case 1, 2: run(SIMD4<Float>.self, side: side, records: records, first: first, blocks: blocks, predictors: predictors)
        default: run(SIMD16<Float>.self, side: 4, records: records, first: first, blocks: blocks, predictors: predictors)
        }
    }

    @inline(__always)
    private func run<Sum: SIMD>(
        _: Sum.Type, side: Int, records: BlockRecords, first: Int, blocks: Range<Int>, predictors: UnsafeMutablePointer<Int32>
    ) where Sum.Scalar == Float {
        guard !blocks.isEmpty else { return }
        let sums = records.sums + (first &- blocks.lowerBound) &* records.sumStride, stride = records.sumStride
        let differences = records.differences + (first &- blocks.lowerBound)
        let mcu = blocks.lowerBound / slotCount
        var s = blocks.lowerBound % slotCount, mcuX = mcu % mcusX, mcuY = mcu / mcusX
        for b in blocks {
            let slot = slots[s]
            predictors[slot.component] &+= differences[b]
            slot.write(
                sums.load(fromByteOffset: b &* stride, as: Sum.self), predictor: predictors[slot.component], side: side,
                to: output + slot.offset + mcuX &* slot.stepX + mcuY &* slot.stepY)
            s &+= 1
            if s == slotCount {
                s = 0
                mcuX &+= 1
                if mcuX == mcusX {
                    mcuX = 0
                    mcuY &+= 1
                }
            }
        }
    }
}
