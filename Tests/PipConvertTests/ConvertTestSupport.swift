import CameraSource
import PipCore
import TestSupport
import Testing
@testable import PipConvert

/// A source frame in owned memory, planes allocated separately with `padding` extra bytes per row.
final class TestFrame {
    let format: PixelFormat
    let width: Int
    let height: Int
    let colorimetry: Colorimetry
    private(set) var planes: [UnsafeMutableRawBufferPointer] = []
    private(set) var strides: [Int] = []

    init(_ format: PixelFormat, width: Int, height: Int, padding: Int = 0,
         colorimetry: Colorimetry = Colorimetry(matrix: .bt601, range: .limited),
         fill: (Int, Int, Int) -> UInt8) {
        self.format = format
        self.width = width
        self.height = height
        self.colorimetry = colorimetry
        let layout = format.packedLayout(width: width, height: height)!
        let s = [layout.strides.0, layout.strides.1, layout.strides.2]
        let r = [layout.rows.0, layout.rows.1, layout.rows.2]
        for p in 0..<layout.count {
            let stride = s[p] + padding
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: stride * r[p], alignment: 16)
            for row in 0..<r[p] {
                for x in 0..<stride { buffer[row * stride + x] = fill(p, row, x) }
            }
            planes.append(buffer)
            strides.append(stride)
        }
    }

    /// Random content.
    convenience init(random format: PixelFormat, width: Int, height: Int, padding: Int = 0,
                     colorimetry: Colorimetry = Colorimetry(matrix: .bt601, range: .limited), seed: UInt64 = 1) {
        var rng = SplitMix(seed: seed)
        self.init(format, width: width, height: height, padding: padding, colorimetry: colorimetry) { _, _, _ in
            rng.byte()
        }
    }

    deinit { for p in planes { p.deallocate() } }

    var frame: VideoFrame {
        func plane(_ i: Int) -> FramePlane? {
            i < planes.count ? FramePlane(base: UnsafeRawPointer(planes[i].baseAddress!), stride: strides[i]) : nil
        }
        return VideoFrame(
            format: format, width: width, height: height, plane0: plane(0)!, plane1: plane(1), plane2: plane(2),
            byteCount: planes.reduce(0) { $0 + $1.count }, colorimetry: colorimetry,
            timestamp: MonotonicInstant(nanoseconds: 0), sequence: 0, bufferIndex: 0)
    }
}

/// A straightforward floating-point model of what `FrameConverter` should produce.
enum Reference {
    /// A frame's pixel (x, y) as unclamped R′G′B′ in double precision (chroma replicated over
    /// its subsampled cell).
    static func rgb(_ f: VideoFrame, _ x: Int, _ y: Int) -> (Double, Double, Double) {
        func at(_ p: FramePlane?, _ row: Int, _ col: Int) -> Double {
            Double(p!.base.load(fromByteOffset: row * p!.stride + col, as: UInt8.self))
        }
        let p0 = f.plane0, p1 = f.plane1, p2 = f.plane2
        let yy: Double, u: Double, v: Double
        switch f.format {
        case .bgra: return (at(p0, y, 4 * x + 2), at(p0, y, 4 * x + 1), at(p0, y, 4 * x))
        case .rgb24: return (at(p0, y, 3 * x), at(p0, y, 3 * x + 1), at(p0, y, 3 * x + 2))
        case .yuyv: (yy, u, v) = (at(p0, y, 2 * x), at(p0, y, 4 * (x / 2) + 1), at(p0, y, 4 * (x / 2) + 3))
        case .i420: (yy, u, v) = (at(p0, y, x), at(p1, y / 2, x / 2), at(p2, y / 2, x / 2))
        case .nv12: (yy, u, v) = (at(p0, y, x), at(p1, y / 2, 2 * (x / 2)), at(p1, y / 2, 2 * (x / 2) + 1))
        case .i422: (yy, u, v) = (at(p0, y, x), at(p1, y, x / 2), at(p2, y, x / 2))
        case .i444: (yy, u, v) = (at(p0, y, x), at(p1, y, x), at(p2, y, x))
        case .gray: (yy, u, v) = (at(p0, y, x), 128, 128)
        case .mjpeg: fatalError("decode first")
        }
        return yuvToRGB(yy, u, v, f.colorimetry)
    }

    static func yuvToRGB(_ y: Double, _ u: Double, _ v: Double, _ c: Colorimetry) -> (Double, Double, Double) {
        let (kr, kb) = c.matrix == .bt601 ? (0.299, 0.114) : (0.2126, 0.0722)
        let kg = 1 - kr - kb
        let (l, cb, cr): (Double, Double, Double) = c.range == .full
            ? (y, u - 128, v - 128)
            : ((y - 16) * 255 / 219, (u - 128) * 255 / 224, (v - 128) * 255 / 224)
        return (l + 2 * (1 - kr) * cr,
                l - 2 * kb * (1 - kb) / kg * cb - 2 * kr * (1 - kr) / kg * cr,
                l + 2 * (1 - kb) * cb)
    }

    /// Source cells and weights output `j` of `n` draws from along an axis of `l` cells:
    /// the cells under its footprint when shrinking, the two nearest centres when growing.
    static func weights(_ l: Int, _ n: Int, _ j: Int) -> [(Int, Double)] {
        let scale = Double(l) / Double(n)
        if n < l {
            let a = Double(j) * scale, b = Double(j + 1) * scale
            return (Int(a.rounded(.down))..<Int(b.rounded(.up))).map { k in
                (k, (min(b, Double(k + 1)) - max(a, Double(k))) / scale)
            }
        }
        let s = min(max((Double(j) + 0.5) * scale - 0.5, 0), Double(l - 1))
        let i0 = Int(s.rounded(.down)), f = s - Double(i0)
        return i0 >= l - 1 ? [(l - 1, 1)] : [(i0, 1 - f), (i0 + 1, f)]
    }

    /// The expected colour of content pixel (x, y) when `f` fills a `cw`×`ch` rectangle.
    static func pixel(_ f: VideoFrame, cw: Int, ch: Int, rotation: Rotation, mirror: Bool, x: Int, y: Int)
        -> (Int, Int, Int)
    {
        let (rw, rh) = rotation.rotatedSize(width: f.width, height: f.height)
        let xm = mirror ? cw - 1 - x : x
        var sum = (0.0, 0.0, 0.0)
        for (xr, wx) in weights(rw, cw, xm) {
            for (yr, wy) in weights(rh, ch, y) {
                let (sx, sy): (Int, Int)
                switch rotation {
                case .deg0: (sx, sy) = (xr, yr)
                case .deg90: (sx, sy) = (yr, f.height - 1 - xr)
                case .deg180: (sx, sy) = (f.width - 1 - xr, f.height - 1 - yr)
                case .deg270: (sx, sy) = (f.width - 1 - yr, xr)
                }
                let c = rgb(f, sx, sy), w = wx * wy
                sum = (sum.0 + w * c.0, sum.1 + w * c.1, sum.2 + w * c.2)
            }
        }
        func q(_ v: Double) -> Int { Int(min(max(v, 0), 255).rounded()) }
        return (q(sum.0), q(sum.1), q(sum.2))
    }
}

/// A destination image with padded rows, pre-filled with a sentinel to catch stray writes.
final class TestDestination {
    static let sentinel: UInt8 = 0xAB
    let width: Int
    let height: Int
    let stride: Int
    let bytes: UnsafeMutableRawBufferPointer

    init(width: Int, height: Int, padding: Int = 12) {
        self.width = width
        self.height = height
        stride = width * 4 + padding
        bytes = .allocate(byteCount: max(1, stride * height), alignment: 16)
        bytes.initializeMemory(as: UInt8.self, repeating: Self.sentinel)
    }
    deinit { bytes.deallocate() }

    var base: UnsafeMutableRawPointer { bytes.baseAddress! }
    func pixel(_ x: Int, _ y: Int) -> UInt32 { bytes.load(fromByteOffset: y * stride + x * 4, as: UInt32.self) }

    /// Whether every byte past the row width is still the sentinel.
    var paddingUntouched: Bool {
        for y in 0..<height {
            for i in (width * 4)..<stride where bytes[y * stride + i] != Self.sentinel { return false }
        }
        return true
    }
}

/// The result of comparing a conversion against the reference.
struct Comparison {
    var maxError = 0
    var barsBlack = true
    var paddingUntouched = true
    var worst = ""
}

/// Converts `source` into a `dw`×`dh` destination and checks it against the reference.
func compareWithReference(
    _ source: VideoFrame, referenceFrame: VideoFrame? = nil, dw: Int, dh: Int, content: Rect? = nil,
    rotation: Rotation, mirror: Bool, layout: PixelLayout = .xrgb, converter: FrameConverter = FrameConverter()
) throws -> Comparison {
    let dest = TestDestination(width: dw, height: dh)
    let rect = content ?? Rect(
        sourceWidth: source.width, sourceHeight: source.height, rotation: rotation,
        destinationWidth: dw, destinationHeight: dh)
    if let content {
        try converter.convert(source, content: content, into: dest.base, stride: dest.stride, width: dw, height: dh,
                              layout: layout, rotation: rotation, mirror: mirror)
    } else {
        try converter.convert(source, into: dest.base, stride: dest.stride, width: dw, height: dh,
                              layout: layout, rotation: rotation, mirror: mirror)
    }
    let ref = referenceFrame ?? source
    var result = Comparison(paddingUntouched: dest.paddingUntouched)
    for y in 0..<dh {
        for x in 0..<dw {
            let p = dest.pixel(x, y)
            let inside = x >= rect.x && x < rect.x + rect.width && y >= rect.y && y < rect.y + rect.height
            guard inside else {
                if p != layout.black { result.barsBlack = false }
                continue
            }
            let e = Reference.pixel(ref, cw: rect.width, ch: rect.height, rotation: rotation, mirror: mirror,
                                    x: x - rect.x, y: y - rect.y)
            let g = layout.components(of: p)
            let fill = p & layout.fillBits
            let err = max(abs(Int(g.red) - e.0), abs(Int(g.green) - e.1), abs(Int(g.blue) - e.2),
                          fill == layout.fillBits ? 0 : 999)
            if err > result.maxError {
                result.maxError = err
                result.worst = "at (\(x), \(y)) got \(g) expected \(e)"
            }
        }
    }
    return result
}

/// Converts random `format` pictures of each of `sizes` (at 0° and 180°, mirrored or not) by the
/// fastest path and by the resampling pass alone, and expects the same bytes from both, and the
/// reference's pixels within the usual error. `expectHandled` says whether the pass under test
/// should take each case (checked against `handles`).
func expectSameAsResampling(
    _ format: PixelFormat, sizes: [(sw: Int, sh: Int, dw: Int, dh: Int)],
    handles: (ConversionKey) -> Bool, expectHandled: (ConversionKey) -> Bool = { _ in true },
    sourceLocation: SourceLocation = #_sourceLocation
) throws {
    var index = 0
    for s in sizes {
        for rotation in [Rotation.deg0, .deg180] {
            for mirror in [false, true] {
                index += 1
                let source = TestFrame(random: format, width: s.sw, height: s.sh, padding: index % 3, seed: UInt64(index))
                let content = Rect(
                    sourceWidth: s.sw, sourceHeight: s.sh, rotation: rotation, destinationWidth: s.dw, destinationHeight: s.dh)
                let key = ConversionKey(
                    format: format, sourceWidth: s.sw, sourceHeight: s.sh, content: content, rotation: rotation, mirror: mirror)
                let what = "\(format) \(s) \(rotation) mirror \(mirror)"
                #expect(handles(key) == expectHandled(key), "\(what): content \(content)", sourceLocation: sourceLocation)

                let fastest = TestDestination(width: s.dw, height: s.dh), resampled = TestDestination(width: s.dw, height: s.dh)
                let resampling = FrameConverter()
                resampling.path = .resampling
                for (converter, dest) in [(FrameConverter(), fastest), (resampling, resampled)] {
                    try converter.convert(
                        source.frame, into: dest.base, stride: dest.stride, width: s.dw, height: s.dh,
                        layout: .xrgb, rotation: rotation, mirror: mirror)
                }
                #expect(Array(fastest.bytes) == Array(resampled.bytes), "\(what)", sourceLocation: sourceLocation)
                let r = try compareWithReference(source.frame, dw: s.dw, dh: s.dh, rotation: rotation, mirror: mirror)
                #expect(r.maxError <= 2 && r.barsBlack && r.paddingUntouched, "\(what): \(r.worst)", sourceLocation: sourceLocation)
            }
        }
    }
}
