import CameraSource
import PipCore

/// The one form requests and replies take on every wire: UTF-8 lines, a word first, then one
/// argument a line. Decoding is not parsing the user's text again: what arrives was made by a door
/// from a value it had already checked, and anything else is refused as a whole.
extension PipRequest {
    /// The bytes sent.
    public var encoded: [UInt8] { Array(lines.joined(separator: "\n").utf8) }

    private var lines: [String] {
        switch self {
        case .pip(let action): return [action.rawValue]
        case .status: return ["status"]
        case .quit: return ["quit"]
        case .switchSource(.next): return ["switch", "next"]
        case .switchSource(.source(_, let text)): return ["switch", "source", text]
        case .camera(.list): return ["controls"]
        case .camera(.set(let settings)): return ["set"] + settings
        case .camera(.reset(let name)): return ["reset"] + (name.map { [$0] } ?? [])
        case .playback(.play): return ["play"]
        case .playback(.pause): return ["pause"]
        case .playback(.toggle): return ["play-pause"]
        case .playback(.seek(let target)): return ["seek"] + target.encodedWords
        }
    }

    /// The request `bytes` hold; nil for anything else.
    public init?(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let arguments = Array(lines.dropFirst())
        switch (lines[0], arguments.count) {
        case ("status", 0): self = .status
        case ("quit", 0): self = .quit
        case ("controls", 0): self = .camera(.list)
        case ("set", 1...) where arguments.allSatisfy(ControlSettingText.isWellFormed): self = .camera(.set(arguments))
        case ("reset", 0): self = .camera(.reset(nil))
        case ("reset", 1) where !arguments[0].isEmpty && !arguments[0].contains("="): self = .camera(.reset(arguments[0]))
        case ("play", 0): self = .playback(.play)
        case ("pause", 0): self = .playback(.pause)
        case ("play-pause", 0): self = .playback(.toggle)
        case ("seek", 2): guard let target = SeekTarget(encodedWords: arguments) else { return nil }; self = .playback(.seek(target))
        case ("switch", 1) where arguments[0] == "next": self = .switchSource(.next)
        case ("switch", 2) where arguments[0] == "source":
            guard let spec = try? SourceSpec.parse(arguments[1]), !spec.readsStandardInput else { return nil }
            self = .switchSource(.source(spec, text: arguments[1]))
        case (let word, 0):
            guard let action = PipAction(rawValue: word) else { return nil }
            self = .pip(action)
        default: return nil
        }
    }

    /// What a door received, as a request or the reply that turns it away.
    public static func decode(_ received: ControlWire.Received) -> Decoded {
        switch received {
        case .tooLong: return .refused(.failed("pipcam: the request is longer than \(ControlWire.requestLimit) bytes, the most pipcam reads"))
        case .request(let bytes):
            guard let request = PipRequest(bytes) else { return .refused(.failed("pipcam: not a request pipcam knows")) }
            return .request(request)
        }
    }

    /// A received request, or the answer that refuses it.
    public enum Decoded: Sendable, Equatable {
        case request(PipRequest)
        case refused(PipReply)
    }
}

/// `NAME=VALUE` as `set` takes it, before the camera's controls are known.
public enum ControlSettingText {
    public static func isWellFormed(_ text: String) -> Bool { text.contains("=") && !text.hasPrefix("=") && !text.contains("\n") }
}

extension SeekTarget {
    /// Two words: the kind and its number, written so that they read back exactly.
    var encodedWords: [String] {
        switch self {
        case .seconds(let s): return ["seconds", "\(s)"]
        case .relative(let s): return ["relative", "\(s)"]
        case .frame(let n): return ["frame", "\(n)"]
        }
    }

    init?(encodedWords words: [String]) {
        switch words[0] {
        case "seconds": guard let s = Double(words[1]), s.isFinite, s >= 0 else { return nil }; self = .seconds(s)
        case "relative": guard let s = Double(words[1]), s.isFinite else { return nil }; self = .relative(s)
        case "frame": guard let n = Int(words[1]), n >= 0 else { return nil }; self = .frame(n)
        default: return nil
        }
    }
}

extension PipReply {
    /// The bytes sent: `done` or `failed`, a newline, then the text or the line.
    public var encoded: [UInt8] {
        switch self {
        case .done(let text): return Array("done\n\(text)".utf8)
        case .failed(let line): return Array("failed\n\(line)".utf8)
        }
    }

    /// The reply `bytes` hold; nil for anything else.
    public init?(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let newline = text.firstIndex(of: "\n") else { return nil }
        let rest = String(text[text.index(after: newline)...])
        switch text[..<newline] {
        case "done": self = .done(rest)
        case "failed": self = .failed(rest)
        default: return nil
        }
    }
}
