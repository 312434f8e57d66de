/// A JSON value whose objects keep their keys in the order given (the `pipcam status` contract
/// fixes the field order, which a dictionary would lose).
public indirect enum JSONText: Sendable, Equatable {
    case string(String)
    case integer(Int)
    /// Written with at most `decimals` digits after the point; NaN and infinities become 0.
    case number(Double, decimals: Int)
    case bool(Bool)
    case null
    case object([(String, JSONText)])

    public static func == (a: JSONText, b: JSONText) -> Bool { a.encoded == b.encoded }

    /// The value as compact JSON text (no spaces, no newline).
    public var encoded: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let s): Self.writeString(s, to: &out)
        case .integer(let i): out += String(i)
        case .number(let d, let decimals): out += Self.format(d, decimals: decimals)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .object(let fields):
            out += "{"
            for (i, (key, value)) in fields.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    /// RFC 8259: quotes, backslashes and control characters escaped; other text stays UTF-8.
    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    static func format(_ d: Double, decimals: Int) -> String {
        guard d.isFinite else { return "0.0" }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        // A number too large for `d * scale` (infinity, which JSON cannot say) has no decimals to round.
        let product = d * scale
        let rounded = product.isFinite ? product.rounded() / scale : d
        // Swift prints the shortest text that reads back as the same Double: "30.0", "29.97", "1e-05"
        // are all JSON numbers; "-0.0" is too, but reads oddly.
        return rounded == 0 ? "0.0" : rounded.description
    }
}
