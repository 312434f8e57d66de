/// One JPEG Huffman table (ITU T.81 Annex C), prepared for the reduced decoder's hot loop.
///
/// Codes of up to `lookupBits` bits are found with one table look-up; longer ones by comparing
/// against the canonical code limits of each length. For AC tables, `fastAC` also folds in the
/// coefficient's extra bits when code and value fit the look-up width together, so most
/// coefficients cost one look-up and one shift.
final class HuffmanTable {
    static let lookupBits = 10
    private static let lookupSize = 1 << lookupBits

    /// The tables as raw pointers, for the decoding loop (no reference counting there).
    struct Tables {
        /// `length << 8 | symbol` for each `lookupBits`-bit prefix; 0 when the code is longer.
        let lookup: UnsafeMutablePointer<UInt16>
        /// `value << 16 | run << 8 | bits consumed` for each prefix whose code and extra bits both
        /// fit; run 64 marks end-of-block. 0 when the slow path is needed.
        let fastAC: UnsafeMutablePointer<Int32>
        /// For a code length L (11…16): first 16-bit left-aligned prefix that is not a code of
        /// length ≤ L.
        let limit: UnsafeMutablePointer<UInt32>
        /// For a code length L: the code `c` of that length is symbol `symbols[delta[L] + c]`.
        let delta: UnsafeMutablePointer<Int32>
        let symbols: UnsafeMutablePointer<UInt8>
    }

    let tables = Tables(
        lookup: .allocate(capacity: lookupSize), fastAC: .allocate(capacity: lookupSize),
        limit: .allocate(capacity: 18), delta: .allocate(capacity: 17), symbols: .allocate(capacity: 256))
    private(set) var isDefined = false
    /// The DHT bytes (16 counts + symbols) the table was built from, to skip identical rebuilds.
    private var source = [UInt8](repeating: 0, count: 16 + 256)
    private var sourceCount = 0

    init() {
        tables.lookup.initialize(repeating: 0, count: Self.lookupSize)
        tables.fastAC.initialize(repeating: 0, count: Self.lookupSize)
        tables.limit.initialize(repeating: UInt32.max, count: 18)
        tables.delta.initialize(repeating: 0, count: 17)
        tables.symbols.initialize(repeating: 0, count: 256)
    }

    deinit {
        tables.lookup.deallocate()
        tables.fastAC.deallocate()
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
        let lookup = tables.lookup, fastAC = tables.fastAC, limit = tables.limit, delta = tables.delta
        lookup.update(repeating: 0, count: Self.lookupSize)
        fastAC.update(repeating: 0, count: Self.lookupSize)
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
                        fastAC[prefix] = Self.fastEntry(prefix: prefix, length: length, symbol: symbol)
                    }
                }
                code += 1
                index += 1
            }
            limit[length] = UInt32(code) << (16 - length)
            code <<= 1
        }
        limit[17] = UInt32.max
        for i in 0..<16 { source[i] = counts[i] }
        for i in 0..<newSymbols.count { source[16 + i] = newSymbols[i] }
        sourceCount = total
        isDefined = true
        return true
    }

    private static func fastEntry(prefix: Int, length: Int, symbol: UInt8) -> Int32 {
        let run = Int32(symbol >> 4), size = Int(symbol & 15)
        if size == 0 {
            if run == 15 { return 15 << 8 | Int32(length) }  // sixteen zeros
            return 64 << 8 | Int32(length)  // end of block (other run/0 symbols are invalid: end too)
        }
        guard length + size <= lookupBits else { return 0 }
        let extra = (prefix >> (lookupBits - length - size)) & ((1 << size) - 1)
        let value = Int32(extend(extra, size: size))
        return value << 16 | run << 8 | Int32(length + size)
    }

    /// The signed value of `size` extra bits (T.81 F.2.2.1, EXTEND).
    @inline(__always)
    static func extend(_ bits: Int, size: Int) -> Int {
        bits < (1 << (size &- 1)) ? bits &- (1 << size) &+ 1 : bits
    }
}

private func memoryEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    for i in 0..<b.count where a.load(fromByteOffset: i, as: UInt8.self) != b[i] { return false }
    return true
}
