// JPEG headers: the reduced decoder's own parser (`JPEGHeader`) and libjpeg-turbo's, through
// `JPEGDecoder.header(of:)` as MJPEGSource uses it.
import FuzzSupport
@testable import MJPEG

nonisolated(unsafe) let header = JPEGHeader()
nonisolated(unsafe) let turbo = JPEGDecoder(reducedDecoding: false, threads: 1)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGHeader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = FuzzInput(data, size).bytes
    if header.parse(bytes) {
        precondition(header.width > 0 && header.height > 0, "parsed size \(header.width)x\(header.height)")
        precondition([1, 3].contains(header.components.count), "\(header.components.count) components")
        precondition(header.scanOffset <= bytes.count, "scan at \(header.scanOffset) of \(bytes.count)")
        for c in header.components {
            precondition((1...4).contains(c.horizontal) && (1...4).contains(c.vertical), "sampling \(c)")
            precondition((0..<4).contains(c.quantTable) && (0..<4).contains(c.dcTable) && (0..<4).contains(c.acTable), "\(c)")
            precondition(header.dc[c.dcTable].isDefined && header.ac[c.acTable].isDefined, "scan uses an undefined table")
        }
    }
    do {
        let size = try turbo.header(of: bytes)
        precondition(size.width > 0 && size.height > 0)
    } catch {
        precondition(error is JPEGError, "not a JPEGError: \(error)")
        expectOneLine(error)
    }
    return 0
}
