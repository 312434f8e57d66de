/// One JPEG Huffman table (ITU T.81 Annex C), prepared for the reduced decoder's hot loop.
///
/// Codes of up to `lookupBits` bits are found with one table look-up; longer ones by comparing
/// against the canonical code limits of each length. `fastDC` and `pairs` also fold in the extra
/// bits of the value when code and value fit the look-up width together, and `pairs` holds a second
/// AC coefficient when that fits too: the decoding loop is a chain of dependent look-ups, and each
/// one usually moves one or two coefficients.
final class HuffmanTable {
    static let lookupBits = 10
    private static let lookupSize = 1 << lookupBits

    /// The tables as raw pointers, for the decoding loop (no reference counting there).
    struct Tables {
        /// `length << 8 | symbol` for each `lookupBits`-bit prefix; 0 when the code is longer.
        let lookup: UnsafeMutablePointer<UInt16>
        /// DC: `difference << 16 | bits consumed` for each prefix whose code and extra bits both
        /// fit; 0 when the slow path is needed.
        let fastDC: UnsafeMutablePointer<Int32>
        /// AC: one or two coefficients for each prefix (see `PairEntry`); 0 when the first code and
        /// its extra bits do not fit (the slow path).
        let pairs: UnsafeMutablePointer<UInt64>
        /// AC, while `pairs` is built: one coefficient for each prefix (see `SingleEntry`).
        let singles: UnsafeMutablePointer<UInt32>
        /// For a code length L (11…16): first 16-bit left-aligned prefix that is not a code of
        /// length ≤ L.
        let limit: UnsafeMutablePointer<UInt32>
        /// For a code length L: the code `c` of that length is symbol `symbols[delta[L] + c]`.
        let delta: UnsafeMutablePointer<Int32>
        let symbols: UnsafeMutablePointer<UInt8>
    }

    let tables = Tables(
        lookup: .allocate(capacity: lookupSize), fastDC: .allocate(capacity: lookupSize),
        pairs: .allocate(capacity: lookupSize), singles: .allocate(capacity: lookupSize),
        limit: .allocate(capacity: 18), delta: .allocate(capacity: 17), symbols: .allocate(capacity: 256))
    private(set) var isDefined = false
    /// The DHT bytes (16 counts + symbols) the table was built from, to skip identical rebuilds.
    private var source = [UInt8](repeating: 0, count: 16 + 256)
    private var sourceCount = 0
    /// A DC table fills only `fastDC`, an AC table only `pairs`: the scan reads no other, and a
    /// camera that optimises its tables per frame has all four rebuilt for every picture.
    let isDC: Bool

    /// An empty table of class DC (`isDC`) or AC.
    init(isDC: Bool) {
        self.isDC = isDC
        tables.lookup.initialize(repeating: 0, count: Self.lookupSize)
        tables.fastDC.initialize(repeating: 0, count: Self.lookupSize)
        tables.pairs.initialize(repeating: 0, count: Self.lookupSize)
        tables.singles.initialize(repeating: 0, count: Self.lookupSize)
        tables.limit.initialize(repeating: UInt32.max, count: 18)
        tables.delta.initialize(repeating: 0, count: 17)
        tables.symbols.initialize(repeating: 0, count: 256)
    }

    deinit {
        tables.lookup.deallocate()
        tables.fastDC.deallocate()
        tables.pairs.deallocate()
        tables.singles.deallocate()
        tables.limit.deallocate()
        tables.delta.deallocate()
        tables.symbols.deallocate()
    }

    /// Builds the table from a DHT entry: 16 code counts followed by the symbols. Returns false
    /// for a table that is not a valid prefix code.
    func define(counts: UnsafeRawBufferPointer, symbols newSymbols: UnsafeRawBufferPointer) -> Bool {
        let total = counts.count + newSymbols.count
        if isDefined && total == sourceCount
            && source.withUnsafeBytes({ s in
                memoryEqual(s.baseAddress!, counts) && memoryEqual(s.baseAddress! + 16, newSymbols)
            })
        {
            return true
        }
        isDefined = false
        guard counts.count == 16, newSymbols.count <= 256 else { return false }
        var code = 0, index = 0
        let lookup = tables.lookup, limit = tables.limit, delta = tables.delta
        lookup.update(repeating: 0, count: Self.lookupSize)
        for length in 1...16 {
            let n = Int(counts[length - 1])
            delta[length] = Int32(index - code)
            for _ in 0..<n {
                guard index < newSymbols.count, code < (1 << length) else { return false }
                let symbol = newSymbols[index]
                tables.symbols[index] = symbol
                if length <= Self.lookupBits {
                    let shift = Self.lookupBits - length
                    for prefix in (code << shift)..<((code + 1) << shift) {
                        lookup[prefix] = UInt16(length << 8) | UInt16(symbol)
                    }
                }
                code += 1
                index += 1
            }
            limit[length] = UInt32(code) << (16 - length)
            code <<= 1
        }
        limit[17] = UInt32.max
        if isDC {
            for prefix in 0..<Self.lookupSize { tables.fastDC[prefix] = dcEntry(prefix) }
        } else {
            // Each prefix's first coefficient, then the pairs from two of them: a camera (or ffmpeg)
            // that optimises its tables per picture has this rebuilt on every frame.
            for prefix in 0..<Self.lookupSize { tables.singles[prefix] = singleEntry(prefix) }
            for prefix in 0..<Self.lookupSize { tables.pairs[prefix] = pairEntry(prefix) }
        }
        for i in 0..<16 { source[i] = counts[i] }
        for i in 0..<newSymbols.count { source[16 + i] = newSymbols[i] }
        sourceCount = total
        isDefined = true
        return true
    }

    private func dcEntry(_ prefix: Int) -> Int32 {
        let e = Int(tables.lookup[prefix])
        let length = e >> 8, size = e & 15
        guard length > 0, length + size <= Self.lookupBits else { return 0 }
        let value = size == 0 ? 0 : Self.extend((prefix >> (Self.lookupBits - length - size)) & ((1 << size) - 1), size: size)
        return Int32(value) << 16 | Int32(length + size)
    }

    /// The AC code and its value at the start of a `lookupBits`-wide prefix (`SingleEntry`).
    private func singleEntry(_ prefix: Int) -> UInt32 {
        let e = Int(tables.lookup[prefix])
        let length = e >> 8, run = (e >> 4) & 15, size = e & 15
        guard length > 0 else { return 0 }
        if size == 0 { return SingleEntry(bits: length, run: run == 15 ? 15 : 64, value: 0).packed }  // 16 zeros; other run/0 codes end the block
        guard length + size <= Self.lookupBits else { return 0 }
        let extra = (prefix >> (Self.lookupBits - length - size)) & ((1 << size) - 1)
        return SingleEntry(bits: length + size, run: run, value: Self.extend(extra, size: size)).packed
    }

    /// The prefix's first coefficient and, when the bits it leaves hold a whole one, the second:
    /// the single entry of those bits shifted to the front, if it reads no further than they go
    /// (what lies beyond them is zeros here, not the stream's next bits).
    private func pairEntry(_ prefix: Int) -> UInt64 {
        let packedFirst = tables.singles[prefix]
        guard packedFirst != 0 else { return 0 }
        let first = SingleEntry(packedFirst)
        var entry = PairEntry(bits: first.bits, firstBits: first.bits, firstRun: first.run, firstValue: first.value)
        if first.run < 64 {
            let second = SingleEntry(tables.singles[(prefix << first.bits) & (Self.lookupSize - 1)])
            if second.bits > 0 && second.bits <= Self.lookupBits - first.bits {
                entry.bits += second.bits
                entry.secondRun = second.run
                entry.secondValue = second.value
                entry.hasSecond = true
            }
        }
        return entry.packed
    }

    /// The signed value of `size` extra bits (T.81 F.2.2.1, EXTEND).
    @inline(__always)
    static func extend(_ bits: Int, size: Int) -> Int {
        bits < (1 << (size &- 1)) ? bits &- (1 << size) &+ 1 : bits
    }
}

extension HuffmanTable.Tables {
    /// Decodes and consumes one Huffman code; an invalid code yields symbol 0 after 16 bits.
    @inline(__always)
    func decodeSymbol(_ reader: inout BitReader) -> Int {
        let entry = lookup[reader.peek(HuffmanTable.lookupBits)]
        if entry != 0 {
            reader.consume(Int(entry >> 8))
            return Int(entry & 0xFF)
        }
        let bits = reader.next16
        var length = HuffmanTable.lookupBits + 1
        while length <= 16 && bits >= limit[length] { length += 1 }
        guard length <= 16 else {
            reader.consume(16)
            return 0
        }
        reader.consume(length)
        let index = Int(delta[length]) + Int(bits >> UInt32(16 - length))
        return Int(symbols[index & 0xFF])
    }
}

private func memoryEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    for i in 0..<b.count where a.load(fromByteOffset: i, as: UInt8.self) != b[i] { return false }
    return true
}

/// One AC coefficient read from the front of a look-up prefix, packed into 32 bits (0: the code and
/// its value do not fit): bits 0–7 the bits consumed, 8–15 the run of zeros (64: end of block),
/// 16–31 the value.
struct SingleEntry {
    var bits: Int, run: Int, value: Int

    init(bits: Int, run: Int, value: Int) {
        self.bits = bits
        self.run = run
        self.value = value
    }

    init(_ packed: UInt32) {
        bits = Int(packed & 0xFF)
        run = Int((packed >> 8) & 0xFF)
        value = Int(Int16(truncatingIfNeeded: packed >> 16))
    }

    var packed: UInt32 { UInt32(bits) | UInt32(run) << 8 | UInt32(UInt16(truncatingIfNeeded: value)) << 16 }
}

/// What one `pairs` entry holds, packed into 64 bits: bits 0–7 all bits consumed, 8–15 the first
/// coefficient's bits, 16–23 its run of zeros (64: end of block), 24–30 the second's run, 31 whether
/// there is a second, 32–47 and 48–63 the two values.
struct PairEntry {
    var bits: Int, firstBits: Int, firstRun: Int, firstValue: Int
    var secondRun = 0, secondValue = 0, hasSecond = false

    var packed: UInt64 {
        UInt64(bits) | UInt64(firstBits) << 8 | UInt64(firstRun) << 16 | UInt64(secondRun) << 24
            | (hasSecond ? 1 << 31 : 0) | UInt64(UInt16(truncatingIfNeeded: firstValue)) << 32
            | UInt64(UInt16(truncatingIfNeeded: secondValue)) << 48
    }
}
