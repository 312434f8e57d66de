import PipCore

/// Which source pixel each destination pixel takes, for frames of one size and one destination:
/// the part shown fitted into the destination at its own shape (a 4:3 camera switched to in a
/// 16:9 stream is not stretched) by the windows' own fit (`Letterbox`), black bars around it, each
/// axis mapped to the nearest pixel by `ScaleTable.nearest`. Made when the geometry changes, not
/// per frame.
struct NearestFit: Equatable {
    let sourceWidth: Int, sourceHeight: Int
    let outputWidth: Int, outputHeight: Int
    /// The part of the source shown (`Framing.crop`).
    let crop: Rect
    /// The picture's place in the destination; even, so chroma pairs never straddle a bar.
    let place: Rect
    /// Source column of each picture column, source row of each picture row.
    let xs: [Int], ys: [Int]

    init(sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int, crop: Rect? = nil) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        let crop = crop ?? .whole(width: sourceWidth, height: sourceHeight)
        self.crop = crop
        // The part shown keeps the picture's shape, give or take a pixel of rounding.
        place = Letterbox.fit(
            pictureWidth: crop.width, pictureHeight: crop.height,
            destinationWidth: outputWidth, destinationHeight: outputHeight, alignment: 2)
        xs = ScaleTable.nearest(sourceLength: crop.width, outputLength: place.width, offset: crop.x)
        ys = ScaleTable.nearest(sourceLength: crop.height, outputLength: place.height, offset: crop.y)
    }

    func fits(_ frame: VideoFrame, crop: Rect, into out: YCbCrConverter.Destination) -> Bool {
        sourceWidth == frame.width && sourceHeight == frame.height && self.crop == crop
            && outputWidth == out.width && outputHeight == out.height
    }
}

extension YCbCrConverter {
    /// Every destination pixel from its nearest source pixel, through Y′CbCr samples
    /// (`YCbCrSampler`); black in the bars.
    func resample(_ frame: VideoFrame, crop: Rect, full: Bool, into out: Destination) {
        if fit?.fits(frame, crop: crop, into: out) != true {
            fit = NearestFit(
                sourceWidth: frame.width, sourceHeight: frame.height, outputWidth: out.width, outputHeight: out.height,
                crop: crop)
        }
        guard let map = fit else { return }
        let sampler = YCbCrSampler(frame)
        let width = out.width, height = out.height
        let o = out.bytes
        let luma = full ? LimitedRange.luma : nil, chroma = full ? LimitedRange.chroma : nil
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
        // Source column / row of a destination one; -1 in the bars.
        let place = map.place
        @inline(__always) func sx(_ x: Int) -> Int { x >= place.x && x < place.maxX ? map.xs[x - place.x] : -1 }
        @inline(__always) func sy(_ row: Int) -> Int { row >= place.y && row < place.maxY ? map.ys[row - place.y] : -1 }
        switch out.format {
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
            let cw = width / 2, cb = out.cb, cr = out.cr
            for row in 0..<height {
                let d = o + row * width, r = sy(row)
                for x in 0..<width { d[x] = y(sx(x), r) }
            }
            for row in 0..<height / 2 {
                let r = sy(2 * row)
                for x in 0..<cw {
                    let (u, v) = c(sx(2 * x), r)
                    cb[row * cw + x] = u
                    cr[row * cw + x] = v
                }
            }
        }
    }
}
