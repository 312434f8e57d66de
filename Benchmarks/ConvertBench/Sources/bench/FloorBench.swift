import Glibc

/// The memory floor of a conversion: reading the source's bytes once (summed 8 bytes at a time,
/// so the loads cannot be skipped) and writing the destination's once (memset). No conversion
/// can be cheaper than this on the same machine.
func benchFloor(sourceBytes: Int, destinationBytes: Int, name: String) {
    let source = UnsafeMutableRawPointer.allocate(byteCount: sourceBytes, alignment: 64)
    let destination = UnsafeMutableRawPointer.allocate(byteCount: destinationBytes, alignment: 64)
    memset(source, 1, sourceBytes)
    var sink: UInt64 = 0
    var times: [UInt64] = []
    let deadline = now() + 400_000_000
    while times.count < 30 || (now() < deadline && times.count < 2000) {
        let t0 = now()
        var sum: UInt64 = 0
        var i = 0
        while i + 8 <= sourceBytes {
            sum &+= source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        memset(destination, Int32(truncatingIfNeeded: sum), destinationBytes)
        times.append(now() - t0)
        sink &+= sum
    }
    report("floor (read \(sourceBytes / 1000) KB, write \(destinationBytes / 1000) KB) for \(name)", times: times,
        shownPixels: destinationBytes / 4, sourcePixels: destinationBytes / 4, mallocs: nil)
    if sink == 42 { print("") }
    source.deallocate()
    destination.deallocate()
}
