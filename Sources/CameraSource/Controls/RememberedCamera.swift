/// How a camera's picture was framed: the zoom and the point of the picture at the window's
/// centre, as fractions of the picture's width and height. The display side converts it.
public struct RememberedFraming: Sendable, Equatable {
    public var zoom: Double
    public var centreX: Double
    public var centreY: Double

    public init(zoom: Double, centreX: Double, centreY: Double) {
        self.zoom = zoom
        self.centreX = centreX
        self.centreY = centreY
    }

    /// Zooms a file may hold (beyond them it is damaged, not remembered).
    public static let zooms: ClosedRange<Double> = 1...64
}

/// What is remembered of one camera: the controls the user changed from their defaults and the
/// framing. As text, one setting a line:
///
///     control 0x00980900 brightness 200
///     zoom 2.0
///     centre 0.4 0.55
///
/// Controls are known by ID; the name is there for people reading the file.
public struct RememberedCamera: Sendable, Equatable {
    /// In ID order, one per control.
    public private(set) var controls: [ControlSetting]
    public var framing: RememberedFraming?

    public init(controls: [ControlSetting] = [], framing: RememberedFraming? = nil) {
        self.controls = []
        self.framing = framing
        for control in controls { remember(control) }
    }

    public var isEmpty: Bool { controls.isEmpty && framing == nil }

    /// Keeps `setting`, replacing what was kept for its control.
    public mutating func remember(_ setting: ControlSetting) {
        controls.removeAll { $0.id == setting.id }
        controls.append(setting)
        controls.sort { $0.id < $1.id }
    }

    /// Forgets control `id` (every control when nil).
    public mutating func forgetControl(_ id: UInt32?) {
        controls.removeAll { id == nil || $0.id == id }
    }

    /// Keeps `write` of `control`, or forgets the control when the write puts it back to its
    /// default: only changes are remembered. A button's press is no setting to keep.
    public mutating func remember(_ write: ControlSetting, of control: CameraControl?) {
        guard control?.kind != .button else { return }
        if let control, write.value == control.defaultValue { forgetControl(write.id) } else { remember(write) }
    }

    /// The file's text: the controls in ID order, then the framing.
    public var text: String {
        var lines = controls.map { "control \(CameraControl.hex($0.id)) \($0.name) \($0.value)" }
        if let framing {
            lines.append("zoom \(Self.decimal(framing.zoom))")
            lines.append("centre \(Self.decimal(framing.centreX)) \(Self.decimal(framing.centreY))")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Reads `text`, keeping every line it understands; `rejected` are the numbers (from 1) of
    /// those it does not. Blank lines and `#` comments are neither.
    public static func parse(_ text: String) -> (camera: RememberedCamera, rejected: [Int]) {
        var camera = RememberedCamera()
        var rejected: [Int] = []
        var zoom: Double?
        var centre: (Double, Double)?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let keyword = words.first, !keyword.hasPrefix("#") else { continue }
            switch (keyword, words.count) {
            case ("control", 4):
                guard let id = hexID(words[1]), let value = Int64(words[3]), isName(words[2]) else { break }
                camera.remember(ControlSetting(id: id, name: String(words[2]), value: value))
                continue
            case ("zoom", 2):
                guard let z = Double(words[1]), RememberedFraming.zooms.contains(z) else { break }
                zoom = z
                continue
            case ("centre", 3):
                guard let x = fraction(words[1]), let y = fraction(words[2]) else { break }
                centre = (x, y)
                continue
            default:
                break
            }
            rejected.append(number + 1)
        }
        if zoom != nil || centre != nil {
            camera.framing = RememberedFraming(zoom: zoom ?? 1, centreX: centre?.0 ?? 0.5, centreY: centre?.1 ?? 0.5)
        }
        return (camera, rejected)
    }

    private static func hexID(_ word: Substring) -> UInt32? {
        guard word.count == 10, word.hasPrefix("0x") else { return nil }
        return UInt32(word.dropFirst(2), radix: 16)
    }

    private static func isName(_ word: Substring) -> Bool {
        word.utf8.count <= 64 && word.utf8.allSatisfy { $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7a) }
    }

    /// A number from 0 to 1 (NaN is neither).
    private static func fraction(_ word: Substring) -> Double? {
        guard let value = Double(word), value >= 0, value <= 1 else { return nil }
        return value
    }

    /// At most 4 decimals: finer than any window's pixels, and short to read.
    private static func decimal(_ value: Double) -> String {
        "\((value * 10_000).rounded() / 10_000)"
    }
}
