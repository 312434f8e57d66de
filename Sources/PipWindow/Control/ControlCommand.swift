/// What `pipcam toggle|start|stop|status|quit` asks a running instance to do.
///
/// Commands other than `status` travel as a ClientMessage of type `_PIPCAM_COMMAND` to the
/// instance's control window, with the code in `data.l[0]`; unknown codes are ignored.
public enum ControlCommand: String, Sendable, CaseIterable {
    case toggle, start, stop, status, quit

    /// The code sent in the ClientMessage (nil for `status`, which is a selection conversion only).
    public var code: Int? {
        switch self {
        case .toggle: return 1
        case .start: return 2
        case .stop: return 3
        case .quit: return 4
        case .status: return nil
        }
    }

    /// The command a ClientMessage code stands for; nil for anything else (garbage is ignored).
    public init?(code: Int) {
        guard let found = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = found
    }
}

/// How instances are found: each owns the X selection `_PIPCAM_S<screen>` (or
/// `_PIPCAM_S<screen>_<name>` with `--name`), like window managers own `WM_S<screen>`.
public enum InstanceName {
    /// The selection atom's name for `name` on `screen`.
    public static func selection(screen: Int32, name: String?) -> String {
        "_PIPCAM_S\(screen)" + (name.map { "_" + $0 } ?? "")
    }

    /// Checks a `--name`: 1 to 64 letters, digits, `-`, `_` or `.`; returns a one-line reason if not.
    public static func problem(with name: String) -> String? {
        guard !name.isEmpty, name.utf8.count <= 64 else { return "--name: '\(name)' must be 1 to 64 characters" }
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)
        }
        return allowed ? nil : "--name: '\(name)' may hold only letters, digits, '-', '_' and '.'"
    }

    /// The instance a `--name` means: nil (the unnamed one) for `none`, which undoes a config
    /// file's `name`.
    public static func given(_ text: String?) -> String? { text == "none" ? nil : text }

    /// How messages name an instance: ":3" or ":3 (name 'cam')".
    public static func describe(display: String, name: String?) -> String {
        display + (name.map { " (name '\($0)')" } ?? "")
    }
}

/// The answer to `pipcam switch`: the text an instance writes to the requestor's property once the
/// new source shows its first frame, or once the switch failed.
public enum SwitchReply: Sendable, Equatable {
    /// Switched; the source's name as `status` gives it now.
    case switched(source: String)
    /// Not switched (the old source stays), with the one line to print.
    case failed(String)

    /// The bytes sent: `switched` or `failed`, a newline, then the name or the line.
    public var encoded: [UInt8] {
        switch self {
        case .switched(let source): return WordedReply.encode("switched", source)
        case .failed(let line): return WordedReply.encode("failed", line)
        }
    }

    /// The reply `bytes` hold; nil for anything else.
    public init?(_ bytes: [UInt8]) {
        switch WordedReply.decode(bytes) {
        case ("switched", let rest)?: self = .switched(source: rest)
        case ("failed", let rest)?: self = .failed(rest)
        default: return nil
        }
    }
}

/// How the instance's answers travel: a word saying what happened, a newline, then the text.
enum WordedReply {
    static func encode(_ word: String, _ text: String) -> [UInt8] { Array("\(word)\n\(text)".utf8) }

    /// The word and the text `bytes` hold; nil without a newline.
    static func decode(_ bytes: [UInt8]) -> (word: String, text: String)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return nil }
        return (String(text[..<newline]), String(text[text.index(after: newline)...]))
    }
}
