extension CameraDescription {
    /// The `pipcam --list-cameras` text for these cameras, one block per camera, e.g.
    ///
    ///     /dev/video0: Integrated Camera (uvcvideo)
    ///       YUYV 640x480 @ 30, 15 fps; 1280x720 @ 10 fps
    ///       MJPG 1280x720 @ 30 fps; 1920x1080 @ 30 fps
    ///
    /// Formats libv4l2 makes in software (RGB3, BGR3, YU12, YV12 for most webcams) are left out
    /// unless `includeEmulated` or the camera has nothing else; shown, they are marked `(emulated)`.
    /// "no cameras found" when empty. Ends with a newline.
    public static func listing(_ cameras: [CameraDescription], includeEmulated: Bool = false) -> String {
        guard !cameras.isEmpty else { return "no cameras found\n" }
        return cameras.map { $0.listing(includeEmulated: includeEmulated) }.joined()
    }

    /// This camera's block of the `--list-cameras` text.
    public func listing(includeEmulated: Bool = false) -> String {
        var text = "\(path): \(card.isEmpty ? "(unnamed)" : card) (\(driver))\n"
        let native = formats.filter { !$0.isEmulated }
        let shown = includeEmulated || native.isEmpty ? formats : native
        if shown.isEmpty { text += "  no formats listed\n" }
        for format in shown {
            text += "  \(format.fourcc)\(format.isEmulated ? " (emulated)" : "")"
            var entries: [String] = []
            if let range = format.sizeRange {
                let step = range.step == V4L2Size(1, 1) ? "" : " step \(range.step)"
                entries.append("\(range.min) to \(range.max)\(step)" + Self.rates(format.sizes.first?.intervals ?? .unknown))
            } else {
                entries = format.sizes.map { "\($0.size)" + Self.rates($0.intervals) }
            }
            text += entries.isEmpty ? "\n" : " " + entries.joined(separator: "; ") + "\n"
        }
        return text
    }

    /// " @ 30, 15 fps", " @ 1-60 fps", or "" when the rates are not known.
    static func rates(_ intervals: V4L2FrameIntervals) -> String {
        switch intervals {
        case .unknown: return ""
        case .discrete(let list):
            var seen: [Double] = []
            for fps in list.map(\.framesPerSecond).sorted(by: >) where fps > 0 && !seen.contains(fps) { seen.append(fps) }
            return seen.isEmpty ? "" : " @ " + seen.map(formatRate).joined(separator: ", ") + " fps"
        case .stepwise(let fastest, let slowest, _):
            return " @ \(formatRate(slowest.framesPerSecond))-\(formatRate(fastest.framesPerSecond)) fps"
        }
    }

    /// A rate as a whole number when it is one (30), else with up to two decimals (29.97, 7.5).
    static func formatRate(_ fps: Double) -> String {
        let hundredths = Int((fps * 100).rounded())
        let whole = hundredths / 100, frac = hundredths % 100
        if frac == 0 { return "\(whole)" }
        return frac % 10 == 0 ? "\(whole).\(frac / 10)" : "\(whole).\(frac < 10 ? "0" : "")\(frac)"
    }
}
