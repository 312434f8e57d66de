import PipCore

/// Reads one pixel's Y′, Cb and Cr from a frame of any uncompressed format (RGB through BT.601,
/// limited range), for `YCbCrConverter`'s resampling.
struct YCbCrSampler {
    let frame: VideoFrame

    init(_ frame: VideoFrame) { self.frame = frame }

    private func byte(_ plane: FramePlane?, _ x: Int, _ row: Int) -> UInt8 {
        guard let plane else { return 128 }
        return plane.base.load(fromByteOffset: row * plane.stride + x, as: UInt8.self)
    }

    private func rgb(_ x: Int, _ row: Int) -> (r: Int, g: Int, b: Int) {
        switch frame.format {
        case .bgra:
            return (Int(byte(frame.plane0, 4 * x + 2, row)), Int(byte(frame.plane0, 4 * x + 1, row)), Int(byte(frame.plane0, 4 * x, row)))
        default:
            return (Int(byte(frame.plane0, 3 * x, row)), Int(byte(frame.plane0, 3 * x + 1, row)), Int(byte(frame.plane0, 3 * x + 2, row)))
        }
    }

    func y(_ x: Int, _ row: Int) -> UInt8 {
        switch frame.format {
        case .yuyv: return byte(frame.plane0, 2 * x, row)
        case .bgra, .rgb24:
            let (r, g, b) = rgb(x, row)
            return UInt8((66 * r + 129 * g + 25 * b + 128) >> 8 + 16)
        default: return byte(frame.plane0, x, row)
        }
    }

    func cbcr(_ x: Int, _ row: Int) -> (UInt8, UInt8) {
        switch frame.format {
        case .yuyv:
            let pair = 4 * (x / 2)
            return (byte(frame.plane0, pair + 1, row), byte(frame.plane0, pair + 3, row))
        case .i420: return (byte(frame.plane1, x / 2, row / 2), byte(frame.plane2, x / 2, row / 2))
        case .i422: return (byte(frame.plane1, x / 2, row), byte(frame.plane2, x / 2, row))
        case .i444: return (byte(frame.plane1, x, row), byte(frame.plane2, x, row))
        case .nv12: return (byte(frame.plane1, 2 * (x / 2), row / 2), byte(frame.plane1, 2 * (x / 2) + 1, row / 2))
        case .bgra, .rgb24:
            let (r, g, b) = rgb(x, row)
            return (UInt8((-38 * r - 74 * g + 112 * b + 128) >> 8 + 128), UInt8((112 * r - 94 * g - 18 * b + 128) >> 8 + 128))
        case .gray, .mjpeg: return (128, 128)
        }
    }
}
