import CameraSource

/// Everything `FrameConverter` precomputes for one geometry: per-channel tap tables and the
/// row caches and accumulators its passes reuse, so converting a frame allocates nothing.
///
/// Filtering always runs along source rows ("inner" axis, source x) first, then combines cached
/// filtered rows ("outer" axis, source y). Without rotation inner is the destination's x axis;
/// at 90°/270° it is the destination's y axis, so output lines are destination columns.
final class ConversionPlan {
    /// What the plan depends on; a frame with the same key reuses it.
    struct Key: Equatable {
        var format: PixelFormat
        var sourceWidth: Int
        var sourceHeight: Int
        var content: ContentGeometry
        var rotation: Rotation
        var mirror: Bool
    }

    /// How a channel's samples are read and scaled. Pointers are owned by the plan.
    struct Channel {
        /// Index of the frame plane the samples live in.
        var plane: Int
        /// Filter taps along a source row: byte offsets (channel offset and step folded in).
        var innerTaps: Int
        var innerStarts: UnsafeMutablePointer<Int32>
        var innerWeights: UnsafeMutablePointer<Int16>
        /// Filter taps across rows: first row index per output line.
        var outerTaps: Int
        var outerStarts: UnsafeMutablePointer<Int32>
        var outerWeights: UnsafeMutablePointer<Int16>
        /// `outerTaps` ring slots of `innerCount` filtered samples, and which row each holds.
        var cache: UnsafeMutablePointer<UInt16>
        var cachedRows: UnsafeMutablePointer<Int>
        var step: Int
    }

    let key: Key
    let kind: SampleKind
    /// Samples per output line, and output lines.
    let innerCount: Int
    let outerCount: Int
    /// Whether output line `o` lands at destination line `outerCount − 1 − o` (lines are always
    /// produced in ascending source-row order so each source row is filtered once).
    let outerReversed: Bool
    let channels: [Channel]
    /// One `innerCount` row of `Int32` per channel for the vertical pass.
    let accumulators: UnsafeMutablePointer<Int32>
    private var allocations: [UnsafeMutableRawPointer] = []

    init(key: Key) {
        self.key = key
        let layout = SampleKind.channels(of: key.format)
        kind = layout.kind
        let rotation = key.rotation, swaps = rotation.swapsAxes
        let reverseX = (rotation == .deg90 || rotation == .deg180) != key.mirror
        let reverseY = rotation == .deg180 || rotation == .deg270
        let innerReversed = swaps ? reverseY : reverseX
        outerReversed = swaps ? reverseX : reverseY
        innerCount = swaps ? key.content.height : key.content.width
        outerCount = swaps ? key.content.width : key.content.height

        var allocations: [UnsafeMutableRawPointer] = []
        func copy<T>(_ array: [T]) -> UnsafeMutablePointer<T> {
            let p = UnsafeMutablePointer<T>.allocate(capacity: max(1, array.count))
            p.initialize(from: array, count: array.count)
            allocations.append(UnsafeMutableRawPointer(p))
            return p
        }
        func zeros<T: BinaryInteger>(_ count: Int, _: T.Type) -> UnsafeMutablePointer<T> {
            copy([T](repeating: 0, count: count))
        }
        var channels: [Channel] = []
        for source in layout.channels {
            let inner = ScaleTable(
                sourceLength: key.sourceWidth, outputLength: innerCount,
                subsampling: source.horizontalShift, reversed: innerReversed)
            let outer = ScaleTable(
                sourceLength: key.sourceHeight, outputLength: outerCount, subsampling: source.verticalShift)
            let byteStarts = inner.starts.map { Int32(source.offset) + $0 * Int32(source.step) }
            channels.append(Channel(
                plane: source.plane,
                innerTaps: inner.taps, innerStarts: copy(byteStarts), innerWeights: copy(inner.weights),
                outerTaps: outer.taps, outerStarts: copy(outer.starts), outerWeights: copy(outer.weights),
                cache: zeros(outer.taps * innerCount, UInt16.self),
                cachedRows: copy([Int](repeating: -1, count: outer.taps)),
                step: source.step))
        }
        self.channels = channels
        accumulators = zeros(3 * max(1, innerCount), Int32.self)
        self.allocations = allocations
    }

    deinit {
        for p in allocations { p.deallocate() }
    }
}

/// How a format's samples turn into colour, and where each channel is stored.
enum SampleKind {
    /// Y′, Cb, Cr channels, converted with the frame's colorimetry.
    case yuv
    /// Y′ only; shown as grey with the frame's range.
    case gray
    /// R′, G′, B′ channels, copied as they are.
    case rgb

    struct ChannelSource {
        var plane: Int
        var offset: Int
        var step: Int
        var horizontalShift = 0
        var verticalShift = 0
    }

    /// The channels of a directly readable (non-compressed) format.
    static func channels(of format: PixelFormat) -> (kind: SampleKind, channels: [ChannelSource]) {
        typealias C = ChannelSource
        switch format {
        case .yuyv:
            return (.yuv, [C(plane: 0, offset: 0, step: 2), C(plane: 0, offset: 1, step: 4, horizontalShift: 1),
                           C(plane: 0, offset: 3, step: 4, horizontalShift: 1)])
        case .i420:
            return (.yuv, [C(plane: 0, offset: 0, step: 1),
                           C(plane: 1, offset: 0, step: 1, horizontalShift: 1, verticalShift: 1),
                           C(plane: 2, offset: 0, step: 1, horizontalShift: 1, verticalShift: 1)])
        case .nv12:
            return (.yuv, [C(plane: 0, offset: 0, step: 1),
                           C(plane: 1, offset: 0, step: 2, horizontalShift: 1, verticalShift: 1),
                           C(plane: 1, offset: 1, step: 2, horizontalShift: 1, verticalShift: 1)])
        case .i422:
            return (.yuv, [C(plane: 0, offset: 0, step: 1), C(plane: 1, offset: 0, step: 1, horizontalShift: 1),
                           C(plane: 2, offset: 0, step: 1, horizontalShift: 1)])
        case .i444:
            return (.yuv, [C(plane: 0, offset: 0, step: 1), C(plane: 1, offset: 0, step: 1),
                           C(plane: 2, offset: 0, step: 1)])
        case .gray, .mjpeg:  // MJPEG is decoded to a planar format before it gets here.
            return (.gray, [C(plane: 0, offset: 0, step: 1)])
        case .bgra:
            return (.rgb, [C(plane: 0, offset: 2, step: 4), C(plane: 0, offset: 1, step: 4),
                           C(plane: 0, offset: 0, step: 4)])
        case .rgb24:
            return (.rgb, [C(plane: 0, offset: 0, step: 3), C(plane: 0, offset: 1, step: 3),
                           C(plane: 0, offset: 2, step: 3)])
        }
    }
}

extension ConversionPlan.Key {
    /// The key for `picture` shown in `content`, turned and mirrored.
    init(picture: VideoFrame, content: ContentGeometry, rotation: Rotation, mirror: Bool) {
        self.init(
            format: picture.format, sourceWidth: picture.width, sourceHeight: picture.height,
            content: content, rotation: rotation, mirror: mirror)
    }
}
