/// A camera's remembered controls against the camera as it is now: the writes that bring them
/// back, and those that cannot be made (the camera lacks the control, or no longer takes the
/// value: another firmware, another model under the same name, an edited file).
public enum RememberedControls {
    /// A remembered setting that is not restored, and why.
    public struct Problem: Sendable, Equatable {
        public var setting: ControlSetting
        public var reason: String
        public init(setting: ControlSetting, reason: String) {
            self.setting = setting
            self.reason = reason
        }
    }

    /// Automatic modes first, then values (`ControlPlan.setting`); a control that has the
    /// remembered value already is not written.
    public static func plan(_ remembered: [ControlSetting], on controls: [CameraControl]) -> (writes: [ControlSetting], problems: [Problem]) {
        var problems: [Problem] = []
        var accepted: [ControlSetting] = []
        for setting in remembered {
            guard let control = controls.first(where: { $0.id == setting.id }) else {
                problems.append(Problem(setting: setting, reason: "the camera has no such control"))
                continue
            }
            let reason: String? =
                if control.flags.contains(.disabled) { "\(control.name) is disabled on this camera" }
                else if control.flags.contains(.readOnly) { "\(control.name) is read-only" }
                else if control.kind == .button || control.kind == .other { "\(control.name) has no value to restore" }
                else { ControlArgument.refusal(setting.value, for: control) }
            if let reason {
                problems.append(Problem(setting: setting, reason: reason))
            } else {
                accepted.append(ControlSetting(control, setting.value))
            }
        }
        let writes = ControlPlan.setting(accepted, on: controls).writes.filter { write in
            controls.first { $0.id == write.id }?.value != write.value
        }
        return (writes, problems)
    }
}
