import ArgumentParser
import CameraSource
import PipCore
import PipcamApp
import PipWayland
import PipWindow

/// A value of one of pipcam's options, read once where ArgumentParser reads it. ArgumentParser
/// answers a value it cannot read with a sentence of its own; pipcam's one line names the option
/// and why (`--corner: unknown corner 'x' (…)`). So a value is always made, and `problem` holds
/// that line when it cannot be used; `PipcamCommand.validate()` reports the first.
protocol CheckedValue: ExpressibleByArgument {
    /// The one line saying why the value cannot be used, if it cannot.
    var problem: String? { get }
}

/// Names the option a value type shared by two options is read for.
protocol OptionFlag {
    static var flag: String { get }
}

enum HotkeyFlag: OptionFlag { static let flag = "--hotkey" }
enum SwitchKeyFlag: OptionFlag { static let flag = "--switch-key" }
enum WidFlag: OptionFlag { static let flag = "--wid" }
enum FollowWindowFlag: OptionFlag { static let flag = "--follow-window" }

/// "WxH" as two numbers, whatever their range.
func parseSize(_ text: String) -> (width: Int, height: Int)? {
    let parts = text.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
    return (w, h)
}

/// `--size WxH|auto`: each side 16–16384; nil for `auto` (the remembered or default size).
struct PipSizeValue: CheckedValue {
    static let sides = 16...16384
    let size: (width: Int, height: Int)?
    let problem: String?

    init(argument: String) {
        let parsed = argument == "auto" ? nil : parseSize(argument)
        size = parsed.flatMap { Self.sides.contains($0.width) && Self.sides.contains($0.height) ? $0 : nil }
        if argument == "auto" || size != nil {
            problem = nil
        } else if parsed == nil {
            problem = "--size: bad size '\(argument)': expected WxH, e.g. 480x270, or auto"
        } else {
            problem = "--size: \(argument): width and height must be \(Self.sides.lowerBound) to \(Self.sides.upperBound)"
        }
    }
}

/// `--share-size WxH`: each side 32–8192.
struct ShareSizeValue: CheckedValue {
    static let sides = 32...8192
    static let standard = (width: 1280, height: 720)
    let size: (width: Int, height: Int)
    let problem: String?

    init(argument: String) {
        if let parsed = parseSize(argument), Self.sides.contains(parsed.width), Self.sides.contains(parsed.height) {
            (size, problem) = (parsed, nil)
        } else {
            size = Self.standard
            problem = "--share-size: bad size '\(argument)': expected WxH from \(Self.sides.lowerBound) to \(Self.sides.upperBound), e.g. 1280x720"
        }
    }
}

/// `--zoom Z`: the digital zoom to start at, 1 to `Framing.maximumZoom`.
struct ZoomValue: CheckedValue {
    let zoom: Double
    let problem: String?

    init(argument: String) {
        if let z = Double(argument), z.isFinite, (1...Framing.maximumZoom).contains(z) {
            (zoom, problem) = (z, nil)
        } else {
            zoom = 1
            problem = "--zoom: '\(argument)' is not a zoom from 1 to \(Int(Framing.maximumZoom)) (e.g. 2 or 1.5)"
        }
    }
}

/// `--pan X,Y`: the middle of the part shown, in fractions of the picture's width and height.
struct PanValue: CheckedValue {
    let centre: (x: Double, y: Double)
    let problem: String?

    init(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Double(String($0)) }
        if parts.count == 2, let x = parts[0], let y = parts[1], (0...1).contains(x), (0...1).contains(y) {
            (centre, problem) = ((x, y), nil)
        } else {
            centre = (0.5, 0.5)
            problem = "--pan: '\(argument)' is not X,Y with each from 0 to 1 (the middle of the part shown, e.g. 0.5,0.4)"
        }
    }
}

/// `--corner C|auto`; nil for `auto` (the remembered or default corner).
struct CornerValue: CheckedValue {
    let corner: Corner?
    let problem: String?

    init(argument: String) {
        corner = Corner(rawValue: argument)
        problem = argument == "auto" || corner != nil
            ? nil : "--corner: unknown corner '\(argument)' (expected top-left, top-right, bottom-left, bottom-right or auto)"
    }
}

/// An option whose value is one of a fixed list of words (`--auto-pip`, `--shape`).
protocol ChoiceOption {
    associatedtype Choice: RawRepresentable<String> & CaseIterable
    static var flag: String { get }
    /// What its values are called in the message for a wrong one ("value", "shape").
    static var noun: String { get }
    static var fallback: Choice { get }
}

enum AutoPipOption: ChoiceOption {
    static let flag = "--auto-pip", noun = "value"
    static let fallback = AutomaticPip.hidden
}

enum ShapeOption: ChoiceOption {
    static let flag = "--shape", noun = "shape"
    static let fallback = WindowShape.rect
}

enum WindowSystemOption: ChoiceOption {
    static let flag = "--window-system", noun = "window system"
    static let fallback = WindowSystemPreference.auto
}

/// A word of `Option.Choice`'s (`--auto-pip hidden|minimize|never`, `--shape rect|rounded|circle`).
struct ChoiceValue<Option: ChoiceOption>: CheckedValue {
    let choice: Option.Choice
    let problem: String?

    init(argument: String) {
        choice = Option.Choice(rawValue: argument) ?? Option.fallback
        let words = Option.Choice.allCases.map(\.rawValue)
        let expected = words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
        problem = Option.Choice(rawValue: argument) != nil ? nil : "\(Option.flag): unknown \(Option.noun) '\(argument)' (expected \(expected))"
    }
}

/// `--hotkey` and `--switch-key`: a key spec, or `none` (nil) to undo a config file's key.
struct KeyValue<Flag: OptionFlag>: CheckedValue {
    let key: HotkeySpec?
    let problem: String?

    init(argument: String) {
        do {
            key = argument == "none" ? nil : try HotkeySpec.parse(argument, option: Flag.flag)
            problem = nil
        } catch {
            (key, problem) = (nil, error.description)
        }
    }
}

/// `--wid` and `--follow-window`: a window id in decimal or 0x hex, as `st -w` and `mpv --wid`
/// take it.
struct WindowIDValue<Flag: OptionFlag>: CheckedValue {
    let text: String
    let id: WindowID?
    var problem: String? { id == nil ? "\(Flag.flag): '\(text)' is not a window id (decimal or 0x hex)" : nil }

    init(argument: String) {
        text = argument
        id = Self.parse(argument)
    }

    static func parse(_ text: String) -> WindowID? {
        let t = text.filter { $0 != " " }
        let value = t.lowercased().hasPrefix("0x") ? UInt(t.dropFirst(2), radix: 16) : UInt(t)
        guard let value, value > 0, value <= 0x1FFF_FFFF else { return nil }
        return WindowID(value)
    }
}

/// `--source SPEC|auto`, read into a `SourceSpec`; nil for `auto` (the first camera, as with no
/// `--source`, over a config file's source).
struct SourceValue: CheckedValue {
    /// As given: `status` names the source so.
    let text: String
    let spec: SourceSpec?
    let problem: String?

    init(argument: String) {
        text = argument
        do {
            spec = argument == "auto" ? nil : try SourceSpec.parse(argument)
            problem = nil
        } catch {
            (spec, problem) = (nil, "\(error)")
        }
    }
}

/// `--share [DEVICE]|none` (docs/BEHAVIOUR.md, "Sharing the camera").
struct ShareValue: CheckedValue {
    /// nil: no sharing.
    let request: ShareRequest?
    var problem: String? { nil }

    init(argument: String) { request = ShareOption.request(argument) }
}

/// `--name NAME|none`: the instance to run as; nil for the unnamed one.
struct NameValue: CheckedValue {
    let name: String?
    let problem: String?

    init(argument: String) {
        name = InstanceName.given(argument)
        problem = InstanceName.problem(with: argument)
    }
}
