extension V4L2Fraction {
    /// Whether this interval is shorter than (a faster rate than) `other`.
    func isShorter(than other: V4L2Fraction) -> Bool {
        UInt64(numerator) * UInt64(other.denominator) < UInt64(other.numerator) * UInt64(denominator)
    }
}

extension V4L2FrameIntervals {
    /// Intervals worth asking for: the listed ones, or for a range its ends plus 1/30 and 1/25
    /// when they lie inside (the driver rounds S_PARM to what it can do).
    public var candidates: [V4L2Fraction] {
        switch self {
        case .discrete(let list): return list
        case .unknown: return []
        case .stepwise(let fastest, let slowest, _):
            var list = [fastest]
            for fps: UInt32 in [30, 25] {
                let i = V4L2Fraction.interval(fps: fps)
                if !i.isShorter(than: fastest) && !slowest.isShorter(than: i) && !list.contains(i) { list.append(i) }
            }
            if slowest != fastest { list.append(slowest) }
            return list
        }
    }
}

extension V4L2FrameSizes {
    /// Sizes worth asking for: the listed ones, or for a range the display size (rounded up to
    /// the step, clamped to the range) and the largest size. Widths are rounded to multiples of
    /// 8 and heights to even numbers: libv4l2 crops other sizes of the formats it can convert to
    /// (YU12, RGB3) in software, frame by frame.
    public func candidates(displayWidth: Int, displayHeight: Int) -> [V4L2Size] {
        switch self {
        case .discrete(let list): return list
        case .unknown: return []
        case .stepwise(let lo, let hi, let step):
            func fit(_ v: Int, _ lo: Int, _ hi: Int, _ step: Int) -> Int {
                let s = max(1, step)
                let up = lo + (max(0, v - lo) + s - 1) / s * s
                return min(max(up, lo), hi)
            }
            func lcm(_ a: Int, _ b: Int) -> Int {
                var (x, y) = (max(1, a), b)
                while y != 0 { (x, y) = (y, x % y) }
                return max(1, a) / x * b
            }
            let display = V4L2Size(
                fit(displayWidth, lo.width, hi.width, lcm(step.width, 8)),
                fit(displayHeight, lo.height, hi.height, lcm(step.height, 2)))
            return display == hi ? [hi] : [display, hi]
        }
    }
}

extension V4L2Device {
    /// Every mode the device offers in formats pipcam can show, for showing at the display size.
    ///
    /// Drivers that do not enumerate sizes get one mode at the display size (S_FMT will adjust
    /// it); sizes whose intervals are not enumerated get an empty interval list.
    public func captureModes(displayWidth: Int, displayHeight: Int) throws(V4L2Error) -> [V4L2Mode] {
        var modes: [V4L2Mode] = []
        for format in try enumerateFormats() where format.fourcc.pixelFormat != nil {
            let sizes = try enumerateFrameSizes(format.fourcc)
            var list = sizes.candidates(displayWidth: displayWidth, displayHeight: displayHeight)
            if list.isEmpty { list = [V4L2Size(displayWidth, displayHeight)] }
            for size in list {
                let intervals = try enumerateFrameIntervals(format.fourcc, size: size)
                modes.append(V4L2Mode(
                    fourcc: format.fourcc, size: size, intervals: intervals.candidates, isEmulated: format.isEmulated))
            }
        }
        return modes
    }
}
