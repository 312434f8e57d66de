import PipCore

/// One pixel's Y′, Cb and Cr, for `YCbCrConverter`'s resampling; one reader per layout so that
/// the resampling loops are made for each and ask no format per sample.
protocol YCbCrReader {
    func y(_ x: Int, _ row: Int) -> UInt8
    func cbcr(_ x: Int, _ row: Int) -> (UInt8, UInt8)
}

/// Reads one pixel's Y′, Cb and Cr from a frame of any uncompressed format (RGB through BT.601,
/// limited range): the reader for the formats without one of their own.
struct YCbCrSampler: YCbCrReader {
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

/// YUYV: Y′ Cb Y′ Cr, each pair of pixels sharing its chroma.
struct YUYVReader: YCbCrReader {
    let base: UnsafePointer<UInt8>, stride: Int

    init(_ frame: VideoFrame) {
        base = frame.plane0.base.assumingMemoryBound(to: UInt8.self)
        stride = frame.plane0.stride
    }

    @inline(__always) func y(_ x: Int, _ row: Int) -> UInt8 { base[row * stride + 2 * x] }

    @inline(__always) func cbcr(_ x: Int, _ row: Int) -> (UInt8, UInt8) {
        let pair = base + row * stride + 4 * (x >> 1)
        return (pair[1], pair[3])
    }
}

/// Planar and semi-planar Y′CbCr (I420, I422, I444, NV12): chroma `horizontalShift` and
/// `verticalShift` times halved, in two planes or interleaved in one (`interleaved`).
struct PlanarReader: YCbCrReader {
    let luma: UnsafePointer<UInt8>, lumaStride: Int
    let cb: UnsafePointer<UInt8>, cbStride: Int
    let cr: UnsafePointer<UInt8>, crStride: Int
    let horizontalShift: Int, verticalShift: Int
    /// Cb and Cr interleaved in one plane (NV12): a sample's pair is two bytes.
    let interleaved: Bool

    /// nil for a format of another layout, or a frame without its chroma planes.
    init?(_ frame: VideoFrame) {
        luma = frame.plane0.base.assumingMemoryBound(to: UInt8.self)
        lumaStride = frame.plane0.stride
        guard let p1 = frame.plane1 else { return nil }
        let first = p1.base.assumingMemoryBound(to: UInt8.self)
        switch frame.format {
        case .i420: (horizontalShift, verticalShift, interleaved) = (1, 1, false)
        case .i422: (horizontalShift, verticalShift, interleaved) = (1, 0, false)
        case .i444: (horizontalShift, verticalShift, interleaved) = (0, 0, false)
        case .nv12: (horizontalShift, verticalShift, interleaved) = (1, 1, true)
        default: return nil
        }
        if interleaved {
            (cb, cbStride, cr, crStride) = (first, p1.stride, first + 1, p1.stride)
        } else {
            guard let p2 = frame.plane2 else { return nil }
            (cb, cbStride, cr, crStride) = (first, p1.stride, p2.base.assumingMemoryBound(to: UInt8.self), p2.stride)
        }
    }

    @inline(__always) func y(_ x: Int, _ row: Int) -> UInt8 { luma[row * lumaStride + x] }

    @inline(__always) func cbcr(_ x: Int, _ row: Int) -> (UInt8, UInt8) {
        let column = x >> horizontalShift, chromaRow = row >> verticalShift
        let offset = interleaved ? 2 * column : column
        return (cb[chromaRow * cbStride + offset], cr[chromaRow * crStride + offset])
    }
}
