// A concatenated JPEG stream as a file: `MJPEGSource` splits it into frames, and each frame is
// decoded for a small window (the reduced decoder, with libjpeg-turbo for what it does not handle).
import CameraSource
import FuzzSupport
import MJPEG

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let fd = memoryFile(holding: input.bytes)
    let decoder = JPEGDecoder(threads: 1)
    let source = MJPEGSource(fileDescriptor: fd, name: "fuzz.mjpeg", request: SourceRequest(paced: false))
    play(source) { frame in
        precondition(frame.format == .mjpeg && frame.byteCount > 0)
        do {
            touchRows(try decoder.decode(frame, minWidth: 1, minHeight: 1))
        } catch {
            precondition(error is JPEGError, "not a JPEGError: \(error)")
        }
    }
    return 0
}
