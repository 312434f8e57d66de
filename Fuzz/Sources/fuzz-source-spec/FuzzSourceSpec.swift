// `--source` values: parsed, and what parses must print back as a spec that parses the same;
// `pipcam switch` values: what is sent to the instance parses as the spec with its path absolute.
import CameraSource
import FuzzSupport
import PipCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSourceSpec(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = FuzzInput(data, size).text
    do {
        let spec = try SourceSpec.parse(text)
        let again = try SourceSpec.parse(spec.description)
        precondition(again == spec, "'\(text)' parses as \(spec), which parses as \(again)")
        if case .raw(_, let w, let h, let format, let fps) = spec {
            precondition(FrameLimits.problem(width: w, height: h) == nil && format.frameByteCount(width: w, height: h) != nil)
            precondition(fps >= 0.01 && fps <= 1000)
        }
        do {
            let sent = try SourceSpec.forSwitch(text, directory: "/fuzz dir")
            let received = try SourceSpec.parse(sent)
            precondition(received == spec.absolute(in: "/fuzz dir"), "'\(text)' is sent as '\(sent)', read as \(received)")
            precondition(received.path.map { $0.hasPrefix("/") } ?? true)
        } catch {
            precondition(spec.readsStandardInput, "'\(text)' parses but cannot be switched to: \(error)")
        }
    } catch {
        // Messages quote parts of the text: one that holds a newline (an argument can) keeps it.
        if !text.contains("\n") { expectOneLine(error) }
    }
    return 0
}
