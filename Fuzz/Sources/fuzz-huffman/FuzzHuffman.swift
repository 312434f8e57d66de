// A DHT table body (16 code counts, then the symbols) built into `HuffmanTable`'s look-up tables,
// then the rest of the input decoded with it as entropy-coded data, as the scan decoder reads it.
import FuzzSupport
@testable import MJPEG

nonisolated(unsafe) let tables = [HuffmanTable(isDC: true), HuffmanTable(isDC: false)]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHuffman(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let table = tables[Int(input.byte() & 1)]
    let counts = input.take(16)
    // The symbols a DHT segment would hold; a count past what is left is the fuzzer's to find.
    let symbols = input.take(counts.reduce(0) { $0 + Int($1) })
    guard table.define(counts: counts, symbols: symbols) else { return 0 }
    // Defined twice: the second time is the "same table again" shortcut a camera's stream takes.
    precondition(table.define(counts: counts, symbols: symbols) && table.isDefined)
    let bits = input.bytes
    // The bit reader reads 8 bytes at a time; entropy data is zero-padded for it (EntropyData).
    let padded = UnsafeMutableRawPointer.allocate(byteCount: bits.count + 16, alignment: 8)
    defer { padded.deallocate() }
    padded.initializeMemory(as: UInt8.self, repeating: 0, count: bits.count + 16)
    if let base = bits.baseAddress { padded.copyMemory(from: base, byteCount: bits.count) }
    let start = UnsafePointer(padded.assumingMemoryBound(to: UInt8.self))
    var reader = BitReader(start)
    var sum = 0
    while reader.bitOffset(from: start) < 8 * bits.count {
        reader.refill()
        let symbol = table.tables.decodeSymbol(&reader)
        precondition((0..<256).contains(symbol))
        if table.isDC {
            sum &+= Int(table.tables.fastDC[reader.peek(HuffmanTable.lookupBits)])
        } else {
            sum &+= Int(truncatingIfNeeded: table.tables.pairs[reader.peek(HuffmanTable.lookupBits)])
        }
        // Extra bits of the value: at most 15 (DC 11, AC 10), read as the decoder does.
        let extra = symbol & 15
        if extra > 0 {
            sum &+= HuffmanTable.extend(reader.peek(extra), size: extra)
            reader.consume(extra)
        }
    }
    blackHole(sum)
    return 0
}
