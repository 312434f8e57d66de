import CameraSource

/// Controls of real kinds of cameras, for the tests that script one.
public enum WebcamControls {
    /// A UVC webcam's controls, at their defaults: auto exposure (its menu only 1 and 3) and auto
    /// white balance on, so the manual values they govern are inactive; pan disabled; a read-only
    /// one and a button as vivid has them.
    public static func uvc() -> [UInt32: CameraControl] {
        let controls = [
            CameraControl(id: 0x0098_0900, label: "Brightness", kind: .integer, minimum: -64, maximum: 64, defaultValue: 0, value: 0),
            CameraControl(id: 0x0098_0901, label: "Contrast", kind: .integer, minimum: 0, maximum: 95, defaultValue: 32, value: 32),
            CameraControl(id: 0x0098_090c, label: "White Balance, Automatic", kind: .boolean, maximum: 1, defaultValue: 1, value: 1),
            CameraControl(
                id: 0x0098_0918, label: "Power Line Frequency", kind: .menu, maximum: 2, defaultValue: 1, value: 1,
                menu: [.init(index: 0, name: "Disabled"), .init(index: 1, name: "50 Hz"), .init(index: 2, name: "60 Hz")]),
            CameraControl(
                id: 0x0098_091a, label: "White Balance Temperature", kind: .integer, minimum: 2800, maximum: 6500, step: 10,
                defaultValue: 4600, value: 4600, flags: .inactive),
            CameraControl(
                id: 0x009a_0901, label: "Auto Exposure", kind: .menu, maximum: 3, defaultValue: 3, value: 3,
                menu: [.init(index: 1, name: "Manual Mode"), .init(index: 3, name: "Aperture Priority Mode")]),
            CameraControl(
                id: 0x009a_0902, label: "Exposure Time, Absolute", kind: .integer, minimum: 3, maximum: 2047,
                defaultValue: 250, value: 250, flags: .inactive),
            CameraControl(
                id: 0x009a_0908, label: "Pan, Absolute", kind: .integer, minimum: -36000, maximum: 36000, step: 3600,
                defaultValue: 0, value: 0, flags: .disabled),
            CameraControl(id: 0x0098_0f01, label: "Read-Only Integer 32 Bits", kind: .integer, maximum: 255, defaultValue: 0, value: 7, flags: .readOnly),
            CameraControl(id: 0x0098_0f00, label: "Button", kind: .button, flags: .writeOnly),
        ]
        return Dictionary(uniqueKeysWithValues: controls.map { ($0.id, $0) })
    }
}
