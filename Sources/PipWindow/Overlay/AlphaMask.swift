/// An 8-bit coverage mask (0 transparent … 255 opaque): an icon or a line of text from `assets/`.
public struct AlphaMask: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let alpha: [UInt8]

    public init(width: Int, height: Int, alpha: [UInt8]) {
        precondition(alpha.count == width * height)
        self.width = width
        self.height = height
        self.alpha = alpha
    }

    /// Parses a binary PGM (`P5`, maxval 255), as `scripts/make-assets` writes them.
    public init?(pgm bytes: [UInt8]) {
        var fields: [Int] = []
        var i = 2
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "5") else { return nil }
        while fields.count < 3 && i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "#") {
                while i < bytes.count && bytes[i] != 10 { i += 1 }
            } else if c >= 48 && c <= 57 {
                var value = 0
                while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                    value = value * 10 + Int(bytes[i] - 48)
                    i += 1
                }
                fields.append(value)
                continue
            }
            i += 1
        }
        // Exactly one whitespace byte separates the header from the samples.
        i += 1
        guard fields.count == 3, fields[2] == 255, fields[0] > 0, fields[1] > 0,
            bytes.count - i >= fields[0] * fields[1]
        else { return nil }
        self.init(width: fields[0], height: fields[1], alpha: Array(bytes[i..<(i + fields[0] * fields[1])]))
    }

    /// A mask of `assets/NAME.pgm` (or `NAME@2x.pgm` when `doubleSize`), from the copy built into the binary.
    public static func asset(_ name: String, doubleSize: Bool = false) -> AlphaMask? {
        let file = doubleSize ? "\(name)@2x.pgm" : "\(name).pgm"
        guard let text = EmbeddedAssets.files[file], let bytes = Base64.decode(text) else { return nil }
        return AlphaMask(pgm: bytes)
    }
}

/// Just enough base64 to unpack the embedded assets (no Foundation in this module).
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        var table = [UInt8](repeating: 255, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(c)] = UInt8(i)
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0, bits = 0
        for c in text.utf8 where c != UInt8(ascii: "=") {
            let v = table[Int(c)]
            guard v != 255 else { return nil }
            buffer = buffer << 6 | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}
