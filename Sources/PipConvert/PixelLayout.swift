/// A 32-bits-per-pixel destination format, described by where red, green and blue sit in the
/// pixel word (the masks of an X visual, e.g. 0xFF0000/0xFF00/0xFF for the usual depth-24 visual,
/// which on a little-endian machine is the byte sequence B, G, R, X).
///
/// Pixels are stored as native-endian `UInt32` words. Every bit not covered by a colour mask (the
/// padding or alpha byte) is written as 1, so an ARGB visual shows the picture opaque.
public struct PixelLayout: Sendable, Equatable, CustomStringConvertible {
    /// Bit position of the red, green and blue bytes in the pixel word.
    public let redShift: Int
    public let greenShift: Int
    public let blueShift: Int

    /// The layout with these masks, or nil unless the pixel is 32 bits and each mask is one whole,
    /// byte-aligned 8-bit channel (distinct from the others).
    public init?(redMask: UInt, greenMask: UInt, blueMask: UInt, bitsPerPixel: Int) {
        guard bitsPerPixel == 32,
            let r = Self.byteShift(of: redMask), let g = Self.byteShift(of: greenMask),
            let b = Self.byteShift(of: blueMask), r != g, g != b, r != b
        else { return nil }
        redShift = r
        greenShift = g
        blueShift = b
    }

    /// The layout of images on a visual. The masks are of pixel values, which the server reads in
    /// its image byte order; pixels are written as this machine's words, so on a server of the
    /// other byte order each channel sits in the mirrored byte of the word.
    public init?(_ visual: VisualMasks) {
        let swapped = visual.imageMSBFirst != (1.bigEndian == 1)
        func word(_ mask: UInt) -> UInt { swapped ? UInt(UInt32(truncatingIfNeeded: mask).byteSwapped) : mask }
        self.init(
            redMask: word(visual.red), greenMask: word(visual.green), blueMask: word(visual.blue),
            bitsPerPixel: visual.bitsPerPixel)
    }

    /// X's common 24-bit-in-32 layout: 0x00RRGGBB (bytes B, G, R, X in memory on little-endian).
    public static let xrgb = PixelLayout(redMask: 0xFF0000, greenMask: 0xFF00, blueMask: 0xFF, bitsPerPixel: 32)!

    /// The bits outside the three colour channels, written as ones.
    public var fillBits: UInt32 {
        ~((0xFF << UInt32(redShift)) | (0xFF << UInt32(greenShift)) | (0xFF << UInt32(blueShift)))
    }

    /// The pixel word for an 8-bit-per-channel colour.
    @inline(__always)
    public func pixel(red: UInt8, green: UInt8, blue: UInt8) -> UInt32 {
        UInt32(red) << UInt32(redShift) | UInt32(green) << UInt32(greenShift)
            | UInt32(blue) << UInt32(blueShift) | fillBits
    }

    /// The colour channels of a pixel word.
    public func components(of pixel: UInt32) -> (red: UInt8, green: UInt8, blue: UInt8) {
        (UInt8(truncatingIfNeeded: pixel >> UInt32(redShift)),
         UInt8(truncatingIfNeeded: pixel >> UInt32(greenShift)),
         UInt8(truncatingIfNeeded: pixel >> UInt32(blueShift)))
    }

    /// Black, as written into the bars.
    public var black: UInt32 { fillBits }

    public var description: String { "PixelLayout(r<<\(redShift), g<<\(greenShift), b<<\(blueShift))" }

    private static func byteShift(of mask: UInt) -> Int? {
        for shift in stride(from: 0, through: 24, by: 8) where mask == UInt(0xFF) << UInt(shift) {
            return shift
        }
        return nil
    }
}

/// A visual's red, green and blue masks, its bits per pixel and the server's image byte order.
public struct VisualMasks: Sendable, Equatable {
    public var red: UInt, green: UInt, blue: UInt
    public var bitsPerPixel: Int
    /// X's `ImageByteOrder` is `MSBFirst`.
    public var imageMSBFirst: Bool

    public init(red: UInt, green: UInt, blue: UInt, bitsPerPixel: Int, imageMSBFirst: Bool) {
        (self.red, self.green, self.blue) = (red, green, blue)
        self.bitsPerPixel = bitsPerPixel
        self.imageMSBFirst = imageMSBFirst
    }
}
