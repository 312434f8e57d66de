/// Where `pipcam seek` (or a key, or a media player's control) sends a file's playback.
public enum SeekTarget: Sendable, Equatable {
    /// To this time from the start, in seconds.
    case seconds(Double)
    /// By this many seconds from the frame shown now (negative: back).
    case relative(Double)
    /// To this frame, counted from 0.
    case frame(Int)

    /// `+10` / `-2.5` (relative seconds), `90` or `1:30` or `1:02:03` (from the start), `f120`
    /// (a frame); nil for anything else.
    public static func parse(_ text: String) -> SeekTarget? {
        if text.hasPrefix("f") {
            let digits = text.dropFirst()
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            // More digits than an Int holds: past any file's end, so its last frame.
            return .frame(Int(digits) ?? .max)
        }
        if let sign = text.first, sign == "+" || sign == "-" {
            guard let amount = Double(text.dropFirst()), amount.isFinite, amount >= 0, !text.dropFirst().hasPrefix("+") else { return nil }
            return .relative(sign == "-" ? -amount : amount)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var seconds = 0.0
        for (i, part) in parts.enumerated() {
            let last = i == parts.count - 1
            // Minutes and hours are whole; only the seconds may have a fraction.
            guard !part.isEmpty, part.allSatisfy({ $0.isNumber || (last && $0 == ".") }), let value = Double(part), value.isFinite else { return nil }
            if i > 0 && value >= 60 { return nil }
            seconds = seconds * 60 + value
        }
        return .seconds(seconds)
    }
}
