// pipcam's own files: the config file (`ConfigFile`, with the options pipcam's command line lets
// it set) and the remembered PiP geometry (`GeometryMemory`), both from the same text.
import FuzzSupport
import PipWindow
import PipcamApp
import PipCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = FuzzInput(data, size).text
    do {
        for entry in try ConfigFile.entries(from: text, options: ConfigFile.pipcamOptions) {
            precondition(entry.line >= 1 && !entry.arguments.isEmpty && entry.arguments[0].hasPrefix("--"))
        }
    } catch {
        precondition(error.line >= 1)
        expectOneLine(error)
    }
    if let memory = GeometryMemory(line: text) {
        precondition(GeometryMemory(line: memory.line) == memory, "'\(memory.line)' does not read back")
        let area = Rect(x: 0, y: 0, width: 1280, height: 720)
        let layout = ScreenLayout(monitors: [area, Rect(x: 1280, y: 0, width: 1920, height: 1080)], workArea: area)
        let placed = memory.fitted(toAspect: 16.0 / 9).rect(in: layout, otherwise: area)
        precondition(placed.width > 0 && placed.height > 0, "placed at \(placed)")
    }
    return 0
}
