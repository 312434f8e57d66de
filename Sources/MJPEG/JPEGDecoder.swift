import CTurboJPEG
import PipCore

/// Decodes camera JPEGs straight to planar Y′CbCr and — when the picture will be shown smaller —
/// at 1/2, 1/4 or 1/8 scale, which is much cheaper than decoding at full size and scaling afterwards.
///
/// Baseline pictures (what cameras send) go through `ReducedJPEGDecoder`: at 1/2, 1/4 and 1/8
/// scale block means computed from the coefficients, at full size an inverse DCT of its own, large
/// ones on two threads. Everything else (progressive, arithmetic-coded, RGB, unusual subsampling)
/// through libjpeg-turbo on one thread, scaling inside its IDCT.
///
/// Owns its output buffer: the returned frame is valid until the next `decode` call. Not thread-safe;
/// use one decoder per thread.
public final class JPEGDecoder {
    private var handle: tjhandle
    private var buffer: UnsafeMutableRawPointer?
    private var bufferSize = 0
    private let reduced: ReducedJPEGDecoder?
    /// Buffers made so far (the reduced decoder's and libjpeg-turbo's output); for tests.
    var allocations: Int { (reduced?.allocations ?? 0) + (bufferSize > 0 ? 1 : 0) }

    /// The threads a decoder uses for large baseline pictures unless told otherwise: 2, so a frame's
    /// latency nearly halves. 1 suits frames that queue behind each other anyway, where the other CPU is
    /// busier reading and showing them (`pipcam --untimed`).
    public static let standardThreads = 2

    /// A decoder; `reducedDecoding: false` sends every picture through libjpeg-turbo (for comparisons),
    /// `threads: 1` keeps the reduced decoder on the caller's thread, 2 lets it split large pictures
    /// with a second thread of its own.
    public init(reducedDecoding: Bool = true, threads: Int = standardThreads) {
        reduced = reducedDecoding ? ReducedJPEGDecoder(threads: threads) : nil
        guard let h = tjInitDecompress() else { fatalError("tjInitDecompress failed: out of memory") }
        handle = h
    }

    deinit {
        tjDestroy(handle)
        buffer?.deallocate()
    }

    /// The size, chroma subsampling and validity of a JPEG, from its header alone.
    public func header(of data: UnsafeRawBufferPointer) throws -> (width: Int, height: Int) {
        if let size = reduced?.size(of: data) { return size }
        guard let base = data.baseAddress else { throw JPEGError.corrupt("no data") }
        let header = try readHeader(base.assumingMemoryBound(to: UInt8.self), count: data.count)
        return (header.width, header.height)
    }

    /// libjpeg-turbo's reading of a JPEG's header: size, subsampling and colour space. A warning
    /// (stray bytes before a marker) still gives a usable header; only a fatal error throws.
    private func readHeader(_ jpeg: UnsafePointer<UInt8>, count: Int) throws -> (width: Int, height: Int, subsampling: Int32, colorspace: Int32) {
        var w: Int32 = 0, h: Int32 = 0, sub: Int32 = 0, cs: Int32 = 0
        let status = tjDecompressHeader3(handle, jpeg, UInt(count), &w, &h, &sub, &cs)
        guard status == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue), w > 0, h > 0 else {
            throw failure()
        }
        return (Int(w), Int(h), sub, cs)
    }

    /// The scale (1, 1/2, 1/4 or 1/8) that still covers `minWidth`×`minHeight`.
    public static func scaleDenominator(width: Int, height: Int, minWidth: Int, minHeight: Int) -> Int {
        var denominator = 8
        while denominator > 1 {
            let w = (width + denominator - 1) / denominator, h = (height + denominator - 1) / denominator
            if w >= minWidth && h >= minHeight { return denominator }
            denominator /= 2
        }
        return 1
    }

    /// Gets ready for `width`×`height` pictures to be decoded for at least `minWidth`×`minHeight`
    /// before the first one arrives (allocations, page faults, the second thread's start), so the
    /// first picture costs what the others do. Optional: `decode` does what is missing.
    public func prepare(width: Int, height: Int, minWidth: Int, minHeight: Int) {
        reduced?.prepare(width: width, height: height, minWidth: minWidth, minHeight: minHeight)
    }

    /// The ways this decoder can take (`decode`'s `path`): its own on one thread, on two when it
    /// has a second, and libjpeg-turbo's.
    public var paths: [DecodePath] {
        guard let reduced else { return [.libjpegTurbo] }
        return reduced.split == nil ? [.own, .libjpegTurbo] : [.ownSplit, .own, .libjpegTurbo]
    }

    /// The CPU this decoder's second thread used so far, in milliseconds (0 without one).
    public var helperCPUMilliseconds: Double { reduced?.split?.threadCPUMilliseconds ?? 0 }

    /// Decodes `data` at the smallest DCT scale whose result still covers `minWidth`×`minHeight`,
    /// along `path` (nil: pipcam's own decoder as it was made, libjpeg-turbo for the pictures it
    /// cannot decode).
    ///
    /// The result is planar (I420, I422, I444 or gray, JFIF colorimetry) or BGRA for unusual
    /// subsamplings, with `timestamp`, `sequence` and `bufferIndex` copied from `source`.
    /// Throws `JPEGError.corrupt` when the data cannot be decoded. `rows` hears of the rows the
    /// reduced decoder finishes as it goes (pictures of libjpeg-turbo's are reported not at all).
    public func decode(
        _ source: VideoFrame, minWidth: Int, minHeight: Int, rows: DecodedRows? = nil, path: DecodePath? = nil
    ) throws -> VideoFrame {
        if let reduced, path != .libjpegTurbo {
            reduced.splits = path != .own
            if let frame = reduced.decode(source, minWidth: minWidth, minHeight: minHeight, rows: rows) { return frame }
        }
        let data = UnsafeRawBufferPointer(start: source.plane0.base, count: source.byteCount)
        let jpeg = data.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let header = try readHeader(jpeg, count: data.count)
        let (w, h, sub) = (Int32(header.width), Int32(header.height), header.subsampling)
        // The first picture of a stream was checked; a later one's header may say anything.
        if let problem = FrameLimits.problem(width: Int(w), height: Int(h)) { throw JPEGError.corrupt(problem) }
        let d = Self.scaleDenominator(width: Int(w), height: Int(h), minWidth: minWidth, minHeight: minHeight)
        let sw = (Int(w) + d - 1) / d, sh = (Int(h) + d - 1) / d
        let format: PixelFormat
        // An RGB JPEG's planes are R, G and B, not Y′CbCr: libjpeg-turbo makes the pixels.
        switch header.colorspace == Int32(TJCS_RGB.rawValue) ? -1 : Int(sub) {
        case Int(TJSAMP_420.rawValue): format = .i420
        case Int(TJSAMP_422.rawValue): format = .i422
        case Int(TJSAMP_444.rawValue): format = .i444
        case Int(TJSAMP_GRAY.rawValue): format = .gray
        default: format = .bgra
        }
        // libjpeg-turbo writes whole chroma pairs: a 4:2:x plane of odd width or height is padded
        // (its own plane sizes), or it would overwrite the next plane.
        var strides: (Int32, Int32, Int32) = (0, 0, 0), offsets = (0, 0, 0), size = 0
        if format == .bgra {
            strides.0 = Int32(4 * sw)
            size = 4 * sw * sh
        } else {
            for plane in 0..<(format == .gray ? 1 : 3) {
                let pw = Int(tjPlaneWidth(Int32(plane), Int32(sw), sub)), ph = Int(tjPlaneHeight(Int32(plane), Int32(sh), sub))
                switch plane {
                case 0: strides.0 = Int32(pw); offsets.0 = size
                case 1: strides.1 = Int32(pw); offsets.1 = size
                default: strides.2 = Int32(pw); offsets.2 = size
                }
                size += pw * ph
            }
        }
        ensureCapacity(size)
        let out = buffer!
        let base = UnsafeRawPointer(out)
        let planar = format != .bgra && format != .gray
        let picture = VideoFrame(
            format: format, width: sw, height: sh, plane0: FramePlane(base: base + offsets.0, stride: Int(strides.0)),
            plane1: planar ? FramePlane(base: base + offsets.1, stride: Int(strides.1)) : nil,
            plane2: planar ? FramePlane(base: base + offsets.2, stride: Int(strides.2)) : nil,
            byteCount: size, colorimetry: .jpeg, timestamp: source.timestamp, sequence: source.sequence,
            bufferIndex: source.bufferIndex)
        let status: Int32
        if format == .bgra {
            status = tjDecompress2(
                handle, jpeg, UInt(data.count), out.assumingMemoryBound(to: UInt8.self),
                Int32(sw), strides.0, Int32(sh), Int32(TJPF_BGRX.rawValue), TJFLAG_FASTDCT)
        } else {
            let planes = Planes(
                (out + offsets.0).assumingMemoryBound(to: UInt8.self), (out + offsets.1).assumingMemoryBound(to: UInt8.self),
                (out + offsets.2).assumingMemoryBound(to: UInt8.self))
            status = Self.decompress(handle, data, into: planes, strides: strides, width: sw, height: sh)
        }
        // Warnings (e.g. extraneous bytes) still leave a complete picture; only fatal errors skip it.
        if status != 0 && tjGetErrorCode(handle) == Int32(TJERR_FATAL.rawValue) {
            throw failure()
        }
        return picture
    }

    typealias Planes = (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>)

    /// libjpeg-turbo's planar decode of `data` at the scale that gives `width`×`height`.
    static func decompress(
        _ handle: tjhandle, _ data: UnsafeRawBufferPointer, into planes: Planes, strides: (Int32, Int32, Int32), width: Int, height: Int
    ) -> Int32 {
        var pointers: (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt8>?) = planes
        var strides = strides
        let jpeg = data.baseAddress!.assumingMemoryBound(to: UInt8.self)
        return withUnsafeMutablePointer(to: &pointers) { pp in
            pp.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 3) { planePtrs in
                withUnsafeMutablePointer(to: &strides) { sp in
                    sp.withMemoryRebound(to: Int32.self, capacity: 3) { stridePtrs in
                        tjDecompressToYUVPlanes(
                            handle, jpeg, UInt(data.count), planePtrs, Int32(width), stridePtrs, Int32(height), TJFLAG_FASTDCT)
                    }
                }
            }
        }
    }

    private func ensureCapacity(_ size: Int) {
        guard size > bufferSize else { return }
        buffer?.deallocate()
        buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 64)
        bufferSize = size
    }

    /// The error libjpeg-turbo reported, with a fresh handle for the next picture: after a fatal
    /// error in a header the old one stays mid-header, and every later picture fails.
    private func failure() -> JPEGError {
        let error = JPEGError.corrupt(tjGetErrorStr2(handle).map { String(cString: $0) } ?? "corrupt JPEG")
        if let fresh = tjInitDecompress() {
            tjDestroy(handle)
            handle = fresh
        }
        return error
    }
}

/// A JPEG that could not be decoded.
public enum JPEGError: Error, Equatable, CustomStringConvertible {
    case corrupt(String)
    public var description: String {
        switch self { case .corrupt(let why): return "corrupt JPEG (\(why))" }
    }
}
