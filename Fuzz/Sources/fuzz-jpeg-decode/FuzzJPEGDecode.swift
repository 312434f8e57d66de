// One JPEG decoded the way the window decodes a camera's frame (`JPEGDecoder.decode`): the first
// byte picks the scale — 1/8, 1/4, 1/2 or full size, through pipcam's own decoder
// (`ReducedJPEGDecoder`, `ScanDecoder`, `FullBlock`) when it handles the stream, else through
// libjpeg-turbo — whether libjpeg-turbo decodes every picture, and whether pipcam's decoder may
// split a large scan over two threads (`SplitScan`); the rest is the JPEG.
import FuzzSupport
import MJPEG
import PipCore

/// The two-thread decoder keeps its second thread from one input to the next, as a stream does.
nonisolated(unsafe) let splitting = JPEGDecoder(threads: 2)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let choice = input.byte()
    let jpeg = input.bytes
    guard let base = jpeg.baseAddress, !jpeg.isEmpty else { return 0 }
    let decoder = choice & 8 != 0 ? splitting : JPEGDecoder(reducedDecoding: choice & 4 == 0, threads: 1)
    guard let picture = try? decoder.header(of: jpeg) else { return 0 }
    let denominator = [8, 4, 2, 1][Int(choice & 3)]
    let minWidth = (picture.width + denominator - 1) / denominator
    let minHeight = (picture.height + denominator - 1) / denominator
    let frame = VideoFrame(
        packed: .mjpeg, width: picture.width, height: picture.height, base: base, byteCount: jpeg.count,
        colorimetry: .jpeg, timestamp: .now(), sequence: 0, bufferIndex: 0)
    do {
        let decoded = try decoder.decode(frame, minWidth: minWidth, minHeight: minHeight)
        precondition(decoded.width >= minWidth && decoded.height >= minHeight, "decoded \(decoded.width)x\(decoded.height)")
        touchRows(decoded)
    } catch {
        precondition(error is JPEGError, "not a JPEGError: \(error)")
        expectOneLine(error)
    }
    return 0
}
