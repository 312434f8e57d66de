import MJPEG
import PipCore

/// A frame that cannot be converted (the caller skips it).
public enum FrameConversionError: Error, Equatable, CustomStringConvertible {
    /// The frame has no pixels.
    case emptyFrame
    /// The frame's format needs a plane it does not have.
    case missingPlane(Int)

    public var description: String {
        switch self {
        case .emptyFrame: return "frame has no pixels"
        case .missingPlane(let i): return "frame lacks plane \(i)"
        }
    }
}

/// Turns any source frame into a 32-bit window image in one pass: colour conversion, scaling
/// (area average when shrinking, bilinear when growing, per axis), rotation, mirroring and the
/// black letterbox bars all happen while each destination pixel is written exactly once.
///
/// A Y′CbCr picture already the content's size (a JPEG decoded at 1/2, 1/4 or 1/8 for the window,
/// a camera's frames in a window their size) skips resampling (`DirectPass`), and one exactly
/// twice its size takes 2×2 means (`HalvingPass`); a JPEG's rows are converted as the decoder
/// finishes them (`ProgressivePass`) unless it is turned a quarter; 90° and 270° are an upright conversion
/// and a transpose (`QuarterTurn`). Tap tables and scratch rows are built when the geometry
/// changes and reused after, so converting a frame allocates nothing. One converter per presenter;
/// not thread-safe.
public final class FrameConverter {
    /// How many times a plan (tap tables and scratch) has been built; for tests and diagnostics.
    public private(set) var planBuildCount = 0
    private var upright: UprightPlan?
    private var decoder: JPEGDecoder?
    private let decodeThreads: Int
    private var quarterTurn: QuarterTurn?
    private var threeQuarter: ThreeQuarterPlan?
    /// How the next MJPEG picture is decoded, from what each way cost on the pictures before; made
    /// again when the decoded size changes (another scale, another camera mode).
    private(set) var decodeChoice: DecodePathChoice?
    private var decodeChoiceSize = (width: 0, height: 0)
    /// Wall milliseconds a picture's decode and conversion may take (`DecodePathChoice.deadline`).
    let decodeDeadline: Double
    /// The deadline of frames shown as they come (a camera's): decoding is most of a frame's
    /// latency, and the latency targets are 1.5 ms in PiP and 2.5 ms in a 1280×720 window
    /// (docs/PERFORMANCE.md): a way that takes longer only counts when none is quicker.
    public static let pacedDecodeDeadline = 2.0

    /// Which passes a conversion may take. Every path gives the same picture; tests compare them.
    enum Path {
        /// The fastest that applies: a JPEG's rows converted as the decoder finishes them
        /// (`ProgressivePass`), pictures exactly the content's size unscaled (`DirectPass`),
        /// pictures exactly twice its size by 2×2 means (`HalvingPass`).
        case fastest
        /// A JPEG decoded whole before it is converted.
        case wholePicture
        /// Every picture resampled (`UprightPass`), also one exactly the content's size or twice it.
        case resampling
    }
    var path = Path.fastest
    private var allowsDirectPass: Bool { path != .resampling }
    private var allowsProgressive: Bool { path == .fastest }
    let progressive = ProgressivePass()

    /// `decodeThreads`: the threads the MJPEG decoder may use for large pictures (`JPEGDecoder`);
    /// one for frames that queue behind each other anyway (`--untimed`), where only the CPU a
    /// picture costs counts, two for frames shown as they come, which must be quick
    /// (`pacedDecodeDeadline`).
    public init(decodeThreads: Int = JPEGDecoder.standardThreads) {
        self.decodeThreads = decodeThreads
        decodeDeadline = decodeThreads > 1 ? Self.pacedDecodeDeadline : .infinity
    }

    /// Fills the `width`×`height` destination (rows `stride` bytes apart; bytes past `width × 4`
    /// in a row are not touched) with the part of `frame` that `framing` shows, turned by
    /// `rotation` (clockwise), then mirrored left-right if `mirror`, fitted into `Rect`
    /// (by the whole picture's shape) and surrounded by black bars. The zoom costs nothing extra:
    /// the scaling that fits the picture reads the shown part only.
    ///
    /// MJPEG frames are decoded first, at the smallest DCT scale that still covers the content
    /// rectangle with the shown part. Throws `JPEGError` for a corrupt JPEG and `FrameConversionError` for a frame
    /// without pixels or planes; the destination may then be partly written.
    public func convert(
        _ frame: VideoFrame, into destination: UnsafeMutableRawPointer, stride: Int,
        width: Int, height: Int, layout: PixelLayout, rotation: Rotation, mirror: Bool, framing: Framing = .full
    ) throws {
        guard width > 0, height > 0 else { return }
        precondition(stride >= width * 4, "destination rows overlap")
        var sourceWidth = frame.width, sourceHeight = frame.height
        if frame.format == .mjpeg && (sourceWidth <= 0 || sourceHeight <= 0) {
            let data = UnsafeRawBufferPointer(start: frame.plane0.base, count: frame.byteCount)
            (sourceWidth, sourceHeight) = try jpegDecoder().header(of: data)
        }
        guard sourceWidth > 0, sourceHeight > 0 else { throw FrameConversionError.emptyFrame }
        let content = Rect(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, rotation: rotation,
            destinationWidth: width, destinationHeight: height)
        try convert(
            frame, content: content, into: destination, stride: stride, width: width, height: height,
            layout: layout, rotation: rotation, mirror: mirror, framing: framing)
    }

    /// Gets ready for frames of `format` and `sourceWidth`×`sourceHeight` to be converted into a
    /// `width`×`height` destination turned by `rotation`, before the first one arrives: an MJPEG
    /// decoder makes and faults in what the first picture needs (`JPEGDecoder.prepare`).
    public func prepare(
        format: PixelFormat, sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, rotation: Rotation,
        framing: Framing = .full
    ) {
        guard format == .mjpeg, sourceWidth > 0, sourceHeight > 0, width > 0, height > 0 else { return }
        let content = Rect(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, rotation: rotation,
            destinationWidth: width, destinationHeight: height)
        let (w, h) = Self.decodedSize(content: content, rotation: rotation, framing: framing)
        jpegDecoder().prepare(width: sourceWidth, height: sourceHeight, minWidth: w, minHeight: h)
    }

    /// `convert` with the content rectangle given (it need not keep the picture's aspect ratio).
    /// An MJPEG picture is decoded the way `decodeChoice` says, and what that cost is told to it.
    func convert(
        _ frame: VideoFrame, content: Rect, into destination: UnsafeMutableRawPointer, stride: Int,
        width: Int, height: Int, layout: PixelLayout, rotation: Rotation, mirror: Bool, framing: Framing = .full
    ) throws {
        guard frame.format == .mjpeg, path == .fastest, !content.isEmpty else {
            return try convert(
                frame, content: content, into: destination, stride: stride, width: width, height: height, layout: layout,
                rotation: rotation, mirror: mirror, framing: framing, decodePath: nil)
        }
        let decoder = jpegDecoder(), size = Self.decodedSize(content: content, rotation: rotation, framing: framing)
        if decodeChoice == nil || decodeChoiceSize != size {
            decodeChoice = DecodePathChoice(candidates: decoder.paths, deadline: decodeDeadline)
            decodeChoiceSize = size
        }
        let way = decodeChoice!.next(), meter = DecodeMeter(helper: decoder.helperCPUMilliseconds)
        try convert(
            frame, content: content, into: destination, stride: stride, width: width, height: height, layout: layout,
            rotation: rotation, mirror: mirror, framing: framing, decodePath: way)
        let cost = meter.cost(helper: decoder.helperCPUMilliseconds)
        decodeChoice!.record(way, cpu: cost.cpu, wall: cost.wall)
    }

    private func convert(
        _ frame: VideoFrame, content: Rect, into destination: UnsafeMutableRawPointer, stride: Int,
        width: Int, height: Int, layout: PixelLayout, rotation: Rotation, mirror: Bool, framing: Framing, decodePath: DecodePath?
    ) throws {
        let target = ImageTarget(pixels: destination, stride: stride, width: width, height: height)
        guard !content.isEmpty else {
            for y in 0..<height { RowKernels.fill(target.pixels + y * stride, pixel: layout.black, count: width, step: 4) }
            return
        }
        var picture = frame
        if frame.format == .mjpeg {
            let (w, h) = Self.decodedSize(content: content, rotation: rotation, framing: framing)
            let rows = allowsProgressive && allowsDirectPass ? progressive : nil
            rows?.begin(
                content: content, rotation: rotation, mirror: mirror, framing: framing, layout: layout, target: target,
                plans: self)
            picture = try jpegDecoder().decode(frame, minWidth: w, minHeight: h, rows: rows, path: decodePath)
            if let rows, rows.finish() { return }
        }
        guard picture.width > 0, picture.height > 0, picture.format != .mjpeg else {
            throw FrameConversionError.emptyFrame
        }
        let planes = try Self.planes(of: picture)

        let key = ConversionKey(picture: picture, content: content, rotation: rotation, mirror: mirror, framing: framing)
        if UprightPlan.handles(rotation) {
            convertUpright(picture, planes: planes, key: key, into: target, layout: layout)
            return
        }
        let turn = Self.reuse(&quarterTurn, for: key, make: QuarterTurn.init).plan
        convertUpright(picture, planes: planes, key: turn.uprightKey, into: turn.scratchTarget, layout: layout)
        turn.transpose(into: target, black: layout.black)
    }

    /// The smallest size a JPEG must be decoded at for `content` to show `framing`'s part of it
    /// without scaling up: the content's unturned size times the zoom.
    static func decodedSize(content: Rect, rotation: Rotation, framing: Framing) -> (width: Int, height: Int) {
        let (w, h) = rotation.rotatedSize(width: content.width, height: content.height)
        guard !framing.isFull else { return (w, h) }
        return (Int((Double(w) * framing.zoom).rounded(.up)), Int((Double(h) * framing.zoom).rounded(.up)))
    }

    /// An upright `key` (0° or 180°) by the unscaled or the halving pass when one applies, else
    /// the resampling one.
    private func convertUpright(
        _ picture: VideoFrame, planes: (FramePlane, FramePlane, FramePlane), key: ConversionKey,
        into target: ImageTarget, layout: PixelLayout
    ) {
        if allowsDirectPass {
            let input = RowPassInput(picture: picture, planes: planes, key: key, layout: layout, target: target)
            if let pass = DirectPass(input) { return pass.run() }
            if let pass = HalvingPass(input) { return pass.run() }
            if ThreeQuarterPlan.handles(key) {
                let plan = Self.reuse(&threeQuarter, for: key, make: ThreeQuarterPlan.init).plan
                if let pass = ThreeQuarterPass(input, plan: plan) { return pass.run() }
            }
        }
        UprightPass(
            plan: uprightPlan(for: key), planes: planes, coefficients: YUVCoefficients16(picture.colorimetry), layout: layout,
            target: target
        ).run()
    }

    /// The upright resampling plan for `key`: the last one, or a new one that replaces it.
    func uprightPlan(for key: ConversionKey) -> UprightPlan {
        let (plan, isNew) = Self.reuse(&upright, for: key, make: UprightPlan.init)
        if isNew { planBuildCount += 1 }
        return plan
    }

    /// `cache` when it was made for `key`, else a new plan, which replaces it.
    private static func reuse<Plan: KeyedPlan>(
        _ cache: inout Plan?, for key: ConversionKey, make: (ConversionKey) -> Plan
    ) -> (plan: Plan, isNew: Bool) {
        if let existing = cache, existing.key == key { return (existing, false) }
        let made = make(key)
        cache = made
        return (made, true)
    }

    private func jpegDecoder() -> JPEGDecoder {
        if let decoder { return decoder }
        let made = JPEGDecoder(threads: decodeThreads)
        decoder = made
        return made
    }

    // A tuple, not an array: nothing is allocated per frame.
    static func planes(of frame: VideoFrame) throws -> (FramePlane, FramePlane, FramePlane) {
        let count = frame.format.planeCount
        guard count < 2 || frame.plane1 != nil else { throw FrameConversionError.missingPlane(1) }
        guard count < 3 || frame.plane2 != nil else { throw FrameConversionError.missingPlane(2) }
        return (frame.plane0, frame.plane1 ?? frame.plane0, frame.plane2 ?? frame.plane0)
    }
}

/// What `FrameConverter` precomputes for one geometry, found again by its key.
protocol KeyedPlan: AnyObject {
    var key: ConversionKey { get }
}

extension UprightPlan: KeyedPlan {}
extension QuarterTurn: KeyedPlan {}
