// `--hotkey` values, with X's own keysym names (`XStringToKeysym` needs no display).
import FuzzSupport
import PipWindow

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHotkey(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let text = FuzzInput(data, size).text
    do {
        let spec = try HotkeySpec.parse(text)
        precondition(spec.keysym != 0 && !spec.keyName.isEmpty && spec.text == text)
        let again = try HotkeySpec.parse(spec.text)
        precondition(again == spec)
    } catch {
        // Bytes, not Characters: a combining mark after the quote joins it in one Character.
        precondition(error.description.utf8.starts(with: "--hotkey: bad key '".utf8), "message: \(error.description)")
    }
    return 0
}
