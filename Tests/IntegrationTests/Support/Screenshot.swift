import Foundation
import TestSupport

/// An RGB colour with channels 0...255 (Double, so means stay exact).
struct RGB: Sendable, Equatable, CustomStringConvertible {
    var red: Double, green: Double, blue: Double
    init(_ red: Double, _ green: Double, _ blue: Double) { self.red = red; self.green = green; self.blue = blue }
    /// The largest per-channel difference.
    func distance(to other: RGB) -> Double {
        max(abs(red - other.red), abs(green - other.green), abs(blue - other.blue))
    }
    var description: String { String(format: "rgb(%.1f, %.1f, %.1f)", red, green, blue) }
}

/// A screenshot: `width`x`height` pixels, 3 bytes (R, G, B) each, rows top to bottom.
struct Screenshot: Sendable {
    let width: Int
    let height: Int
    let rgb: [UInt8]

    func pixel(_ x: Int, _ y: Int) -> RGB {
        let offset = (y * width + x) * 3
        return RGB(Double(rgb[offset]), Double(rgb[offset + 1]), Double(rgb[offset + 2]))
    }

    /// The part inside `rect` (in this image's coordinates, clipped to it).
    func cropped(to rect: XRect) -> Screenshot {
        let clip = rect.intersection(XRect(x: 0, y: 0, width: width, height: height))
        var bytes = [UInt8]()
        bytes.reserveCapacity(clip.width * clip.height * 3)
        for y in clip.y..<clip.maxY {
            let start = (y * width + clip.x) * 3
            bytes += rgb[start..<start + clip.width * 3]
        }
        return Screenshot(width: clip.width, height: clip.height, rgb: bytes)
    }

    /// Which way the test pattern's colour bars run along the line through the middle (down it
    /// when `vertical`): of 64 samples, the steps darker less the steps lighter. The bars darken
    /// from the picture's left (white) to its right (black), one step back up where they wrap as
    /// they scroll, so this is about 7 when the picture's left comes first and -7 when its right does.
    func barsDarkening(vertical: Bool) -> Int {
        let length = vertical ? height : width
        let luma = (0..<64).map { i -> Double in
            let t = (2 * i + 1) * length / 128
            let p = vertical ? pixel(width / 2, t) : pixel(t, height / 2)
            return 0.299 * p.red + 0.587 * p.green + 0.114 * p.blue
        }
        let steps = zip(luma, luma.dropFirst())
        return steps.filter { $1 < $0 - 8 }.count - steps.filter { $1 > $0 + 8 }.count
    }

    /// The mean colour of `rect` (the whole image when nil).
    func meanColor(in rect: XRect? = nil) -> RGB {
        let region = rect.map { cropped(to: $0) } ?? self
        let count = Double(max(1, region.width * region.height))
        var sums = (0, 0, 0)
        for index in stride(from: 0, to: region.rgb.count, by: 3) {
            sums.0 += Int(region.rgb[index]); sums.1 += Int(region.rgb[index + 1]); sums.2 += Int(region.rgb[index + 2])
        }
        return RGB(Double(sums.0) / count, Double(sums.1) / count, Double(sums.2) / count)
    }

    /// How many colours, each channel in steps of 32, cover at least `fraction` of the image: the
    /// large areas of colour, leaving out edges and small marks.
    func commonColorCount(fraction: Double = 0.05) -> Int {
        var counts: [UInt32: Int] = [:]
        for index in stride(from: 0, to: rgb.count, by: 3) {
            counts[UInt32(rgb[index] >> 5) << 16 | UInt32(rgb[index + 1] >> 5) << 8 | UInt32(rgb[index + 2] >> 5), default: 0] += 1
        }
        let least = fraction * Double(max(1, width * height))
        return counts.values.filter { Double($0) >= least }.count
    }

    /// How many distinct colours the image has (a blank or solid area has 1).
    var distinctColorCount: Int {
        var seen = Set<UInt32>()
        for index in stride(from: 0, to: rgb.count, by: 3) {
            seen.insert(UInt32(rgb[index]) << 16 | UInt32(rgb[index + 1]) << 8 | UInt32(rgb[index + 2]))
        }
        return seen.count
    }

    /// The fraction (0...1) of pixels whose channels differ by more than `tolerance` from
    /// the same pixel of `other`. Both must have the same size.
    func fractionDiffering(from other: Screenshot, tolerance: UInt8 = 16) -> Double {
        precondition(width == other.width && height == other.height, "comparing \(width)x\(height) with \(other.width)x\(other.height)")
        var differing = 0
        for index in stride(from: 0, to: rgb.count, by: 3) {
            for channel in 0..<3 where absDiff(rgb[index + channel], other.rgb[index + channel]) > tolerance {
                differing += 1
                break
            }
        }
        return Double(differing) / Double(max(1, width * height))
    }

    /// Writes a binary PPM (for looking at a failure: `display file.ppm`).
    func writePPM(to path: String) throws {
        var data = Data("P6\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: rgb)
        try data.write(to: URL(fileURLWithPath: path))
    }

    private func absDiff(_ a: UInt8, _ b: UInt8) -> UInt8 { a > b ? a - b : b - a }
}

extension XServer {
    /// What the screen shows inside `rect` (the whole screen when nil), via `xwd -root`.
    func screenshot(_ rect: XRect? = nil) throws -> Screenshot {
        let result = try runChecked(["xwd", "-root", "-silent"])
        return try XWD.decode(result.stdout, region: rect)
    }

    /// What `window` itself holds (`xwd -id`): under a compositor, what its client drew, whatever
    /// the screen shows.
    func windowContents(_ window: XWindowID) throws -> Screenshot {
        try XWD.decode(runChecked(["xwd", "-id", "\(window)", "-silent"]).stdout)
    }

    /// What the screen shows where `window` is (its own area, without decorations).
    func screenshot(of window: XWindowID) throws -> Screenshot {
        try screenshot(geometry(of: window))
    }
}

/// The X Window Dump format that `xwd` writes (XWDFile.h): a big-endian header of 25 CARD32,
/// the window name, `ncolors` 12-byte colour entries, then the pixels in ZPixmap format.
enum XWD {
    /// Decodes the dump, only the part inside `region` when given (clipped to the image).
    static func decode(_ data: Data, region: XRect? = nil) throws -> Screenshot {
        let bytes = [UInt8](data)
        func card32(_ index: Int) -> Int {
            let offset = index * 4
            guard offset + 4 <= bytes.count else { return -1 }
            return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        let headerSize = card32(0), version = card32(1), format = card32(2)
        let width = card32(4), height = card32(5), byteOrder = card32(7)
        let bitsPerPixel = card32(11), bytesPerLine = card32(12)
        let masks = (card32(14), card32(15), card32(16))
        let colorCount = card32(19)
        guard version == 7, format == 2, bitsPerPixel == 32 || bitsPerPixel == 24 else {
            throw HarnessError("xwd: unsupported dump (version \(version), format \(format), \(bitsPerPixel) bpp)")
        }
        let pixelStart = headerSize + colorCount * 12
        guard width > 0, height > 0, pixelStart + bytesPerLine * height <= bytes.count else {
            throw HarnessError("xwd: truncated dump (\(bytes.count) bytes for \(width)x\(height))")
        }
        let shifts = (masks.0.trailingZeroBitCount, masks.1.trailingZeroBitCount, masks.2.trailingZeroBitCount)
        let pixelBytes = bitsPerPixel / 8
        let clip = (region ?? XRect(x: 0, y: 0, width: width, height: height))
            .intersection(XRect(x: 0, y: 0, width: width, height: height))
        var rgb = [UInt8](repeating: 0, count: clip.width * clip.height * 3)
        bytes.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                var out = 0
                for y in clip.y..<clip.maxY {
                    var offset = pixelStart + y * bytesPerLine + clip.x * pixelBytes
                    for _ in 0..<clip.width {
                        var value = 0
                        for byte in 0..<pixelBytes {
                            let b = Int(source[offset + byte])
                            value |= byteOrder == 0 ? b << (8 * byte) : b << (8 * (pixelBytes - 1 - byte))
                        }
                        target[out] = UInt8(truncatingIfNeeded: (value & masks.0) >> shifts.0)
                        target[out + 1] = UInt8(truncatingIfNeeded: (value & masks.1) >> shifts.1)
                        target[out + 2] = UInt8(truncatingIfNeeded: (value & masks.2) >> shifts.2)
                        offset += pixelBytes
                        out += 3
                    }
                }
            }
        }
        return Screenshot(width: clip.width, height: clip.height, rgb: rgb)
    }
}
