import PipCore

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
