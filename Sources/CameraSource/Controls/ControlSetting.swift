/// One value for one control: what the user asked for, a write of a plan, a line of a camera's
/// memory. The name is kept for messages and for people reading the memory file; the ID is what
/// counts.
public struct ControlSetting: Sendable, Equatable {
    public var id: UInt32
    public var name: String
    public var value: Int64

    public init(id: UInt32, name: String, value: Int64) {
        self.id = id
        self.name = name
        self.value = value
    }

    /// The setting of `control` to `value`.
    public init(_ control: CameraControl, _ value: Int64) {
        self.init(id: control.id, name: control.name, value: value)
    }
}

/// Why a control setting was refused: one line for the user.
public struct ControlProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line, without a newline.
    public var line: String
    public init(_ line: String) { self.line = line }
    public var description: String { line }
}
