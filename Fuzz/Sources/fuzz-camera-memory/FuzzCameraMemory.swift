// What is remembered per camera (`$XDG_STATE_HOME/pipcam/cameras/…`, a file anyone may edit) and
// `pipcam set NAME=VALUE` (anyone may type): a file reads as whatever lines it has that make sense,
// and what is read writes back as the same (numbers rounded once); a setting is a value the control takes, or one line
// saying why not.
import CameraSource
import FuzzSupport

private let controls = [
    CameraControl(id: 0x0098_0900, label: "Brightness", kind: .integer, minimum: -64, maximum: 64, step: 2, defaultValue: 0, value: 0),
    CameraControl(
        id: 0x009a_0901, label: "Auto Exposure", kind: .menu, maximum: 3, defaultValue: 3, value: 3,
        menu: [.init(index: 1, name: "Manual Mode"), .init(index: 3, name: "Aperture Priority Mode")]),
    CameraControl(id: 0x0098_090c, label: "White Balance, Automatic", kind: .boolean, maximum: 1, defaultValue: 1, value: 1),
    CameraControl(id: 0x0098_0f01, label: "Read Only", kind: .integer, maximum: 255, value: 7, flags: .readOnly),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCameraMemory(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = FuzzInput(data, size)
    let text = input.text
    let (camera, rejected) = RememberedCamera.parse(text)
    precondition(rejected.allSatisfy { $0 >= 1 })
    // Numbers are written rounded (4 decimals): what is written once reads back as itself.
    let again = RememberedCamera.parse(camera.text)
    precondition(again.rejected.isEmpty && again.camera.controls == camera.controls, "\(camera.text) read back as \(again.camera.text)")
    precondition(RememberedCamera.parse(again.camera.text).camera == again.camera, "\(again.camera.text) is not stable")
    if let framing = camera.framing {
        precondition(RememberedFraming.zooms.contains(framing.zoom) && (0...1).contains(framing.centreX) && (0...1).contains(framing.centreY))
    }
    for line in text.split(separator: "\n").prefix(8) {
        do {
            let setting = try ControlArgument.parse(String(line), controls: controls)
            let control = controls.first { $0.id == setting.id }!
            precondition(control.isWritable && ControlArgument.refusal(setting.value, for: control) == nil, "\(line) gave \(setting)")
        } catch {
            precondition(!error.line.contains("\n") && error.line.hasPrefix("pipcam: "), "not one line: \(error.line)")
        }
    }
    return 0
}
