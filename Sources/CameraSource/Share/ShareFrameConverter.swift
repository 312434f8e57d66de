import PipConvert
import PipCore

/// Turns camera frames into the frames a virtual camera carries: YUYV or I420, tightly packed,
/// limited range, at one fixed size — what call apps (Chromium, Firefox, Zoom) open.
///
/// The picture is the camera's own: never mirrored or rotated (call apps mirror their self-view
/// themselves), cropped only as the window's digital zoom frames it (`Framing`). A frame of the
/// output's format and size whose rows are packed goes out as it is; others are converted, and
/// one of another size (another mode, another source) resampled to the nearest pixel and fitted
/// at its own shape with black bars, so readers never see the format change.
/// Compressed frames must be decoded first (`ShareJPEGWorker`). Owns its output buffer
/// (allocated once): a result is valid until the next `convert`.
public final class ShareFrameConverter {
    /// `.yuyv` or `.i420`.
    public let format: PixelFormat
    public let width: Int
    public let height: Int
    /// Bytes of one output frame.
    public let byteCount: Int
    private let layout: PlaneLayout
    private let output: UnsafeMutableRawPointer
    private let placeholderFrame: UnsafeMutableRawPointer
    /// Full range → limited range, for luma and for chroma.
    private let lumaRange: [UInt8]
    private let chromaRange: [UInt8]

    /// The output format for frames of `source` format: YUYV stays YUYV (written as the camera
    /// sent it), everything else becomes I420.
    public static func outputFormat(for source: PixelFormat?) -> PixelFormat { source == .yuyv ? .yuyv : .i420 }

    public init(format: PixelFormat, width: Int, height: Int) {
        precondition(format == .yuyv || format == .i420, "a shared stream is YUYV or I420")
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "shared frames have even sizes")
        self.format = format
        self.width = width
        self.height = height
        layout = format.packedLayout(width: width, height: height)!
        byteCount = layout.byteCount
        output = .allocate(byteCount: byteCount, alignment: 64)
        placeholderFrame = .allocate(byteCount: byteCount, alignment: 64)
        lumaRange = Self.rangeTable(scale: 219)
        chromaRange = Self.rangeTable(scale: 224)
        Self.paintPlaceholder(placeholderFrame, format: format, width: width, height: height)
        // Touch the output once so the first frame does not pay for the page faults.
        output.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
    }

    /// Full range (0–255) to limited (16–235 luma, 16–240 chroma).
    private static func rangeTable(scale: Int) -> [UInt8] {
        (0..<256).map { (v: Int) -> UInt8 in UInt8((16 * 255 + v * scale + 127) / 255) }
    }

    deinit {
        output.deallocate()
        placeholderFrame.deallocate()
    }

    /// The frame shown to readers while the camera gives none: dark grey, the same size and format.
    public var placeholder: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: placeholderFrame, count: byteCount) }

    /// The bytes to write for `frame`'s part `framing` shows: the frame's own memory when it
    /// already is what readers get, else the converter's buffer. nil for a compressed frame.
    public func convert(_ frame: VideoFrame, framing: Framing = .full) -> UnsafeRawBufferPointer? {
        guard frame.format != .mjpeg, frame.width > 0, frame.height > 0 else { return nil }
        let full = frame.colorimetry.range == .full && frame.format.isYUV
        let crop = framing.crop(width: frame.width, height: frame.height)
        let sameSize = frame.width == width && frame.height == height && crop.isWhole(width: width, height: height)
        if sameSize && !full && frame.format == format && frame.plane0.stride == layout.strides.0 && format == .yuyv {
            return UnsafeRawBufferPointer(start: frame.plane0.base, count: byteCount)
        }
        if sameSize && format == .i420, let chroma = PlanarChroma(frame) {
            copyPlane(frame.plane0, rows: height, bytes: width, to: output, stride: width, full ? lumaRange : nil)
            packChroma(frame, chroma, full: full)
        } else if sameSize && format == .i420 && frame.format == .yuyv {
            // A YUYV camera shared as I420: one that was in use when pipcam started (its format
            // unknown then) and gave YUYV once it came.
            yuyvToI420(frame)
            if full { applyRange() }
        } else if sameSize && format == .yuyv && frame.format == .yuyv {
            copyPlane(frame.plane0, rows: height, bytes: 2 * width, to: output, stride: 2 * width, full ? lumaRange : nil, alternate: chromaRange)
        } else {
            resample(frame, crop: crop, full: full)
        }
        return UnsafeRawBufferPointer(start: output, count: byteCount)
    }

    // MARK: - Same-size planar → I420

    /// How a planar or semi-planar frame stores its chroma.
    private enum PlanarChroma {
        case halfBoth, halfWidth, full, interleavedHalf, none
        init?(_ frame: VideoFrame) {
            switch frame.format {
            case .i420: self = .halfBoth
            case .i422: self = .halfWidth
            case .i444: self = .full
            case .nv12: self = .interleavedHalf
            case .gray: self = .none
            default: return nil
            }
        }
    }

    private func copyPlane(
        _ plane: FramePlane, rows: Int, bytes: Int, to out: UnsafeMutableRawPointer, stride: Int, _ lut: [UInt8]?,
        alternate: [UInt8]? = nil
    ) {
        for row in 0..<rows {
            let src = plane.base + row * plane.stride, dst = out + row * stride
            guard let lut else {
                dst.copyMemory(from: src, byteCount: bytes)
                continue
            }
            let s = src.assumingMemoryBound(to: UInt8.self), d = dst.assumingMemoryBound(to: UInt8.self)
            if alternate == nil {
                Self.limitRange(s, d, count: bytes, scale: 219)
                continue
            }
            lut.withUnsafeBufferPointer { l in
                // YUYV: even bytes are luma, odd ones chroma.
                if let alternate {
                    alternate.withUnsafeBufferPointer { c in
                        for i in Swift.stride(from: 0, to: bytes, by: 2) {
                            d[i] = l[Int(s[i])]
                            d[i + 1] = c[Int(s[i + 1])]
                        }
                    }
                } else {
                    for i in 0..<bytes { d[i] = l[Int(s[i])] }
                }
            }
        }
    }

    private func packChroma(_ frame: VideoFrame, _ chroma: PlanarChroma, full: Bool) {
        let cw = width / 2, ch = height / 2
        let offsets = layout.offsets
        let u = (output + offsets.1).assumingMemoryBound(to: UInt8.self)
        let v = (output + offsets.2).assumingMemoryBound(to: UInt8.self)
        chromaRange.withUnsafeBufferPointer { lut in
            @inline(__always) func put(_ p: UnsafeMutablePointer<UInt8>, _ i: Int, _ value: Int) {
                p[i] = full ? lut[value] : UInt8(truncatingIfNeeded: value)
            }
            switch chroma {
            case .none:
                u.update(repeating: 128, count: cw * ch)
                v.update(repeating: 128, count: cw * ch)
            case .halfBoth, .halfWidth, .full:
                guard let p1 = frame.plane1, let p2 = frame.plane2 else { return }
                func pack(_ plane: FramePlane, _ out: UnsafeMutablePointer<UInt8>) {
                    for row in 0..<ch {
                        let d = out + row * cw
                        switch chroma {
                        case .halfBoth:
                            let s = (plane.base + row * plane.stride).assumingMemoryBound(to: UInt8.self)
                            if full { Self.limitRange(s, d, count: cw, scale: 224) } else { d.update(from: s, count: cw) }
                        case .halfWidth:
                            let a = (plane.base + 2 * row * plane.stride).assumingMemoryBound(to: UInt8.self)
                            let b = (plane.base + (2 * row + 1) * plane.stride).assumingMemoryBound(to: UInt8.self)
                            Self.average(a, b, d, count: cw)
                            if full { Self.limitRange(d, d, count: cw, scale: 224) }
                        default:
                            let a = (plane.base + 2 * row * plane.stride).assumingMemoryBound(to: UInt8.self)
                            let b = (plane.base + (2 * row + 1) * plane.stride).assumingMemoryBound(to: UInt8.self)
                            for i in 0..<cw {
                                put(d, i, (Int(a[2 * i]) + Int(a[2 * i + 1]) + Int(b[2 * i]) + Int(b[2 * i + 1]) + 2) >> 2)
                            }
                        }
                    }
                }
                pack(p1, u)
                pack(p2, v)
            case .interleavedHalf:
                guard let p1 = frame.plane1 else { return }
                for row in 0..<ch {
                    let s = (p1.base + row * p1.stride).assumingMemoryBound(to: UInt8.self)
                    for i in 0..<cw {
                        put(u + row * cw, i, Int(s[2 * i]))
                        put(v + row * cw, i, Int(s[2 * i + 1]))
                    }
                }
            }
        }
    }

    /// `d[i] = (a[i] + b[i] + 1) / 2`, 16 at a time.
    static func average(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, count: Int) {
        var i = 0
        while i + 16 <= count {
            let x = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(a + i).loadUnaligned(as: SIMD16<UInt8>.self))
            let y = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(b + i).loadUnaligned(as: SIMD16<UInt8>.self))
            UnsafeMutableRawPointer(d + i).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: (x &+ y &+ 1) &>> 1), as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            d[i] = UInt8((Int(a[i]) + Int(b[i]) + 1) >> 1)
            i += 1
        }
    }

    /// `count` samples from full range to limited: 16 + v × `scale` / 255, rounded, 16 at a time
    /// (a table lookup per byte costs ten times as much on a 1080p plane). The division by 255 is
    /// exact for the 16-bit values here: ⌊x / 255⌋ = (x + 1 + x >> 8) >> 8 for x < 65535.
    static func limitRange(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, count: Int, scale: UInt16) {
        let offset = SIMD16<UInt16>(repeating: 16 * 255 + 127), k = SIMD16<UInt16>(repeating: scale)
        var i = 0
        while i + 16 <= count {
            let v = SIMD16<UInt16>(truncatingIfNeeded: UnsafeRawPointer(s + i).loadUnaligned(as: SIMD16<UInt8>.self))
            let x = v &* k &+ offset
            let q = (x &+ 1 &+ (x &>> 8)) &>> 8
            UnsafeMutableRawPointer(d + i).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: q), as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            d[i] = UInt8((16 * 255 + Int(s[i]) * Int(scale) + 127) / 255)
            i += 1
        }
    }

    private func yuyvToI420(_ frame: VideoFrame) {
        let offsets = layout.offsets, cw = width / 2
        let o = output.assumingMemoryBound(to: UInt8.self)
        for row in Swift.stride(from: 0, to: height, by: 2) {
            let a = (frame.plane0.base + row * frame.plane0.stride).assumingMemoryBound(to: UInt8.self)
            let b = (frame.plane0.base + (row + 1) * frame.plane0.stride).assumingMemoryBound(to: UInt8.self)
            let ya = o + row * width, yb = ya + width
            let u = o + offsets.1 + row / 2 * cw, v = o + offsets.2 + row / 2 * cw
            for x in 0..<cw {
                ya[2 * x] = a[4 * x]
                ya[2 * x + 1] = a[4 * x + 2]
                yb[2 * x] = b[4 * x]
                yb[2 * x + 1] = b[4 * x + 2]
                u[x] = UInt8((UInt16(a[4 * x + 1]) + UInt16(b[4 * x + 1]) + 1) >> 1)
                v[x] = UInt8((UInt16(a[4 * x + 3]) + UInt16(b[4 * x + 3]) + 1) >> 1)
            }
        }
    }

    /// The whole I420 output from full range to limited, in place.
    private func applyRange() {
        let o = output.assumingMemoryBound(to: UInt8.self)
        Self.limitRange(o, o, count: width * height, scale: 219)
        Self.limitRange(o + width * height, o + width * height, count: width * height / 2, scale: 224)
    }

    // MARK: - Everything else: nearest-pixel resampling through Y′CbCr samples

    /// Which source pixel each output pixel takes, for frames of one size: the picture fitted
    /// into the output at its own shape (a 4:3 camera switched to in a 16:9 stream is not
    /// stretched) by the windows' own fit (`Letterbox`), black bars around it. Made when a frame
    /// of a new size comes, not per frame.
    struct FitMap: Equatable {
        let sourceWidth: Int, sourceHeight: Int
        /// The part of the source shown (`Framing.crop`).
        let crop: Rect
        /// The picture's place in the output; even, so chroma pairs never straddle a bar.
        let place: Rect
        /// Source column of each picture column, source row of each picture row.
        let xs: [Int], ys: [Int]

        init(sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int, crop: Rect? = nil) {
            self.sourceWidth = sourceWidth
            self.sourceHeight = sourceHeight
            let crop = crop ?? .whole(width: sourceWidth, height: sourceHeight)
            self.crop = crop
            // The part shown keeps the picture's shape, give or take a pixel of rounding.
            place = Letterbox.fit(
                pictureWidth: crop.width, pictureHeight: crop.height,
                destinationWidth: outputWidth, destinationHeight: outputHeight, alignment: 2)
            let (pictureWidth, pictureHeight) = (place.width, place.height)
            xs = (0..<pictureWidth).map { crop.x + $0 * crop.width / pictureWidth }
            ys = (0..<pictureHeight).map { crop.y + $0 * crop.height / pictureHeight }
        }
    }

    private var fitMap: FitMap?

    private func resample(_ frame: VideoFrame, crop: Rect, full: Bool) {
        if fitMap?.sourceWidth != frame.width || fitMap?.sourceHeight != frame.height || fitMap?.crop != crop {
            fitMap = FitMap(
                sourceWidth: frame.width, sourceHeight: frame.height, outputWidth: width, outputHeight: height, crop: crop)
        }
        guard let map = fitMap else { return }
        let sampler = YCbCrSampler(frame)
        let o = output.assumingMemoryBound(to: UInt8.self)
        let luma = full ? lumaRange : nil, chroma = full ? chromaRange : nil
        @inline(__always) func y(_ x: Int, _ row: Int) -> UInt8 {
            guard x >= 0, row >= 0 else { return 16 }
            return luma.map { $0[Int(sampler.y(x, row))] } ?? sampler.y(x, row)
        }
        @inline(__always) func c(_ x: Int, _ row: Int) -> (UInt8, UInt8) {
            guard x >= 0, row >= 0 else { return (128, 128) }
            let (u, v) = sampler.cbcr(x, row)
            guard let chroma else { return (u, v) }
            return (chroma[Int(u)], chroma[Int(v)])
        }
        // Source column / row of an output one; -1 in the bars.
        let place = map.place
        @inline(__always) func sx(_ x: Int) -> Int { x >= place.x && x < place.maxX ? map.xs[x - place.x] : -1 }
        @inline(__always) func sy(_ row: Int) -> Int { row >= place.y && row < place.maxY ? map.ys[row - place.y] : -1 }
        switch format {
        case .yuyv:
            for row in 0..<height {
                let d = o + row * 2 * width, r = sy(row)
                for x in Swift.stride(from: 0, to: width, by: 2) {
                    let (u, v) = c(sx(x), r)
                    d[2 * x] = y(sx(x), r)
                    d[2 * x + 1] = u
                    d[2 * x + 2] = y(sx(x + 1), r)
                    d[2 * x + 3] = v
                }
            }
        default:
            let offsets = layout.offsets, cw = width / 2
            for row in 0..<height {
                let d = o + row * width, r = sy(row)
                for x in 0..<width { d[x] = y(sx(x), r) }
            }
            for row in 0..<height / 2 {
                let r = sy(2 * row)
                for x in 0..<cw {
                    let (u, v) = c(sx(2 * x), r)
                    o[offsets.1 + row * cw + x] = u
                    o[offsets.2 + row * cw + x] = v
                }
            }
        }
    }

    // MARK: - Placeholder

    private static func paintPlaceholder(_ p: UnsafeMutableRawPointer, format: PixelFormat, width: Int, height: Int) {
        let dark: UInt8 = 32
        switch format {
        case .yuyv:
            let b = p.assumingMemoryBound(to: UInt8.self)
            for i in Swift.stride(from: 0, to: 2 * width * height, by: 2) {
                b[i] = dark
                b[i + 1] = 128
            }
        default:
            let b = p.assumingMemoryBound(to: UInt8.self)
            b.update(repeating: dark, count: width * height)
            (b + width * height).update(repeating: 128, count: width * height / 2)
        }
    }
}
