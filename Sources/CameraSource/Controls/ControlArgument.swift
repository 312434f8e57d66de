/// A control setting as the user writes it, `NAME=VALUE`, read against a camera's controls: the
/// name is a control's canonical name (any spelling that canonicalises to it) or its ID in hex;
/// the value is checked against what the control takes. Every refusal is one line.
public enum ControlArgument {
    /// Control names listed at most when a name is not found.
    static let namesListed = 8

    /// The setting `argument` asks for; a button may be given without `=VALUE`.
    public static func parse(_ argument: String, controls: [CameraControl]) throws(ControlProblem) -> ControlSetting {
        let parts = argument.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = trimmed(parts[0])
        guard !name.isEmpty else { throw problem(argument, "expected NAME=VALUE") }
        let control = try lookUp(name, in: controls, argument: argument)
        do {
            return ControlSetting(control, try value(parts.count > 1 ? trimmed(parts[1]) : nil, for: control))
        } catch {
            throw problem(argument, error.line)
        }
    }

    /// The control called `name`; the refusal names the argument it came in (`argument`, else
    /// the name itself) and lists the camera's controls.
    public static func lookUp(_ name: String, in controls: [CameraControl], argument: String? = nil) throws(ControlProblem) -> CameraControl {
        if let control = control(named: name, in: controls) { return control }
        let names = controls.prefix(namesListed).map(\.name) + (controls.count > namesListed ? ["…"] : [])
        let has = names.isEmpty ? "it has none" : "it has " + names.joined(separator: ", ")
        throw problem(argument ?? name, "the camera has no control '\(name)' (\(has))")
    }

    /// The control called `name` (canonicalised: `White Balance Temperature` finds
    /// `white_balance_temperature`) or whose ID `name` is (`0x00980900`).
    public static func control(named name: String, in controls: [CameraControl]) -> CameraControl? {
        let canonical = CameraControl.canonicalName(name)
        if let control = controls.first(where: { $0.name == canonical }) { return control }
        guard let id = hexNumber(name).flatMap({ UInt32(exactly: $0) }) else { return nil }
        return controls.first { $0.id == id }
    }

    /// The value `text` means for `control` (nil: none given). Integers in range and on a step,
    /// or `default`, `min`, `max`; booleans as on/off, true/false, yes/no, 1/0; menus by an
    /// item's name (any case, spaces also as `_`) or index; buttons with no value or 1. The
    /// problem's line is the reason alone, without the argument.
    public static func value(_ text: String?, for control: CameraControl) throws(ControlProblem) -> Int64 {
        let name = control.name
        if control.flags.contains(.disabled) { throw ControlProblem("\(name) is disabled on this camera") }
        if control.flags.contains(.readOnly) { throw ControlProblem("\(name) is read-only") }
        switch control.kind {
        case .other:
            throw ControlProblem("\(name) is of a kind pipcam cannot set")
        case .button:
            guard text == nil || text == "1" else {
                throw ControlProblem("\(name) is a button: give it no value or 1 (got '\(text ?? "")')")
            }
            return 1
        default:
            break
        }
        guard let text, !text.isEmpty else { throw ControlProblem("\(name) needs a value (\(name)=VALUE)") }
        let word = text.lowercased()
        let value: Int64
        switch (control.kind, word) {
        case (_, "default"):
            value = control.defaultValue
        case (.integer, "min"), (.integer64, "min"), (.boolean, "min"), (.bitmask, "min"):
            value = control.minimum
        case (.integer, "max"), (.integer64, "max"), (.boolean, "max"), (.bitmask, "max"):
            value = control.maximum
        case (.boolean, _):
            switch word {
            case "on", "true", "yes", "1": value = 1
            case "off", "false", "no", "0": value = 0
            default: throw ControlProblem("\(name) is on or off (got '\(text)')")
            }
        case (.menu, _), (.integerMenu, _):
            let underscored = String(word.map { $0 == "_" ? " " : $0 })
            if let item = control.menu.first(where: { $0.name.lowercased() == word || $0.name.lowercased() == underscored }) {
                value = item.index
            } else if let index = integer(text), control.menuItem(index) != nil {
                value = index
            } else {
                throw ControlProblem("\(name) is one of: \(menuList(control)) (got '\(text)')")
            }
        default:
            guard let number = integer(text) else { throw ControlProblem("\(name) takes a whole number (got '\(text)')") }
            value = number
        }
        if let refusal = refusal(value, for: control) { throw ControlProblem(refusal) }
        return value
    }

    /// Why `control` cannot take `value` (out of range, off its steps, not a menu item, bits it
    /// does not have), or nil when it can. Says nothing of flags.
    public static func refusal(_ value: Int64, for control: CameraControl) -> String? {
        let name = control.name
        switch control.kind {
        case .button, .other:
            return nil
        case .menu, .integerMenu:
            return control.menuItem(value) == nil ? "\(name) is one of: \(menuList(control)) (got \(value))" : nil
        case .bitmask:
            let mask = UInt32(truncatingIfNeeded: control.maximum)
            guard let bits = UInt32(exactly: value), bits & ~mask == 0 else {
                return "\(name) takes the bits of \(CameraControl.hex(mask)) only (got \(value))"
            }
            return nil
        case .integer, .integer64, .boolean:
            guard value >= control.minimum && value <= control.maximum else {
                return "\(name) is from \(control.minimum) to \(control.maximum) (got \(value))"
            }
            let (offset, overflow) = value.subtractingReportingOverflow(control.minimum)
            if control.step > 1 && !overflow && offset % control.step != 0 {
                return "\(name) goes in steps of \(control.step) from \(control.minimum) (got \(value))"
            }
            return nil
        }
    }

    /// `1 Manual Mode, 3 Aperture Priority Mode`.
    static func menuList(_ control: CameraControl) -> String {
        control.menu.map { "\($0.index) \($0.name)" }.joined(separator: ", ")
    }

    private static func problem(_ argument: String, _ reason: String) -> ControlProblem {
        ControlProblem("pipcam: '\(argument)': \(reason)")
    }

    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    /// A decimal number with an optional sign, or `0x` and hex digits.
    private static func integer(_ text: String) -> Int64? { Int64(text) ?? hexNumber(text) }

    private static func hexNumber(_ text: String) -> Int64? {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { return nil }
        return Int64(text.dropFirst(2), radix: 16)
    }
}
