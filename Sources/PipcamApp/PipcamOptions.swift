/// One option of pipcam's command line (docs/BEHAVIOUR.md, "Command line"): how ArgumentParser
/// reads it and whether a config file may set it.
public struct PipcamOption: Sendable {
    public enum Reading: Sendable {
        /// `--NAME`; with `invertible`, also `--no-NAME` (so that the command line can undo a
        /// config file's `NAME = true`).
        case flag(invertible: Bool)
        /// `--NAME VALUE` or `--NAME=VALUE`. `unconditional`: the next argument is the value
        /// whatever it looks like (`--size -480x270` is a refused value, not a missing one).
        /// `accepts`: whether ArgumentParser converts the value without an error.
        case value(unconditional: Bool, accepts: @Sendable (String) -> Bool)
    }

    /// The long name, without its dashes.
    public let name: String
    public let short: Character?
    public let reading: Reading
    /// Whether `NAME = …` in the config file sets it.
    public let configurable: Bool

    init(_ name: String, short: Character? = nil, _ reading: Reading, configurable: Bool) {
        self.name = name
        self.short = short
        self.reading = reading
        self.configurable = configurable
    }
}

/// Every option of pipcam's command line, once. The config file's keys and the table that drops
/// overridden repeats are derived from it; a test holds `PipcamCommand`, the man page,
/// docs/BEHAVIOUR.md and docs/USAGE.md to it.
public enum PipcamOptions {
    private static let text = PipcamOption.Reading.value(unconditional: false) { _ in true }
    private static let anyText = PipcamOption.Reading.value(unconditional: true) { _ in true }
    private static let integer = PipcamOption.Reading.value(unconditional: true) { Int($0) != nil }
    private static let number = PipcamOption.Reading.value(unconditional: true) { Double($0) != nil }
    private static let switchable = PipcamOption.Reading.flag(invertible: true)

    public static let all: [PipcamOption] = [
        PipcamOption("pip", switchable, configurable: true),
        PipcamOption("source", text, configurable: true),
        PipcamOption("size", anyText, configurable: true),
        PipcamOption("corner", text, configurable: true),
        PipcamOption("mirror", switchable, configurable: true),
        PipcamOption("rotate", integer, configurable: true),
        PipcamOption("untimed", switchable, configurable: true),
        PipcamOption("loop", switchable, configurable: true),
        PipcamOption("frames", integer, configurable: false),
        PipcamOption("stats", switchable, configurable: true),
        PipcamOption("auto-pip", text, configurable: true),
        PipcamOption("hotkey", text, configurable: true),
        PipcamOption("switch-key", text, configurable: true),
        PipcamOption("idle-release", number, configurable: true),
        PipcamOption("name", text, configurable: true),
        PipcamOption("shape", text, configurable: true),
        PipcamOption("opacity", number, configurable: true),
        PipcamOption("click-through", switchable, configurable: true),
        PipcamOption("share", text, configurable: true),
        PipcamOption("share-size", text, configurable: true),
        PipcamOption("share-full-frame", switchable, configurable: true),
        PipcamOption("zoom", number, configurable: true),
        PipcamOption("pan", text, configurable: true),
        PipcamOption("window-system", text, configurable: true),
        PipcamOption("list-cameras", .flag(invertible: false), configurable: false),
        PipcamOption("wid", short: "w", anyText, configurable: false),
        PipcamOption("follow-window", anyText, configurable: false),
    ]

    /// The config file's keys and how each takes its value (`ConfigFile`).
    public static let configKeys: [String: ConfigFile.Kind] = Dictionary(
        uniqueKeysWithValues: all.filter(\.configurable).map { option in
            switch option.reading {
            case .flag(let invertible): (option.name, invertible ? .invertible : .flag)
            case .value: (option.name, .value)
            }
        })

    /// How ArgumentParser reads each spelling, for dropping the occurrences a later one overrides
    /// (`RepeatedOptions`).
    public static let repeatable: [String: RepeatedOptions.Kind] = {
        var table: [String: RepeatedOptions.Kind] = [:]
        for option in all {
            let kind: RepeatedOptions.Kind
            switch option.reading {
            case .flag(let invertible):
                kind = .flag(group: option.name)
                if invertible { table["--no-\(option.name)"] = kind }
            case .value(let unconditional, let accepts):
                kind = .value(group: option.name, unconditional: unconditional, accepts: accepts)
            }
            table["--\(option.name)"] = kind
            if let short = option.short { table["-\(short)"] = kind }
        }
        return table
    }()
}
