/// An automatic control and the manual one it overrides while it is on: a manual value set while
/// the automatic mode is on has no effect (or is refused), so the automatic one is switched to
/// `manualValue` first.
public struct AutoMode: Sendable, Equatable {
    /// The automatic control's ID.
    public var auto: UInt32
    /// The ID of the control it governs.
    public var manual: UInt32
    /// The automatic control's value that leaves the manual one in effect.
    public var manualValue: Int64

    public init(auto: UInt32, manual: UInt32, manualValue: Int64) {
        self.auto = auto
        self.manual = manual
        self.manualValue = manualValue
    }

    /// The pairs the V4L2 user and camera classes define.
    public static let table: [AutoMode] = [
        // V4L2_CID_EXPOSURE_AUTO → EXPOSURE_ABSOLUTE, manual = V4L2_EXPOSURE_MANUAL. UVC cameras
        // often offer only 1 (manual) and 3 (aperture priority) in its menu.
        AutoMode(auto: 0x009a_0901, manual: 0x009a_0902, manualValue: 1),
        // AUTO_WHITE_BALANCE → WHITE_BALANCE_TEMPERATURE.
        AutoMode(auto: 0x0098_090c, manual: 0x0098_091a, manualValue: 0),
        // FOCUS_AUTO → FOCUS_ABSOLUTE.
        AutoMode(auto: 0x009a_090c, manual: 0x009a_090a, manualValue: 0),
        // AUTOGAIN → GAIN.
        AutoMode(auto: 0x0098_0912, manual: 0x0098_0913, manualValue: 0),
        // HUE_AUTO → HUE.
        AutoMode(auto: 0x0098_0919, manual: 0x0098_0903, manualValue: 0),
        // AUTOBRIGHTNESS → BRIGHTNESS.
        AutoMode(auto: 0x0098_0920, manual: 0x0098_0900, manualValue: 0),
    ]

    /// The automatic control that governs control `manual`, if one does.
    public static func governing(_ manual: UInt32) -> AutoMode? { table.first { $0.manual == manual } }

    /// Whether control `id` is an automatic mode of the table.
    public static func isAuto(_ id: UInt32) -> Bool { table.contains { $0.auto == id } }
}
