/// What `pipcam controls` and `pipcam set` ask a running instance about its camera's controls:
/// sent as the parameter of a `_PIPCAM_CAMERA` conversion, answered at once with a `CameraReply`.
public enum CameraRequest: Sendable, Equatable {
    /// The camera's controls, listed.
    case list
    /// Set controls: `NAME=VALUE` each.
    case set([String])
    /// Controls back to their defaults: the one named, or every one when nil.
    case reset(String?)

    /// The bytes sent: the word, then one argument a line.
    public var encoded: [UInt8] {
        switch self {
        case .list: return Array("list".utf8)
        case .set(let settings): return Array((["set"] + settings).joined(separator: "\n").utf8)
        case .reset(let name): return Array((["reset"] + (name.map { [$0] } ?? [])).joined(separator: "\n").utf8)
        }
    }

    /// The request `bytes` hold; nil for anything else.
    public init?(_ bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch (lines.first, lines.count) {
        case ("list"?, 1): self = .list
        case ("set"?, 2...): self = .set(Array(lines.dropFirst()))
        case ("reset"?, 1): self = .reset(nil)
        case ("reset"?, 2): self = .reset(lines[1])
        default: return nil
        }
    }
}

/// The answer to a `CameraRequest`: text for standard output, or the one line saying why not.
public enum CameraReply: Sendable, Equatable {
    case done(String)
    case failed(String)

    /// The bytes sent: `done` or `failed`, a newline, then the text or the line.
    public var encoded: [UInt8] {
        switch self {
        case .done(let text): return WordedReply.encode("done", text)
        case .failed(let line): return WordedReply.encode("failed", line)
        }
    }

    /// The reply `bytes` hold; nil for anything else.
    public init?(_ bytes: [UInt8]) {
        switch WordedReply.decode(bytes) {
        case ("done", let rest)?: self = .done(rest)
        case ("failed", let rest)?: self = .failed(rest)
        default: return nil
        }
    }
}
