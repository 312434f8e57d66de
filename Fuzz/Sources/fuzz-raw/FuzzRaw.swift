// Headerless frames: the size, format and rate come from the first bytes (as `raw:` would give
// them), the rest is the file `RawSource` reads.
import CameraSource
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRaw(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    // Small sizes, so that a few hundred bytes hold several frames; 0 and odd sides included.
    let width = Int(input.byte() % 40), height = Int(input.byte() % 40)
    let format = SourceSpec.rawFormats[Int(input.byte()) % SourceSpec.rawFormats.count]
    let fps = [30, 0.001, 1000, 0.5][Int(input.byte()) % 4]
    let fd = memoryFile(holding: input.bytes)
    play(
        RawSource(fileDescriptor: fd, name: "fuzz.raw", width: width, height: height, format: format, fps: fps,
                  request: SourceRequest(paced: false)),
        show: touchRows)
    return 0
}
