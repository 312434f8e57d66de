// The control channel: `--name`, and the `pipcam status` answer, which the client passes on as
// text and scripts read as JSON: whatever the strings and numbers in it, it must be JSON that
// reads back as the same values. (What a client sends, on either door, is the `request` target's.)
import Foundation
import FuzzSupport
import PipWindow
import PipCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControl(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    // Eight bytes (once a command code, so the seeds keep their layout): the fps, and mainVisible.
    var code = 0
    for _ in 0..<8 { code = code << 8 | Int(input.byte()) }
    let fps = Double(bitPattern: UInt64(truncatingIfNeeded: code))
    let numbers = (0..<10).map { _ in Int(Int32(truncatingIfNeeded: input.uint16() << 16 | input.uint16())) }
    let strings = input.text.split(separator: "\u{1}", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
    let name = strings[0]
    if InstanceName.problem(with: name) == nil {
        precondition(!name.isEmpty && name.utf8.count <= 64 && !InstanceName.selection(screen: 0, name: name).contains(" "))
    }
    func string(_ i: Int) -> String { i < strings.count ? strings[i] : "" }
    let status = InstanceStatus(
        state: string(1), source: string(2), camera: string(3), shown: numbers[0], dropped: numbers[1], fps: fps,
        pip: Rect(x: numbers[2], y: numbers[3], width: numbers[4], height: numbers[5]),
        main: Rect(x: numbers[6], y: numbers[7], width: numbers[8], height: numbers[9]), mainVisible: code & 1 == 1)
    let text = status.json.encoded
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        preconditionFailure("status is not a JSON object: \(text)")
    }
    precondition(object["state"] as? String == status.state, "state \(status.state) came back as \(object["state"] ?? "nothing")")
    precondition(object["source"] as? String == status.source && object["camera"] as? String == status.camera)
    precondition((object["shown"] as? NSNumber)?.intValue == status.shown)
    // Written with two decimals: off by up to 0.005, and by a rounding error of Double's past that.
    let readFPS = (object["fps"] as? NSNumber)?.doubleValue
    precondition(readFPS.map { $0.isFinite && (!fps.isFinite || abs($0 - fps) <= 0.0051 + 1e-12 * abs(fps)) } ?? false,
                 "fps \(fps) came back as \(String(describing: readFPS)) in \(text)")
    return 0
}
