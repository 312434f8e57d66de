/// One V4L2 control of a camera (brightness, auto exposure, …) as the driver describes it, with
/// its value when it could be read.
public struct CameraControl: Sendable, Equatable {
    /// What kind of value the control takes (`V4L2_CTRL_TYPE_*`).
    public enum Kind: Sendable, Equatable {
        case integer, boolean, menu, integerMenu, button, integer64, bitmask
        /// Strings and other types pipcam neither reads nor sets.
        case other
    }

    /// The `V4L2_CTRL_FLAG_*` that matter to a user.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Not offered by this camera (or not in its current state).
        public static let disabled = Flags(rawValue: 1 << 0)
        /// Has no effect now (a manual value while its auto mode is on).
        public static let inactive = Flags(rawValue: 1 << 1)
        public static let readOnly = Flags(rawValue: 1 << 2)
        public static let writeOnly = Flags(rawValue: 1 << 3)
        /// Taken by a running stream: cannot be changed until it stops.
        public static let grabbed = Flags(rawValue: 1 << 4)
        /// Changes by itself (read back, e.g. an exposure the camera picked).
        public static let volatile = Flags(rawValue: 1 << 5)
    }

    /// One choice of a menu: its index (the control's value) and its text (for an integer menu
    /// the number, as text).
    public struct MenuItem: Sendable, Equatable {
        public var index: Int64
        public var name: String
        public init(index: Int64, name: String) {
            self.index = index
            self.name = name
        }
    }

    /// The V4L2 control ID (`V4L2_CID_*`).
    public var id: UInt32
    /// The canonical name users type (`CameraControl.canonicalName(_:)` of `label`).
    public var name: String
    /// The driver's own text, e.g. "White Balance Temperature".
    public var label: String
    public var kind: Kind
    public var minimum: Int64
    public var maximum: Int64
    public var step: Int64
    public var defaultValue: Int64
    /// The current value; nil for buttons, write-only controls and values that could not be read.
    public var value: Int64?
    /// A menu's choices (indices the driver skips are left out).
    public var menu: [MenuItem]
    public var flags: Flags

    public init(
        id: UInt32, label: String, kind: Kind, minimum: Int64 = 0, maximum: Int64 = 0, step: Int64 = 1,
        defaultValue: Int64 = 0, value: Int64? = nil, menu: [MenuItem] = [], flags: Flags = []
    ) {
        self.id = id
        self.name = CameraControl.canonicalName(label, id: id)
        self.label = label
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.menu = menu
        self.flags = flags
    }

    /// Whether pipcam may write it: not read-only, not disabled, of a kind it sets.
    public var isWritable: Bool {
        !flags.contains(.readOnly) && !flags.contains(.disabled) && kind != .other
    }

    /// Whether it has a value to read back.
    public var hasValue: Bool { kind != .button && kind != .other && !flags.contains(.writeOnly) }

    /// The menu item for `index`, if the menu has one.
    public func menuItem(_ index: Int64) -> MenuItem? { menu.first { $0.index == index } }

    /// The name v4l2-ctl would give a control labelled `label`: lower case, every run of other
    /// characters than ASCII letters and digits one `_`, none at either end
    /// ("White Balance Temperature" → `white_balance_temperature`, "Exposure (Absolute)" →
    /// `exposure_absolute`). A label with no letter or digit gives `control_` and the ID in hex.
    public static func canonicalName(_ label: String, id: UInt32 = 0) -> String {
        var name = ""
        var gap = false
        for byte in label.utf8 {
            let isDigit = byte >= 0x30 && byte <= 0x39
            let isUpper = byte >= 0x41 && byte <= 0x5a
            let isLower = byte >= 0x61 && byte <= 0x7a
            guard isDigit || isUpper || isLower else {
                gap = true
                continue
            }
            if gap && !name.isEmpty { name += "_" }
            gap = false
            name.unicodeScalars.append(Unicode.Scalar(isUpper ? byte + 0x20 : byte))
        }
        return name.isEmpty ? "control_" + hex(id).dropFirst(2) : name
    }

    /// `0x00980900`: an ID as the V4L2 headers write it.
    public static func hex(_ id: UInt32) -> String {
        let digits = String(id, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
