import PipCore

/// Writes any uncompressed frame as the Y′CbCr a virtual camera carries (`--share`): YUYV or
/// I420, tightly packed, limited range, at the destination's size.
///
/// The picture is never mirrored or rotated, cropped only as `Framing` says. A frame of the
/// destination's format and size has its rows copied; one of another format is repacked (4:2:2
/// and YUYV chroma averaged over each pair of rows, RGB through BT.601); one of another size or
/// framed is resampled to the nearest pixel (`ScaleTable.nearest`) and fitted at its own shape by
/// `Letterbox`, with black bars. Full-range Y′CbCr (a JPEG's) is squeezed into limited range.
/// What a geometry needs is made when it changes, so converting a frame allocates nothing. Not
/// thread-safe.
public final class YCbCrConverter {
    /// The nearest-pixel fit of the last frame resampled; made again for another geometry.
    var fit: NearestFit?

    /// A converter with no geometry yet: the first frame resampled makes its fit.
    public init() {}

    /// Whether `frame` already is, byte for byte, what `convert` would write for a `format`
    /// `width`×`height` destination: packed limited-range YUYV of that size, shown whole. A caller
    /// may then hand out the frame's own memory instead of a copy.
    public static func frameIsConverted(
        _ frame: VideoFrame, format: PixelFormat, width: Int, height: Int, framing: Framing = .full
    ) -> Bool {
        format == .yuyv && frame.format == .yuyv && frame.width == width && frame.height == height
            && frame.colorimetry.range != .full && frame.plane0.stride == 2 * width
            && framing.crop(width: width, height: height).isWhole(width: width, height: height)
    }

    /// Fills the `width`×`height` destination of `format` (`.yuyv` or `.i420`, even sizes, planes
    /// and rows packed as `PixelFormat.packedLayout` says) with the part of `frame` that `framing`
    /// shows. false, the destination untouched, for a compressed or empty frame.
    @discardableResult
    public func convert(
        _ frame: VideoFrame, into destination: UnsafeMutableRawPointer, format: PixelFormat, width: Int, height: Int,
        framing: Framing = .full
    ) -> Bool {
        precondition(format == .yuyv || format == .i420, "a Y′CbCr destination is YUYV or I420")
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "Y′CbCr destinations have even sizes")
        guard frame.format != .mjpeg, frame.width > 0, frame.height > 0 else { return false }
        let out = Destination(base: destination, format: format, width: width, height: height)
        let full = frame.colorimetry.range == .full && frame.format.isYUV
        let crop = framing.crop(width: frame.width, height: frame.height)
        let sameSize = frame.width == width && frame.height == height && crop.isWhole(width: width, height: height)
        if sameSize && format == .i420, let chroma = PlanarChroma(frame) {
            Self.copyPlane(frame.plane0, rows: height, bytes: width, to: out.base, stride: width, full ? LimitedRange.luma : nil)
            Self.packChroma(frame, chroma, full: full, into: out)
        } else if sameSize && format == .i420 && frame.format == .yuyv {
            // A YUYV camera shared as I420: one that was in use when pipcam started (its format
            // unknown then) and gave YUYV once it came.
            Self.yuyvToI420(frame, into: out)
            if full { Self.applyRange(out) }
        } else if sameSize && format == .yuyv && frame.format == .yuyv {
            Self.copyPlane(
                frame.plane0, rows: height, bytes: 2 * width, to: out.base, stride: 2 * width, full ? LimitedRange.luma : nil,
                alternate: LimitedRange.chroma)
        } else {
            resample(frame, crop: crop, full: full, into: out)
        }
        return true
    }

    /// A packed YUYV or I420 destination.
    struct Destination {
        let base: UnsafeMutableRawPointer
        let format: PixelFormat
        let width: Int, height: Int
        /// I420's Cb and Cr planes, `width / 2` bytes a row.
        var cb: UnsafeMutablePointer<UInt8> { (base + width * height).assumingMemoryBound(to: UInt8.self) }
        var cr: UnsafeMutablePointer<UInt8> { (base + width * height + width * height / 4).assumingMemoryBound(to: UInt8.self) }
        var bytes: UnsafeMutablePointer<UInt8> { base.assumingMemoryBound(to: UInt8.self) }
    }

    // MARK: - Same size

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

    private static func copyPlane(
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
                LimitedRange.squeeze(s, d, count: bytes, scale: LimitedRange.lumaScale)
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

    private static func packChroma(_ frame: VideoFrame, _ chroma: PlanarChroma, full: Bool, into out: Destination) {
        let cw = out.width / 2, ch = out.height / 2
        let u = out.cb, v = out.cr
        let scale = LimitedRange.chromaScale
        LimitedRange.chroma.withUnsafeBufferPointer { lut in
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
                            if full { LimitedRange.squeeze(s, d, count: cw, scale: scale) } else { d.update(from: s, count: cw) }
                        case .halfWidth:
                            let a = (plane.base + 2 * row * plane.stride).assumingMemoryBound(to: UInt8.self)
                            let b = (plane.base + (2 * row + 1) * plane.stride).assumingMemoryBound(to: UInt8.self)
                            LimitedRange.average(a, b, d, count: cw)
                            if full { LimitedRange.squeeze(d, d, count: cw, scale: scale) }
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

    private static func yuyvToI420(_ frame: VideoFrame, into out: Destination) {
        let width = out.width, cw = width / 2
        let o = out.bytes, cb = out.cb, cr = out.cr
        for row in Swift.stride(from: 0, to: out.height, by: 2) {
            let a = (frame.plane0.base + row * frame.plane0.stride).assumingMemoryBound(to: UInt8.self)
            let b = (frame.plane0.base + (row + 1) * frame.plane0.stride).assumingMemoryBound(to: UInt8.self)
            let ya = o + row * width, yb = ya + width
            let u = cb + row / 2 * cw, v = cr + row / 2 * cw
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

    /// A whole I420 destination from full range to limited, in place.
    private static func applyRange(_ out: Destination) {
        let o = out.bytes, lumaCount = out.width * out.height
        LimitedRange.squeeze(o, o, count: lumaCount, scale: LimitedRange.lumaScale)
        LimitedRange.squeeze(o + lumaCount, o + lumaCount, count: lumaCount / 2, scale: LimitedRange.chromaScale)
    }
}
