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
    /// Every destination pixel from its nearest source pixel, through Y′CbCr samples; black in
    /// the bars.
    func resample(_ frame: VideoFrame, crop: Rect, full: Bool, into out: Destination) {
        if fit?.fits(frame, crop: crop, into: out) != true {
            fit = NearestFit(
                sourceWidth: frame.width, sourceHeight: frame.height, outputWidth: out.width, outputHeight: out.height,
                crop: crop)
        }
        guard let map = fit else { return }
        if frame.format == .yuyv {
            Self.resample(YUYVReader(frame), map, full: full, into: out)
        } else if frame.format != .gray, let planar = PlanarReader(frame) {
            Self.resample(planar, map, full: full, into: out)
        } else {
            Self.resample(YCbCrSampler(frame), map, full: full, into: out)
        }
    }

    private static func resample<Reader: YCbCrReader>(_ sampler: Reader, _ map: NearestFit, full: Bool, into out: Destination) {
        let width = out.width, height = out.height, place = map.place, xs = map.xs, ys = map.ys
        // A table even when the range stays: a lookup costs less than a branch per sample.
        let luma = full ? LimitedRange.luma : LimitedRange.identity
        let chroma = full ? LimitedRange.chroma : LimitedRange.identity
        // The place is even (`Letterbox` with alignment 2): a YUYV pair or an I420 chroma sample
        // is all bar or all picture.
        switch out.format {
        case .yuyv:
            for row in 0..<height {
                let d = out.bytes + row * 2 * width
                guard row >= place.y && row < place.maxY else {
                    blackPairs(d, from: 0, to: width)
                    continue
                }
                let r = ys[row - place.y]
                blackPairs(d, from: 0, to: place.x)
                for x in Swift.stride(from: place.x, to: place.maxX, by: 2) {
                    let left = xs[x - place.x], right = xs[x + 1 - place.x]
                    let (u, v) = sampler.cbcr(left, r)
                    d[2 * x] = luma[Int(sampler.y(left, r))]
                    d[2 * x + 1] = chroma[Int(u)]
                    d[2 * x + 2] = luma[Int(sampler.y(right, r))]
                    d[2 * x + 3] = chroma[Int(v)]
                }
                blackPairs(d, from: place.maxX, to: width)
            }
        default:
            for row in 0..<height {
                let d = out.bytes + row * width
                guard row >= place.y && row < place.maxY else {
                    d.update(repeating: 16, count: width)
                    continue
                }
                let r = ys[row - place.y]
                d.update(repeating: 16, count: place.x)
                for x in place.x..<place.maxX { d[x] = luma[Int(sampler.y(xs[x - place.x], r))] }
                (d + place.maxX).update(repeating: 16, count: width - place.maxX)
            }
            let cw = width / 2, left = place.x / 2, right = place.maxX / 2
            for row in 0..<height / 2 {
                let u = out.cb + row * cw, v = out.cr + row * cw
                guard 2 * row >= place.y && 2 * row < place.maxY else {
                    u.update(repeating: 128, count: cw)
                    v.update(repeating: 128, count: cw)
                    continue
                }
                let r = ys[2 * row - place.y]
                u.update(repeating: 128, count: left)
                v.update(repeating: 128, count: left)
                for x in left..<right {
                    let (cb, cr) = sampler.cbcr(xs[2 * x - place.x], r)
                    u[x] = chroma[Int(cb)]
                    v[x] = chroma[Int(cr)]
                }
                (u + right).update(repeating: 128, count: cw - right)
                (v + right).update(repeating: 128, count: cw - right)
            }
        }
    }

    /// Black YUYV (16, 128) from pixel `start` to `end`.
    private static func blackPairs(_ d: UnsafeMutablePointer<UInt8>, from start: Int, to end: Int) {
        for x in Swift.stride(from: start, to: end, by: 2) {
            d[2 * x] = 16
            d[2 * x + 1] = 128
            d[2 * x + 2] = 16
            d[2 * x + 3] = 128
        }
    }
}
