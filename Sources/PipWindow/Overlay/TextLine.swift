/// A line of text pipcam writes itself (who holds the camera), drawn from the glyph cells of
/// `assets/glyphs.pgm`: printable ASCII (32…126) in one monospaced row, each glyph centred in a
/// cell of the same size. Other characters are drawn as `?`.
public enum TextLine {
    /// The first and last characters the atlas has.
    static let first: UInt8 = 32, last: UInt8 = 126

    /// `text` as one mask, at most `maxCharacters` long (cut with "..." past that).
    public static func mask(_ text: String, doubleSize: Bool = false, maxCharacters: Int = 60) -> AlphaMask? {
        guard let atlas = doubleSize ? atlas2x : atlas1x else { return nil }
        var bytes = text.unicodeScalars.map { $0.value >= first && $0.value <= last ? UInt8($0.value) : UInt8(ascii: "?") }
        if bytes.count > maxCharacters { bytes = Array(bytes.prefix(max(0, maxCharacters - 3))) + Array("...".utf8) }
        guard !bytes.isEmpty else { return nil }
        let cell = atlas.width / Int(last - first + 1), height = atlas.height
        var alpha = [UInt8](repeating: 0, count: cell * bytes.count * height)
        let width = cell * bytes.count
        for (i, byte) in bytes.enumerated() {
            let from = Int(byte - first) * cell
            for y in 0..<height {
                for x in 0..<cell { alpha[y * width + i * cell + x] = atlas.alpha[y * atlas.width + from + x] }
            }
        }
        return AlphaMask(width: width, height: height, alpha: alpha)
    }

    private static let atlas1x = AlphaMask.asset("glyphs")
    private static let atlas2x = AlphaMask.asset("glyphs", doubleSize: true)
}
