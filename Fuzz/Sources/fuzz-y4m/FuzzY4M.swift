// A YUV4MPEG2 stream as a file: the header line parser alone, then `Y4MSource` reading every frame.
@testable import CameraSource
import FuzzSupport
import Glibc

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzY4M(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let line = Array(input.bytes.prefix { $0 != 0x0A })
    do {
        let header = try Y4MHeader.parse(line)
        precondition(header.width > 0 && header.height > 0)
    } catch {
        expectOneLine(error.reason)
    }
    let fd = memoryFile(holding: input.bytes)
    play(Y4MSource(fileDescriptor: fd, name: "fuzz.y4m", request: SourceRequest(paced: false)), show: touchRows)
    return 0
}
