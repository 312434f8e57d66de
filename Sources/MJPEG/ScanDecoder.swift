/// The entropy-decoding loop of `ReducedJPEGDecoder`: walks the MCUs of one scan, decodes each
/// block's coefficients and writes the block's 1, 2×2, 4×4 or 8×8 output pixels (`BlockKind`).
/// One flat loop over the MCU's blocks, so the bit reader stays in registers.
///
/// Two more ways to run it split one scan between two threads (`SplitScan`): `record` parses from
/// a byte in the middle without knowing which block it is at, keeping per block what does not
/// depend on the blocks before (`BlockRecords`); `run(side:watching:)` decodes from the start and
/// stops at the first block where the recording parser was at the same bit in the same slot — from
/// there on both parse alike, so the records hold the rest of the picture. A scan with restart
/// intervals needs none of that: each interval starts at a known byte with fresh predictors, so
/// `run(side:intervals:)` decodes any run of them by itself.
struct ScanDecoder {
    let entropy: EntropyData
    let slots: UnsafeMutablePointer<BlockSlot>
    let slotCount: Int
    /// One DC predictor per component; a second thread decoding other restart intervals has its own.
    var predictors: UnsafeMutablePointer<Int32>
    let restartInterval: Int
    let mcusX: Int, mcusY: Int
    let output: UnsafeMutablePointer<UInt8>
    /// Told of each MCU row decoded from the start of the scan (not on resumed runs).
    var rowReport: RowReport? = nil

    /// Valid data never reads past this bit; corrupt data ends at the first MCU that does.
    var endBit: Int { (entropy.count + 16) * 8 }

    /// Decodes the scan into `side`×`side` pixels per block: means at 1, 2 or 4, the block itself at 8.
    func run(side: Int) {
        _ = run(side: side, watching: NoWatch())
    }

    /// Decodes the MCUs of restart intervals `intervals` (interval `i` starts at MCU
    /// `i·restartInterval`; the last may be past the end), writing their pixels; rows are reported
    /// only when the run starts at interval 0.
    func run(side: Int, intervals: Range<Int>) {
        precondition(restartInterval > 0 && intervals.lowerBound <= entropy.restartCount, "intervals need restart markers")
        _ = run(side: side, intervals: intervals, watching: NoWatch())
    }

    /// Decodes the scan until a block where `watch` finds the recording parser; returns where the
    /// two met (this block is then not decoded), or nil when the rest of the scan was decoded here.
    /// Starts at the beginning, or at `resume` — a block and the bit it starts at, with `predictors`
    /// as they are before it (no restart intervals).
    func run(side: Int, from resume: ScanPosition? = nil, watching watch: SpliceWatch) -> Splice? {
        run(side: side, from: resume, watching: watch as SpliceWatch?)
    }

    private func run<Watch: BlockWatch>(
        side: Int, from resume: ScanPosition? = nil, intervals: Range<Int>? = nil, watching watch: Watch?
    ) -> Splice? {
        switch side {
        case 1: return scan(BlockMean.self, from: resume, intervals: intervals, watch: watch)
        case 2: return scan(QuarterMeans.self, from: resume, intervals: intervals, watch: watch)
        case 4: return scan(HalfMeans.self, from: resume, intervals: intervals, watch: watch)
        default: return scan(FullBlock.self, from: resume, intervals: intervals, watch: watch)
        }
    }

    /// Parses from byte `byte` of the entropy data as if a block of slot 0 started there, writing
    /// each block's AC sums, DC difference and start into `records` until the data ends or the
    /// records are full, publishing the count in `progress` as it goes; stops early when `progress`
    /// is set. Returns the number of blocks recorded. No restart intervals.
    func record(side: Int, from byte: Int, into records: BlockRecords, progress: SplitProgress) -> Int {
        switch side {
        case 1: return record(BlockMean.self, from: byte, into: records, progress: progress)
        case 2: return record(QuarterMeans.self, from: byte, into: records, progress: progress)
        case 4: return record(HalfMeans.self, from: byte, into: records, progress: progress)
        default: return record(FullBlock.self, from: byte, into: records, progress: progress)
        }
    }

    @inline(__always)
    private func scan<Kind: BlockKind, Watch: BlockWatch>(
        _: Kind.Type, from resume: ScanPosition?, intervals: Range<Int>?, watch: Watch?
    ) -> Splice? {
        let start = UnsafePointer(entropy.bytes)
        let endBit = endBit
        var reader = BitReader(start)
        var mcu = 0, firstSlot = 0
        if let resume {
            precondition(restartInterval == 0, "resuming needs a scan without restart intervals")
            reader = BitReader(start + (resume.bit >> 3))
            reader.refill()
            reader.consume(resume.bit & 7)
            mcu = resume.block / slotCount
            firstSlot = resume.block % slotCount
        } else {
            predictors.update(repeating: 0, count: 4)
        }
        var nextRestart = 0, endMCU = Int.max
        if let intervals {
            // The loop's restart check moves the reader to the first interval's marker.
            mcu = intervals.lowerBound * restartInterval
            nextRestart = max(intervals.lowerBound - 1, 0)
            endMCU = intervals.upperBound * restartInterval
        }
        let firstX = mcu % mcusX, firstY = mcu / mcusX
        // Plain values in the loop: reading the optional watch would retain its records per MCU.
        var watch = watch, watching = false
        let watchStart = watch?.startBit ?? Int.max
        // Out of the optional watch once, not per MCU (which would retain and release it).
        let progress = watch?.report
        let rows = resume == nil && mcu == 0 ? rowReport : nil
        for mcuY in firstY..<mcusY {
            for mcuX in (mcuY == firstY ? firstX : 0)..<mcusX {
                if mcu == endMCU { return nil }
                if restartInterval > 0 && mcu > 0 && mcu % restartInterval == 0 {
                    // Each interval starts byte-aligned with fresh predictors; a missing marker ends
                    // the picture (the rest keeps what the previous frame left there).
                    guard nextRestart < entropy.restartCount else { return nil }
                    reader = BitReader(start + entropy.restarts[nextRestart])
                    nextRestart += 1
                    predictors.update(repeating: 0, count: 4)
                }
                for s in firstSlot..<slotCount {
                    if Watch.isActive && watching, let record = watch!.match(bitOffset: reader.bitOffset(from: start), slot: s) {
                        return Splice(block: mcu * slotCount + s, record: record)
                    }
                    let slot = slots[s]
                    let value = Kind.decode(&reader, predictor: &predictors[slot.component], slot: slot)
                    Kind.write(
                        value, slot: slot, predictor: predictors[slot.component],
                        to: output + slot.offset + mcuX * slot.stepX + mcuY * slot.stepY)
                }
                mcu += 1
                firstSlot = 0
                let bit = reader.bitOffset(from: start)
                guard bit < endBit else { return nil }  // corrupt: ran past the data
                if Watch.isActive {
                    if mcu & 63 == 0 { progress?.noteFirstThread(at: bit) }
                    if !watching && bit >= watchStart { watching = true }
                    if watching && watch!.isHopeless { watching = false; watch = nil }
                }
            }
            rows?.mcuRowsDone(mcuY + 1)
        }
        return nil
    }

    @inline(__always)
    private func record<Kind: BlockKind>(
        _: Kind.Type, from byte: Int, into records: BlockRecords, progress: SplitProgress
    ) -> Int {
        let start = UnsafePointer(entropy.bytes)
        let endBit = endBit, capacity = records.capacity
        let sums = records.sums, stride = records.sumStride, differences = records.differences, starts = records.starts
        var reader = BitReader(start + byte)
        var s = 0, count = 0
        while count < capacity {
            if s == 0 {
                // The same end as `scan`'s, once the two parse alike: after a whole MCU.
                if reader.bitOffset(from: start) >= endBit { break }
                if count & 63 == 0 {
                    progress.publish(count)
                    if progress.isCancelled { break }
                }
            }
            starts[count] = Int64(reader.bitOffset(from: start)) << 8 | Int64(s)
            let slot = slots[s]
            var difference: Int32 = 0
            let value = Kind.decode(&reader, predictor: &difference, slot: slot)
            (sums + count &* stride).storeBytes(of: value, as: Kind.Value.self)
            differences[count] = difference
            count += 1
            s = s + 1 == slotCount ? 0 : s + 1
        }
        progress.publish(count)
        return count
    }
}

/// The Huffman decoding of one block (T.81 F.2.2), shared by every `BlockKind`.
enum HuffmanBlock {
    /// Decodes one block, adds its DC difference to `predictor` and hands each AC coefficient to `sink`.
    // Transparent, not `@inline(__always)`: called from six specialisations, the optimiser kept it
    // out of line as a function taking the bit reader through memory, which was slower
    // (docs/PERFORMANCE.md, "The Huffman decoding loop").
    @_transparent
    static func decode<Sink: CoefficientSink>(
        _ reader: inout BitReader, predictor: inout Int32, dc: HuffmanTable.Tables, ac: HuffmanTable.Tables, into sink: inout Sink
    ) {
        // A refill leaves at least 56 bits and a fast look-up (DC or AC) takes at most
        // `lookupBits` (10), so five share one refill: its shifts leave the chain of dependent
        // look-ups. `fastLeft` counts the look-ups the bits still cover.
        reader.refill()
        var fastLeft = 4
        let dcEntry = dc.fastDC[reader.peek(HuffmanTable.lookupBits)]
        if dcEntry != 0 {
            reader.consume(Int(dcEntry & 0xFF))
            predictor &+= dcEntry >> 16
        } else {
            fastLeft = 0
            let size = min(dc.decodeSymbol(&reader), 16)
            if size != 0 {
                predictor &+= Int32(truncatingIfNeeded: HuffmanTable.extend(reader.peek(size), size: size))
                reader.consume(size)
            }
        }
        var k = 1
        while k < 64 {
            if fastLeft == 0 {
                reader.refill()
                fastLeft = 5
            }
            fastLeft &-= 1
            let entry = ac.pairs[reader.peek(HuffmanTable.lookupBits)]
            if entry != 0 {
                let first = k &+ Int((entry >> 16) & 0xFF)
                let firstValue = Int32(Int16(truncatingIfNeeded: entry >> 32))
                if first >= 63 {
                    // End of block, or its last coefficient: a second code belongs to the next block.
                    reader.consume(Int((entry >> 8) & 0xFF))
                    if first == 63 { sink.add(63, firstValue) }
                    break
                }
                reader.consume(Int(entry & 0xFF))
                let second = first &+ 1 &+ Int((entry >> 24) & 0x7F)
                // An end-of-block second code comes as a position past 63, which the sink ignores.
                sink.add(first, firstValue)
                sink.add(second, Int32(Int16(truncatingIfNeeded: entry >> 48)))
                k = second &+ Int((entry >> 31) & 1)
            } else {
                // A long code: up to 16 code bits and 15 value bits, more than a fast look-up
                // leaves; what is left after it may not cover the next look-up, which refills.
                reader.refill()
                fastLeft = 0
                let symbol = ac.decodeSymbol(&reader)
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
                sink.add(k, Int32(truncatingIfNeeded: value))
                k &+= 1
            }
        }
    }
}
