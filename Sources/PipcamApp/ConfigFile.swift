import PipWindow

/// `$XDG_CONFIG_HOME/pipcam/config`: `key = value` lines naming long options (`size = 480x270`,
/// `mirror = false`, `stats = true`), `#` comments. They become arguments placed before the
/// command line's, so the command line wins.
public enum ConfigFile {
    /// How an option takes its value.
    public enum Kind: Sendable {
        /// `--key VALUE`
        case value
        /// `--key` when true; nothing when false.
        case flag
        /// `--key` when true, `--no-key` when false.
        case invertible
    }

    /// A line that could not be understood, with its number (from 1).
    public struct LineError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// `line` up to a `#` that starts it or follows a space or tab: a `#` inside a value (a file
    /// named `take#2.y4m`) is part of it.
    static func withoutComment(_ line: Substring) -> String {
        var previous: Character = " "
        for i in line.indices {
            if line[i] == "#", previous == " " || previous == "\t" { return String(line[..<i]) }
            previous = line[i]
        }
        return String(line)
    }

    /// The arguments `text` stands for, given the options it may set.
    public static func arguments(from text: String, options: [String: Kind]) throws(LineError) -> [String] {
        try entries(from: text, options: options).flatMap(\.arguments)
    }

    /// The options of pipcam's command line a config file may set (long names), and how each takes
    /// its value (`PipcamOptions`).
    public static var pipcamOptions: [String: Kind] { PipcamOptions.configKeys }

    /// The arguments of each meaningful line, with its number (so a value the command line rejects
    /// can be reported at its line).
    public static func entries(from text: String, options: [String: Kind]) throws(LineError) -> [(line: Int, arguments: [String])] {
        var entries: [(line: Int, arguments: [String])] = []
        // Lines end in LF or CRLF (a file from Windows): "\r\n" is one Character in Swift, so the
        // split is over scalars. A UTF-8 byte order mark (Notepad's) is no part of the first key.
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        let lines = scalars.split(separator: "\n", omittingEmptySubsequences: false).map { Substring($0) }
        for (index, raw) in lines.enumerated() {
            let trimmed = withoutComment(raw).trimmed
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw LineError(line: index + 1, reason: "expected 'key = value', got '\(trimmed)'")
            }
            let key = String(trimmed[..<equals]).trimmed, value = String(trimmed[trimmed.index(after: equals)...]).trimmed
            guard let kind = options[key] else {
                throw LineError(line: index + 1, reason: "unknown option '\(key)'")
            }
            switch kind {
            case .value:
                guard !value.isEmpty else { throw LineError(line: index + 1, reason: "'\(key)' needs a value") }
                entries.append((index + 1, ["--\(key)", value]))
            case .flag, .invertible:
                guard let on = ["true": true, "yes": true, "on": true, "false": false, "no": false, "off": false][value.lowercased()]
                else { throw LineError(line: index + 1, reason: "'\(key)' takes true or false, not '\(value)'") }
                if on { entries.append((index + 1, ["--\(key)"])) } else if kind == .invertible { entries.append((index + 1, ["--no-\(key)"])) }
            }
        }
        return entries
    }

    /// `$XDG_CONFIG_HOME/pipcam/config`, default `~/.config/pipcam/config`.
    public static func defaultPath(environment: (String) -> String?) -> String? {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") { return config + "/pipcam/config" }
        guard let home = environment("HOME"), !home.isEmpty else { return nil }
        return home + "/.config/pipcam/config"
    }
}

extension String {
    fileprivate var trimmed: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
