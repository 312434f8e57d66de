/// The second half of the split decode: turns `BlockRecords` into pixels. Walks blocks in
/// picture order, keeps each component's DC predictor, adds the DC part to each block's value and
/// writes the block's 1, 2×2, 4×4 or 8×8 pixels where its MCU and slot put them.
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
        case 1: run(BlockMean.self, records: records, first: first, blocks: blocks, predictors: predictors)
        case 2: run(QuarterMeans.self, records: records, first: first, blocks: blocks, predictors: predictors)
        case 4: run(HalfMeans.self, records: records, first: first, blocks: blocks, predictors: predictors)
        default: run(FullBlock.self, records: records, first: first, blocks: blocks, predictors: predictors)
        }
    }

    @inline(__always)
    private func run<Kind: BlockKind>(
        _: Kind.Type, records: BlockRecords, first: Int, blocks: Range<Int>, predictors: UnsafeMutablePointer<Int32>
    ) {
        guard !blocks.isEmpty else { return }
        let sums = records.sums + (first &- blocks.lowerBound) &* records.sumStride, stride = records.sumStride
        let differences = records.differences + (first &- blocks.lowerBound)
        let mcu = blocks.lowerBound / slotCount
        var s = blocks.lowerBound % slotCount, mcuX = mcu % mcusX, mcuY = mcu / mcusX
        for b in blocks {
            let slot = slots[s]
            predictors[slot.component] &+= differences[b]
            Kind.write(
                sums.load(fromByteOffset: b &* stride, as: Kind.Value.self), slot: slot, predictor: predictors[slot.component],
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
