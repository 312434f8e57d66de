/// The writes that carry out control settings on a camera, in the order they must be made, and
/// what to tell the user about writes they did not ask for.
public struct ControlPlan: Sendable, Equatable {
    public var writes: [ControlSetting]
    /// One line each, e.g. "auto_exposure set to Manual Mode so exposure_time_absolute applies".
    public var notes: [String]

    public init(writes: [ControlSetting] = [], notes: [String] = []) {
        self.writes = writes
        self.notes = notes
    }

    /// The user's `settings` (checked already) on a camera with `controls`: a manual value whose
    /// automatic mode (`AutoMode.table`) is on gets that mode switched to manual first, unless the
    /// user sets the automatic control too. Automatic controls are written before the others;
    /// a control set twice takes the later value.
    public static func setting(_ settings: [ControlSetting], on controls: [CameraControl]) -> ControlPlan {
        var chosen: [ControlSetting] = []
        for setting in settings {
            chosen.removeAll { $0.id == setting.id }
            chosen.append(setting)
        }
        var switches: [ControlSetting] = []
        var notes: [String] = []
        for setting in chosen {
            guard let mode = AutoMode.governing(setting.id),
                !chosen.contains(where: { $0.id == mode.auto }), !switches.contains(where: { $0.id == mode.auto }),
                let auto = controls.first(where: { $0.id == mode.auto }), auto.isWritable,
                auto.value != mode.manualValue
            else { continue }
            if ControlArgument.refusal(mode.manualValue, for: auto) != nil {
                notes.append("\(auto.name) has no manual setting, so \(setting.name) may not apply")
                continue
            }
            switches.append(ControlSetting(auto, mode.manualValue))
            notes.append("\(auto.name) set to \(valueText(mode.manualValue, of: auto)) so \(setting.name) applies")
        }
        let autos = switches + chosen.filter { AutoMode.isAuto($0.id) }
        return ControlPlan(writes: autos + chosen.filter { !AutoMode.isAuto($0.id) }, notes: notes)
    }

    /// `--reset`: every control whose value is not its default (or only control `id`) written
    /// back to its default, automatic controls last, so a manual value is written while its
    /// mode still lets it and a default that is automatic comes back over it.
    public static func reset(_ controls: [CameraControl], only id: UInt32? = nil) -> ControlPlan {
        var notes: [String] = []
        let changed = controls.filter { control in
            guard id == nil || control.id == id, control.isWritable, control.hasValue, let value = control.value else {
                return false
            }
            if value == control.defaultValue {
                if id != nil { notes.append("\(control.name) is at its default (\(valueText(value, of: control))) already") }
                return false
            }
            return true
        }
        let writes = changed.map { ControlSetting($0, $0.defaultValue) }
        return ControlPlan(
            writes: writes.filter { !AutoMode.isAuto($0.id) } + writes.filter { AutoMode.isAuto($0.id) }, notes: notes)
    }

    /// Makes the writes through `access` in order; the ones that failed, with why.
    public func apply(to access: any CameraControlAccess) -> [(setting: ControlSetting, error: V4L2Error)] {
        var failures: [(setting: ControlSetting, error: V4L2Error)] = []
        for write in writes {
            do { try access.setControl(write.id, to: write.value) } catch { failures.append((write, error)) }
        }
        return failures
    }

    /// A value as the user would name it: a menu item's text, on/off, else the number.
    public static func valueText(_ value: Int64, of control: CameraControl) -> String {
        switch control.kind {
        case .menu, .integerMenu: return control.menuItem(value)?.name ?? String(value)
        case .boolean: return value == 0 ? "off" : "on"
        default: return String(value)
        }
    }
}
