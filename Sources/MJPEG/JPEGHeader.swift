/// The parts of a baseline JPEG's headers the reduced decoder needs (ITU T.81 Annex B), parsed into
/// storage that is reused frame after frame. Anything outside the supported subset — progressive,
/// arithmetic or 12-bit coding, more than three components, several scans — makes `parse` fail so
/// the caller can hand the picture to libjpeg-turbo instead.
final class JPEGHeader {
    struct Component {
        var id: UInt8 = 0
        var horizontal = 1, vertical = 1
        var quantTable = 0
        var dcTable = 0, acTable = 0
    }

    private(set) var width = 0, height = 0
    /// Frame components, in the scan's order once the scan header is read.
    private(set) var components: [Component] = []
    private(set) var restartInterval = 0
    /// Offset of the first entropy-coded byte.
    private(set) var scanOffset = 0
    /// 4 tables × 64 quantizers, in zig-zag order as stored.
    private(set) var quant = [UInt16](repeating: 0, count: 4 * 64)
    /// Tables defined by the current picture (bit t: quantizer t; Huffman: DC t, AC t + 4). A camera
    /// that leaves out its Huffman tables relies on the standard ones, so nothing is carried over
    /// from an earlier picture.
    private var quantDefined: UInt8 = 0, huffmanDefined: UInt8 = 0
    let dc = (0..<4).map { _ in HuffmanTable(isDC: true) }
    let ac = (0..<4).map { _ in HuffmanTable(isDC: false) }

    init() { components.reserveCapacity(4) }

    /// Reads the headers up to the start of scan. Returns false when the stream is not a single-scan
    /// baseline (or extended sequential, 8-bit Huffman) JPEG with 1 or 3 components.
    func parse(_ data: UnsafeRawBufferPointer) -> Bool {
        let n = data.count
        guard n >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return false }
        var pos = 2
        var sawFrame = false
        restartInterval = 0
        quantDefined = 0
        huffmanDefined = 0
        var sawJFIF = false
        adobeTransform = nil
        while pos + 4 <= n {
            // Bytes where a marker should be (a segment one byte short; some webcams write them):
            // skipped up to the next marker, as libjpeg does.
            guard data[pos] == 0xFF else { pos += 1; continue }
            let marker = data[pos + 1]
            if marker == 0xFF { pos += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { pos += 2; continue }
            let length = Int(data[pos + 2]) << 8 | Int(data[pos + 3])
            let start = pos + 4, end = pos + 2 + length
            guard length >= 2, end <= n else { return false }
            let segment = UnsafeRawBufferPointer(rebasing: data[start..<end])
            switch marker {
            case 0xC0, 0xC1:
                guard frame(segment) else { return false }
                sawFrame = true
            case 0xC2, 0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                return false  // progressive, lossless, hierarchical or arithmetic
            case 0xC4:
                guard huffman(segment) else { return false }
            case 0xDB:
                guard quantization(segment) else { return false }
            case 0xDD:
                guard segment.count >= 2 else { return false }
                restartInterval = Int(segment[0]) << 8 | Int(segment[1])
            case 0xE0:
                if segment.count >= 5 && segment.starts(with: [0x4A, 0x46, 0x49, 0x46, 0]) { sawJFIF = true }  // "JFIF\0"
            case 0xEE:
                if segment.count >= 12 && segment.starts(with: [0x41, 0x64, 0x6F, 0x62, 0x65]) { adobeTransform = segment[11] }  // "Adobe"
            case 0xDA:
                guard sawFrame, !isRGB(sawJFIF: sawJFIF), scan(segment) else { return false }
                scanOffset = end
                return true
            case 0xD9:
                return false
            default:
                break  // APPn, COM, DNL…: nothing the picture needs
            }
            pos = end
        }
        return false
    }

    /// The Adobe APP14 segment's colour transform (0: none, the components are R, G, B).
    private var adobeTransform: UInt8?

    /// Whether three components are R, G, B rather than Y′CbCr, decided as libjpeg does: JFIF says
    /// Y′CbCr, else Adobe's transform, else component ids 'R', 'G', 'B'. libjpeg-turbo decodes those.
    private func isRGB(sawJFIF: Bool) -> Bool {
        guard components.count == 3, !sawJFIF else { return false }
        if let adobeTransform { return adobeTransform == 0 }
        return components.map(\.id) == [0x52, 0x47, 0x42]
    }

    private func frame(_ s: UnsafeRawBufferPointer) -> Bool {
        guard s.count >= 6, s[0] == 8 else { return false }
        height = Int(s[1]) << 8 | Int(s[2])
        width = Int(s[3]) << 8 | Int(s[4])
        let count = Int(s[5])
        guard width > 0, height > 0, count == 1 || count == 3, s.count >= 6 + 3 * count else { return false }
        components.removeAll(keepingCapacity: true)
        for i in 0..<count {
            let b = 6 + 3 * i
            let h = Int(s[b + 1] >> 4), v = Int(s[b + 1] & 15), tq = Int(s[b + 2])
            guard (1...4).contains(h), (1...4).contains(v), tq < 4 else { return false }
            components.append(Component(id: s[b], horizontal: h, vertical: v, quantTable: tq))
        }
        return true
    }

    /// Defines the tables of a DHT segment body; with `onlyMissing`, just those this picture has
    /// not defined.
    private func huffman(_ s: UnsafeRawBufferPointer, onlyMissing: Bool = false) -> Bool {
        var p = 0
        while p < s.count {
            guard p + 17 <= s.count else { return false }
            let tc = s[p] >> 4, th = Int(s[p] & 15)
            guard tc <= 1, th < 4 else { return false }
            let counts = UnsafeRawBufferPointer(rebasing: s[(p + 1)..<(p + 17)])
            let total = counts.reduce(0) { $0 + Int($1) }
            guard total <= 256, p + 17 + total <= s.count else { return false }
            let symbols = UnsafeRawBufferPointer(rebasing: s[(p + 17)..<(p + 17 + total)])
            let bit: UInt8 = 1 << (th + 4 * Int(tc))
            if !onlyMissing || huffmanDefined & bit == 0 {
                guard (tc == 0 ? dc[th] : ac[th]).define(counts: counts, symbols: symbols) else { return false }
                huffmanDefined |= bit
            }
            p += 17 + total
        }
        return true
    }

    private func quantization(_ s: UnsafeRawBufferPointer) -> Bool {
        var p = 0
        while p < s.count {
            let precision = Int(s[p] >> 4), table = Int(s[p] & 15)
            let size = precision == 0 ? 64 : 128
            guard precision <= 1, table < 4, p + 1 + size <= s.count else { return false }
            for k in 0..<64 {
                quant[table * 64 + k] = precision == 0
                    ? UInt16(s[p + 1 + k]) : UInt16(s[p + 1 + 2 * k]) << 8 | UInt16(s[p + 2 + 2 * k])
            }
            quantDefined |= 1 << table
            p += 1 + size
        }
        return true
    }

    private func scan(_ s: UnsafeRawBufferPointer) -> Bool {
        guard s.count >= 1 else { return false }
        let count = Int(s[0])
        guard count == components.count, s.count >= 1 + 2 * count + 3 else { return false }
        if huffmanDefined & 0x33 != 0x33 {  // the standard tables fill slots 0 and 1
            _ = StandardHuffmanTables.segment.withUnsafeBytes { huffman($0, onlyMissing: true) }
        }
        for i in 0..<count {
            let id = s[1 + 2 * i], tables = s[2 + 2 * i]
            // Reordered in place (a swap), so parsing allocates nothing.
            guard let j = components[i...].firstIndex(where: { $0.id == id }) else { return false }
            components.swapAt(i, j)
            components[i].dcTable = Int(tables >> 4)
            components[i].acTable = Int(tables & 15)
            let c = components[i]
            guard c.dcTable < 4, c.acTable < 4, huffmanDefined & (1 << c.dcTable) != 0,
                huffmanDefined & (1 << (c.acTable + 4)) != 0, quantDefined & (1 << c.quantTable) != 0
            else { return false }
        }
        let b = 1 + 2 * count
        return s[b] == 0 && s[b + 1] == 63 && s[b + 2] == 0  // one full sequential scan
    }
}
