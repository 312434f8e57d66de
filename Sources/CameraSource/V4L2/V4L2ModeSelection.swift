/// One capture mode a camera offers: a format at a size, with the frame intervals it can do there.
public struct V4L2Mode: Sendable, Equatable, CustomStringConvertible {
    public var fourcc: FourCC
    public var size: V4L2Size
    /// Intervals the driver lists for this size (empty: it does not say).
    public var intervals: [V4L2Fraction]
    /// libv4l2 makes this format by converting another one in software.
    public var isEmulated: Bool
    public init(fourcc: FourCC, size: V4L2Size, intervals: [V4L2Fraction], isEmulated: Bool = false) {
        self.fourcc = fourcc
        self.size = size
        self.intervals = intervals
        self.isEmulated = isEmulated
    }
    /// Whether this mode needs at least the USB bandwidth `other` needs: it is as large, and
    /// compressed only if `other` is (compressed frames are a fraction of raw ones).
    public func needsNoLessBandwidth(than other: V4L2Mode) -> Bool {
        size.area >= other.size.area && (other.fourcc.pixelFormat == .mjpeg || fourcc.pixelFormat != .mjpeg)
    }

    public var description: String {
        "\(fourcc) \(size) @ " + intervals.map { "\($0.framesPerSecond)" }.joined(separator: ", ")
    }
}

/// The mode chosen to capture in, and the frame interval to ask for (nil: leave the driver's).
public struct V4L2ModeChoice: Sendable, Equatable {
    public var mode: V4L2Mode
    public var interval: V4L2Fraction?
    public init(mode: V4L2Mode, interval: V4L2Fraction?) {
        self.mode = mode
        self.interval = interval
    }
}

/// Picks the cheapest capture mode that looks right in the window.
///
/// The smallest size that covers the display size on both sides, give or take a tenth (`covers`),
/// unless a larger covering mode of its shape costs clearly less to show (`ModeCost`: an MJPEG
/// mode twice the window's size decodes at 1/2, without an inverse DCT); else the largest size, among
/// the modes that reach 25 fps; when none does, among the modes with the best rate. At equal
/// sizes YUYV wins, then the other raw formats, then MJPEG; formats libv4l2 emulates in software
/// count only when the camera offers nothing else pipcam can show.
public enum V4L2ModeSelector {
    /// Rates at or above this look smooth.
    public static let minimumSmoothRate = 25.0
    /// Rates above this cost more than they show (USB bandwidth, decoding, conversion).
    public static let preferredMaximumRate = 30.5

    /// The mode and interval to use for showing frames at `displayWidth`×`displayHeight`, or nil
    /// when no mode has a format pipcam can show. With `aspect`, modes of that shape (within 2 %)
    /// come first: the smallest of them that covers, else the smallest of any shape that covers,
    /// else the largest of them (a sharper picture is worth a new shape; a bigger one is not).
    public static func select(
        from modes: [V4L2Mode], displayWidth: Int, displayHeight: Int, aspect: Double? = nil, cost: ModeCost = .measured
    ) -> V4L2ModeChoice? {
        let usable = modes.filter { $0.fourcc.pixelFormat != nil }
        let native = usable.filter { !$0.isEmulated }
        let candidates = native.isEmpty ? usable : native
        guard !candidates.isEmpty else { return nil }

        let rated = candidates.map { (mode: $0, interval: preferredInterval(of: $0.intervals)) }
        func rate(_ i: V4L2Fraction?) -> Double { i?.framesPerSecond ?? 0 }
        var pool = rated.filter { rate($0.interval) >= minimumSmoothRate }
        if pool.isEmpty {
            let best = rated.map { rate($0.interval) }.max() ?? 0
            pool = rated.filter { rate($0.interval) >= best }
        }

        var covering = pool.filter { Self.covers($0.mode.size, displayWidth, displayHeight) }
        if let aspect {
            let shaped = (covering.isEmpty ? pool : covering).filter { Self.hasShape($0.mode.size, aspect) }
            if !shaped.isEmpty {
                if covering.isEmpty { pool = shaped } else { covering = shaped }
            }
        }
        let chosen: (mode: V4L2Mode, interval: V4L2Fraction?)?
        if covering.isEmpty {
            chosen = pool.min { better($0, than: $1, smallerFirst: false) }
        } else {
            chosen = covering.min { better($0, than: $1, smallerFirst: true) }.map {
                cheaper(than: $0, among: covering, displayWidth: displayWidth, displayHeight: displayHeight, cost: cost)
            }
        }
        return chosen.map { V4L2ModeChoice(mode: $0.mode, interval: $0.interval) }
    }

    /// A covering mode that costs clearly less to show than `smallest`, the smallest covering
    /// one, at the same shape and no lower rate, else `smallest`: 1080p MJPEG decoded at 1/2
    /// (no inverse DCT) for an 800×450 window, where 720p MJPEG needs a full decode. "Clearly":
    /// `clearlyCheaper` of its cost or less, for `ModeCost` is an estimate, and the larger mode
    /// needs more USB bandwidth.
    private static func cheaper(
        than smallest: (mode: V4L2Mode, interval: V4L2Fraction?), among covering: [(mode: V4L2Mode, interval: V4L2Fraction?)],
        displayWidth: Int, displayHeight: Int, cost: ModeCost
    ) -> (mode: V4L2Mode, interval: V4L2Fraction?) {
        func ms(_ mode: V4L2Mode) -> Double { cost.milliseconds(mode, displayWidth: displayWidth, displayHeight: displayHeight) }
        let size = smallest.mode.size
        let aspect = Double(size.width) / Double(max(1, size.height))
        let rate = smallest.interval?.framesPerSecond ?? 0
        let alternatives = covering.filter {
            hasShape($0.mode.size, aspect) && ($0.interval?.framesPerSecond ?? 0) >= rate
                && ms($0.mode) <= ms(smallest.mode) * clearlyCheaper
        }
        return alternatives.min { ms($0.mode) < ms($1.mode) } ?? smallest
    }

    /// How much cheaper than the smallest covering mode a larger one must be to be taken instead.
    static let clearlyCheaper = 0.8

    /// Whether a camera streaming in `current` should change modes now that its frames are shown
    /// at `displayWidth`×`displayHeight`: when the window outgrew the frames by more than a tenth
    /// and a larger mode suits it; when it shrank so that a mode of a quarter the area or less
    /// covers it; or when the mode that suits it costs half the CPU to show or less (`ModeCost`:
    /// 1080p MJPEG decoded at full size for a 1280×720 window, where a 720p mode shows it 1:1). In
    /// between it keeps the mode: a switch stops the stream for a moment, and a window that grows
    /// back only takes the larger mode again once it outgrew the smaller one.
    public static func shouldSwitch(
        from current: V4L2Mode, modes: [V4L2Mode], displayWidth: Int, displayHeight: Int, cost: ModeCost = .measured
    ) -> Bool {
        let size = current.size
        guard displayWidth > 0, displayHeight > 0, size.area > 0 else { return false }
        let aspect = Double(size.width) / Double(size.height)
        guard let best = select(from: modes, displayWidth: displayWidth, displayHeight: displayHeight, aspect: aspect, cost: cost)?.mode,
            best.size != size || best.fourcc != current.fourcc
        else { return false }
        if !covers(size, displayWidth, displayHeight) { return best.size.area > size.area }
        guard best.size.area <= size.area else { return false }
        if best.size.area * 4 <= size.area { return true }
        let now = cost.milliseconds(current, displayWidth: displayWidth, displayHeight: displayHeight)
        return cost.milliseconds(best, displayWidth: displayWidth, displayHeight: displayHeight) * 2 <= now
    }

    /// Whether frames of `size` cover a display size, give or take a tenth: a picture stretched by
    /// a tenth or less looks the same, and a mode that small costs much less to decode and show (a
    /// 1306×735 main window shows 1280×720 frames, not 1920×1080 ones; docs/PERFORMANCE.md, "Camera
    /// modes"). Resizes keep a mode by the same rule.
    static func covers(_ size: V4L2Size, _ displayWidth: Int, _ displayHeight: Int) -> Bool {
        size.width * 11 >= displayWidth * 10 && size.height * 11 >= displayHeight * 10
    }

    static func hasShape(_ size: V4L2Size, _ aspect: Double) -> Bool {
        size.height > 0 && abs(Double(size.width) / Double(size.height) / aspect - 1) < 0.02
    }

    /// The interval to ask for: the fastest at most ~30 fps that is still smooth; else the slowest
    /// above 30 fps (60 rather than 120); else the fastest there is. Nil when none is listed.
    public static func preferredInterval(of intervals: [V4L2Fraction]) -> V4L2Fraction? {
        let valid = intervals.filter { $0.numerator > 0 && $0.denominator > 0 }
        let smooth = valid.filter {
            $0.framesPerSecond >= minimumSmoothRate && $0.framesPerSecond <= preferredMaximumRate
        }
        if let best = smooth.max(by: { $0.framesPerSecond < $1.framesPerSecond }) { return best }
        let fast = valid.filter { $0.framesPerSecond > preferredMaximumRate }
        if let slowest = fast.min(by: { $0.framesPerSecond < $1.framesPerSecond }) { return slowest }
        return valid.max(by: { $0.framesPerSecond < $1.framesPerSecond })
    }

    /// Formats in order of preference at equal size: cheapest to show first.
    static func rank(_ fourcc: FourCC) -> Int {
        switch fourcc {
        case .yuyv: return 0
        case .nv12: return 1
        case .yu12: return 2
        case .mjpeg: return 3
        case .jpeg: return 4
        case .bgr32, .xbgr32, .abgr32: return 5
        case .rgb24: return 6
        default: return 7
        }
    }

    /// Whether `a` beats `b`: by area (smaller or larger first), then format rank, then rate.
    private static func better(
        _ a: (mode: V4L2Mode, interval: V4L2Fraction?), than b: (mode: V4L2Mode, interval: V4L2Fraction?),
        smallerFirst: Bool
    ) -> Bool {
        if a.mode.size.area != b.mode.size.area {
            return smallerFirst ? a.mode.size.area < b.mode.size.area : a.mode.size.area > b.mode.size.area
        }
        if a.mode.size.width != b.mode.size.width {
            // Same area, different shape: the wider one (cameras' 16:9 modes suit the window).
            return a.mode.size.width > b.mode.size.width
        }
        if rank(a.mode.fourcc) != rank(b.mode.fourcc) { return rank(a.mode.fourcc) < rank(b.mode.fourcc) }
        return (a.interval?.framesPerSecond ?? 0) > (b.interval?.framesPerSecond ?? 0)
    }
}
