/// The memory layout of a frame's pixels.
public enum PixelFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Packed 4:2:2, bytes Y0 U Y1 V (V4L2 `YUYV`).
    case yuyv
    /// Planar 4:2:0: Y, then U and V at half width and height.
    case i420
    /// Semi-planar 4:2:0: Y, then interleaved U V at half width and height.
    case nv12
    /// Planar 4:2:2: Y, then U and V at half width, full height.
    case i422
    /// Planar 4:4:4: Y, U and V at full size.
    case i444
    /// Luma only.
    case gray
    /// Packed 32-bit, bytes B G R A (alpha ignored).
    case bgra
    /// Packed 24-bit, bytes R G B.
    case rgb24
    /// One JPEG image per frame, as cameras send it (decoded before display).
    case mjpeg

    public var description: String { rawValue }

    /// Number of planes the format stores.
    public var planeCount: Int {
        switch self {
        case .i420, .i422, .i444: return 3
        case .nv12: return 2
        case .yuyv, .gray, .bgra, .rgb24, .mjpeg: return 1
        }
    }

    /// Whether the samples are Y′CbCr (and so need a colour matrix).
    public var isYUV: Bool {
        switch self {
        case .bgra, .rgb24: return false
        case .yuyv, .i420, .nv12, .i422, .i444, .gray, .mjpeg: return true
        }
    }

    /// Bytes a tightly packed frame of this size occupies, or nil for compressed formats.
    public func frameByteCount(width: Int, height: Int) -> Int? {
        packedLayout(width: width, height: height)?.byteCount
    }

    /// The tightly packed plane layout of a frame of this size, or nil for compressed formats.
    public func packedLayout(width: Int, height: Int) -> PlaneLayout? {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        switch self {
        case .yuyv: return PlaneLayout(count: 1, strides: (2 * ((width + 1) & ~1), 0, 0), rows: (height, 0, 0))
        case .i420: return PlaneLayout(count: 3, strides: (width, cw, cw), rows: (height, ch, ch))
        case .nv12: return PlaneLayout(count: 2, strides: (width, 2 * cw, 0), rows: (height, ch, 0))
        case .i422: return PlaneLayout(count: 3, strides: (width, cw, cw), rows: (height, height, height))
        case .i444: return PlaneLayout(count: 3, strides: (width, width, width), rows: (height, height, height))
        case .gray: return PlaneLayout(count: 1, strides: (width, 0, 0), rows: (height, 0, 0))
        case .bgra: return PlaneLayout(count: 1, strides: (4 * width, 0, 0), rows: (height, 0, 0))
        case .rgb24: return PlaneLayout(count: 1, strides: (3 * width, 0, 0), rows: (height, 0, 0))
        case .mjpeg: return nil
        }
    }
}

/// Strides and row counts of up to three planes stored one after another (no allocation).
public struct PlaneLayout: Sendable, Equatable {
    public var count: Int
    public var strides: (Int, Int, Int)
    public var rows: (Int, Int, Int)
    public init(count: Int, strides: (Int, Int, Int), rows: (Int, Int, Int)) {
        self.count = count
        self.strides = strides
        self.rows = rows
    }
    /// Byte offset of each plane from the start of the buffer.
    public var offsets: (Int, Int, Int) {
        let o1 = strides.0 * rows.0
        return (0, o1, o1 + strides.1 * rows.1)
    }
    /// Total bytes of all planes.
    public var byteCount: Int { strides.0 * rows.0 + strides.1 * rows.1 + strides.2 * rows.2 }
    public static func == (a: PlaneLayout, b: PlaneLayout) -> Bool {
        a.count == b.count && a.strides == b.strides && a.rows == b.rows
    }
}

/// Which Y′CbCr→RGB matrix the samples were encoded with.
public enum ColorMatrix: String, Sendable { case bt601, bt709 }

/// Whether Y′CbCr samples use limited ("TV", 16–235/240) or full (0–255) range.
public enum ColorRange: String, Sendable { case limited, full }

/// Colour interpretation of a frame's samples.
public struct Colorimetry: Sendable, Equatable {
    public var matrix: ColorMatrix
    public var range: ColorRange
    public init(matrix: ColorMatrix, range: ColorRange) {
        self.matrix = matrix
        self.range = range
    }
    /// The usual guess when a stream does not say: BT.709 for HD, BT.601 below, limited range.
    public static func standard(forHeight height: Int) -> Colorimetry {
        Colorimetry(matrix: height >= 720 ? .bt709 : .bt601, range: .limited)
    }
    /// JPEG/JFIF: BT.601 matrix, full range.
    public static let jpeg = Colorimetry(matrix: .bt601, range: .full)
}
