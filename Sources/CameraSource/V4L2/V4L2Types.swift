import PipCore

/// A V4L2 pixel format code: four ASCII characters packed little-endian (`v4l2_fourcc`).
public struct FourCC: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The code of a four-character name such as `"YUYV"`.
    public init(_ name: StaticString) {
        precondition(name.utf8CodeUnitCount == 4, "a fourcc has four characters")
        let p = name.utf8Start
        rawValue = UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
    }

    public static let yuyv = FourCC("YUYV")
    public static let mjpeg = FourCC("MJPG")
    public static let jpeg = FourCC("JPEG")
    public static let nv12 = FourCC("NV12")
    /// Planar 4:2:0 (I420), V4L2's `YUV420`.
    public static let yu12 = FourCC("YU12")
    public static let rgb24 = FourCC("RGB3")
    /// Deprecated 32-bit B G R x; its successors `XR24`/`AR24` have the same byte order.
    public static let bgr32 = FourCC("BGR4")
    public static let xbgr32 = FourCC("XR24")
    public static let abgr32 = FourCC("AR24")
    public static let grey = FourCC("GREY")

    /// The frame format pipcam uses for this capture format, or nil when it cannot show it.
    public var pixelFormat: PixelFormat? {
        switch self {
        case .yuyv: return .yuyv
        case .mjpeg, .jpeg: return .mjpeg
        case .nv12: return .nv12
        case .yu12: return .i420
        case .rgb24: return .rgb24
        case .bgr32, .xbgr32, .abgr32: return .bgra
        case .grey: return .gray
        default: return nil
        }
    }

    /// The four characters, trailing spaces trimmed (`MJPG`, `YU12`); unprintable bytes as `?`.
    public var description: String {
        var s = ""
        for shift in stride(from: 0, to: 32, by: 8) {
            let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32(shift))
            s.append(byte >= 0x20 && byte < 0x7F ? Character(Unicode.Scalar(byte)) : "?")
        }
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}

/// A V4L2 fraction; as a frame interval it is seconds per frame (1/30 = 30 fps).
public struct V4L2Fraction: Hashable, Sendable, CustomStringConvertible {
    public var numerator: UInt32
    public var denominator: UInt32
    public init(_ numerator: UInt32, _ denominator: UInt32) {
        self.numerator = numerator
        self.denominator = denominator
    }
    /// The interval of `fps` whole frames per second.
    public static func interval(fps: UInt32) -> V4L2Fraction { V4L2Fraction(1, fps) }
    /// Frames per second when this is a frame interval (0 for a degenerate fraction).
    public var framesPerSecond: Double {
        numerator == 0 ? 0 : Double(denominator) / Double(numerator)
    }
    public var description: String { "\(numerator)/\(denominator)" }
}

/// What `VIDIOC_QUERYCAP` says about a device node.
public struct V4L2Capabilities: Sendable, Equatable {
    public var driver: String
    public var card: String
    public var busInfo: String
    /// The node's own capabilities (`device_caps` when the driver sets it, else `capabilities`).
    public var canCapture: Bool
    public var canStream: Bool
    /// `V4L2_CAP_IO_MC`: the node streams only once a media-controller pipeline is set up (the
    /// raw nodes of Intel IPU and other image-processor cameras), which pipcam does not do.
    public var isMediaControlled: Bool
    /// `V4L2_CAP_VIDEO_OUTPUT`: frames can be written to the node (a v4l2loopback with no writer).
    public var canOutput: Bool
    public init(
        driver: String, card: String, busInfo: String, canCapture: Bool, canStream: Bool, isMediaControlled: Bool = false,
        canOutput: Bool = false
    ) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.canCapture = canCapture
        self.canStream = canStream
        self.isMediaControlled = isMediaControlled
        self.canOutput = canOutput
    }

    /// The driver name v4l2loopback reports.
    public static let loopbackDriver = "v4l2 loopback"
    /// A v4l2loopback node (a virtual camera another process writes, or pipcam's `--share` target).
    public var isLoopback: Bool { driver == Self.loopbackDriver }
}

/// One entry of `VIDIOC_ENUM_FMT`.
public struct V4L2FormatDescription: Sendable, Equatable {
    public var fourcc: FourCC
    public var description: String
    public var isCompressed: Bool
    /// Offered by libv4l2 by converting another format in software (costs CPU in every DQBUF).
    public var isEmulated: Bool
    public init(fourcc: FourCC, description: String, isCompressed: Bool = false, isEmulated: Bool = false) {
        self.fourcc = fourcc
        self.description = description
        self.isCompressed = isCompressed
        self.isEmulated = isEmulated
    }
}

/// A frame width and height in pixels.
public struct V4L2Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public init(_ width: Int, _ height: Int) {
        self.width = width
        self.height = height
    }
    /// Width times height (a driver's sizes may be anything: saturated, not a trap).
    public var area: Int {
        let (product, over) = width.multipliedReportingOverflow(by: height)
        return over ? .max : product
    }
    public var description: String { "\(width)x\(height)" }
}

/// What `VIDIOC_ENUM_FRAMESIZES` says for one format.
public enum V4L2FrameSizes: Sendable, Equatable {
    /// A list of sizes (UVC cameras).
    case discrete([V4L2Size])
    /// Any size from `min` to `max` in steps (`step` of 1×1 means continuous).
    case stepwise(min: V4L2Size, max: V4L2Size, step: V4L2Size)
    /// The driver does not enumerate sizes.
    case unknown
}

/// What `VIDIOC_ENUM_FRAMEINTERVALS` says for one format and size.
public enum V4L2FrameIntervals: Sendable, Equatable {
    /// A list of intervals.
    case discrete([V4L2Fraction])
    /// Any interval from `min` (fastest) to `max` (slowest) in steps.
    case stepwise(min: V4L2Fraction, max: V4L2Fraction, step: V4L2Fraction)
    /// The driver does not enumerate intervals.
    case unknown
}

/// How the samples' colours are meant, as the driver's `v4l2_pix_format` says.
public enum V4L2Colorspace: Sendable, Equatable {
    case `default`, smpte170m, rec709, srgb, jpeg, bt2020, other
}

/// The Y′CbCr encoding (`ycbcr_enc`) of a format.
public enum V4L2YCbCrEncoding: Sendable, Equatable {
    case `default`, bt601, bt709, bt2020, other
}

/// The quantization (range) of a format.
public enum V4L2Quantization: Sendable, Equatable {
    case `default`, fullRange, limitedRange
}

/// A single-planar capture format (`v4l2_pix_format`), as asked for or as the driver set it.
public struct V4L2PixFormat: Sendable, Equatable {
    public var fourcc: FourCC
    public var width: Int
    public var height: Int
    /// Bytes from one row of the first plane to the next (0 when asking: the driver chooses).
    public var bytesPerLine: Int
    /// Bytes a buffer needs for a frame (the largest frame, for compressed formats).
    public var sizeImage: Int
    public var colorspace: V4L2Colorspace
    public var ycbcrEncoding: V4L2YCbCrEncoding
    public var quantization: V4L2Quantization
    public init(
        fourcc: FourCC, width: Int, height: Int, bytesPerLine: Int = 0, sizeImage: Int = 0,
        colorspace: V4L2Colorspace = .default, ycbcrEncoding: V4L2YCbCrEncoding = .default,
        quantization: V4L2Quantization = .default
    ) {
        self.fourcc = fourcc
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.sizeImage = sizeImage
        self.colorspace = colorspace
        self.ycbcrEncoding = ycbcrEncoding
        self.quantization = quantization
    }
}

/// A capture buffer mapped into this process.
public struct V4L2MappedBuffer: @unchecked Sendable {
    public var index: Int
    public var base: UnsafeMutableRawPointer
    public var length: Int
    public init(index: Int, base: UnsafeMutableRawPointer, length: Int) {
        self.index = index
        self.base = base
        self.length = length
    }
}

/// A filled buffer as `VIDIOC_DQBUF` hands it back.
public struct V4L2DequeuedBuffer: Sendable, Equatable {
    public var index: Int
    public var bytesUsed: Int
    /// The driver marked the data as corrupt (`V4L2_BUF_FLAG_ERROR`).
    public var hasError: Bool
    /// The timestamp is on `CLOCK_MONOTONIC` (`V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC`).
    public var hasMonotonicTimestamp: Bool
    public var timestamp: MonotonicInstant
    public var sequence: UInt32
    public init(
        index: Int, bytesUsed: Int, hasError: Bool = false, hasMonotonicTimestamp: Bool = true,
        timestamp: MonotonicInstant, sequence: UInt32
    ) {
        self.index = index
        self.bytesUsed = bytesUsed
        self.hasError = hasError
        self.hasMonotonicTimestamp = hasMonotonicTimestamp
        self.timestamp = timestamp
        self.sequence = sequence
    }
}
