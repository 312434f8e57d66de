import CameraSource

/// `pipcam controls`' text: one line a control — name, ID, type, range, step, default, value,
/// flags — and a menu's items indented below it.
enum ControlListing {
    static func text(_ controls: [CameraControl]) -> String {
        controls.map(lines).joined(separator: "\n")
    }

    private static func lines(_ c: CameraControl) -> String {
        var fields: [String] = []
        switch c.kind {
        case .integer, .integer64, .bitmask:
            fields = ["min=\(c.minimum)", "max=\(c.maximum)", "step=\(c.step)", "default=\(c.defaultValue)"]
        case .menu, .integerMenu:
            fields = ["min=\(c.minimum)", "max=\(c.maximum)", "default=\(c.defaultValue)"]
        case .boolean:
            fields = ["default=\(c.defaultValue)"]
        case .button, .other:
            break
        }
        if let value = c.value, c.hasValue {
            let item = c.menuItem(value).map { " (\($0.name))" } ?? ""
            fields.append("value=\(value)" + item)
        }
        let flags = flagNames(c.flags)
        if !flags.isEmpty { fields.append("flags=" + flags.joined(separator: ",")) }
        let head = "\(c.name) \(CameraControl.hex(c.id)) (\(kindName(c.kind)))"
        let items = c.menu.map { "    \($0.index): \($0.name)" }
        return ([head + (fields.isEmpty ? "" : " : " + fields.joined(separator: " "))] + items).joined(separator: "\n")
    }

    private static func kindName(_ kind: CameraControl.Kind) -> String {
        switch kind {
        case .integer: "int"
        case .boolean: "bool"
        case .menu: "menu"
        case .integerMenu: "intmenu"
        case .button: "button"
        case .integer64: "int64"
        case .bitmask: "bitmask"
        case .other: "other"
        }
    }

    private static func flagNames(_ flags: CameraControl.Flags) -> [String] {
        let names: [(CameraControl.Flags, String)] = [
            (.disabled, "disabled"), (.inactive, "inactive"), (.readOnly, "read-only"), (.writeOnly, "write-only"),
            (.grabbed, "grabbed"), (.volatile, "volatile"),
        ]
        return names.filter { flags.contains($0.0) }.map(\.1)
    }
}
