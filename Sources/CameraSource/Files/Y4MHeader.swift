import PipCore

/// The stream header of a YUV4MPEG2 file: `YUV4MPEG2 W<w> H<h> [F<n>:<d>] [I..] [A..] [C..] [X..]`.
struct Y4MHeader: Equatable {
    var width: Int
    var height: Int
    /// Frames per second from `F`, or nil when absent or `F0:0` (unknown).
    var fps: Double?
    var format: PixelFormat
    var range: ColorRange

    static let magic: [UInt8] = Array("YUV4MPEG2 ".utf8)
    /// Longest header line accepted; real ones are well under 100 bytes.
    static let maxLineLength = 4096

    /// Colour-space tags and the planar format each is stored in.
    static let colourSpaces: [(tag: String, format: PixelFormat)] = [
        ("420jpeg", .i420), ("420paldv", .i420), ("420", .i420), ("420mpeg2", .i420),
        ("422", .i422), ("444", .i444), ("mono", .gray),
    ]

    /// Parses a header line (magic included, newline excluded) that starts at byte 0 of the file.
    /// Errors name the byte offset and what was expected there, e.g. `bad header at byte 10: expected 'W<width>'`.
    static func parse(_ line: [UInt8]) throws(Y4MHeaderError) -> Y4MHeader {
        for (i, byte) in magic.enumerated() where i >= line.count || line[i] != byte {
            throw .bad(at: i, expected: "'YUV4MPEG2 '")
        }
        var width: Int?, height: Int?, fps: Double?
        var format = PixelFormat.i420, range = ColorRange.limited
        var position = magic.count
        while position < line.count {
            var tagEnd = position
            while tagEnd < line.count && line[tagEnd] != 0x20 { tagEnd += 1 }
            defer { position = tagEnd + 1 }
            guard tagEnd > position else { continue }
            let value = line[(position + 1)..<tagEnd]
            switch line[position] {
            case UInt8(ascii: "W"):
                guard let w = decimal(value), w > 0 else { throw .bad(at: position, expected: "'W<width>'") }
                width = w
            case UInt8(ascii: "H"):
                guard let h = decimal(value), h > 0 else { throw .bad(at: position, expected: "'H<height>'") }
                height = h
            case UInt8(ascii: "F"):
                guard let colon = value.firstIndex(of: UInt8(ascii: ":")),
                    let n = decimal(value[value.startIndex..<colon]), let d = decimal(value[(colon + 1)...]),
                    n == 0 || d > 0
                else { throw .bad(at: position, expected: "'F<num>:<den>'") }
                fps = n > 0 ? Double(n) / Double(d) : nil
                // As raw and MJPEG files: 31 years a frame, or a billion a second, is no video.
                if let fps, !(0.01...1000).contains(fps) {
                    throw .bad(at: position, expected: "a frame rate from 0.01 to 1000 ('F\(n):\(d)' is \(fps))")
                }
            case UInt8(ascii: "C"):
                let tag = String(decoding: value, as: UTF8.self)
                guard let match = colourSpaces.first(where: { $0.tag == tag }) else {
                    throw .unsupportedColourSpace("C" + tag)
                }
                format = match.format
            case UInt8(ascii: "X"):
                switch String(decoding: value, as: UTF8.self) {
                case "COLORRANGE=FULL": range = .full
                case "COLORRANGE=LIMITED": range = .limited
                default: break  // other extensions are not ours to judge
                }
            default:
                break  // I (interlacing) and A (pixel aspect) do not change how frames are read
            }
        }
        guard let width else { throw .bad(at: line.count, expected: "'W<width>'") }
        guard let height else { throw .bad(at: line.count, expected: "'H<height>'") }
        return Y4MHeader(width: width, height: height, fps: fps, format: format, range: range)
    }

    /// A run of ASCII digits as an Int (at most 9 digits, so it cannot overflow), else nil.
    static func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 9 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }
}

/// Why a Y4M header line was rejected.
enum Y4MHeaderError: Error, Equatable {
    case bad(at: Int, expected: String)
    case unsupportedColourSpace(String)

    var reason: String {
        switch self {
        case .bad(let offset, let expected): return "bad header at byte \(offset): expected \(expected)"
        case .unsupportedColourSpace(let tag):
            return "unsupported colour space '\(tag)' (expected C420jpeg, C420paldv, C420, C420mpeg2, C422, C444 or Cmono)"
        }
    }
}
