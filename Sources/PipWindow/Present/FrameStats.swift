#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Counters behind `--stats` and `pipcam status`: frames shown and dropped, frame rate,
/// capture-to-screen latency percentiles and CPU time per frame — all measured.
public struct FrameStats {
    public private(set) var shown = 0
    public private(set) var dropped = 0
    /// A live source's frames given back unshown while no window showed video (counted once one
    /// shows video again): neither shown nor dropped.
    public private(set) var unseen = 0
    public private(set) var corrupt = 0
    /// Switches to another source (`pipcam switch`, the switch key).
    public private(set) var switches = 0
    public private(set) var fps = 0.0
    /// Milliseconds from process start to the X server completing the first shown frame.
    public private(set) var firstFrameMilliseconds: Double?
    private var lastSequence: UInt64?
    /// The next gap is frames given back unseen, not drops (`restartSequence`).
    private var restarting = false
    // Latency histogram, no allocation per frame: 10 µs buckets up to 100 ms, then 1 ms buckets up
    // to 10 s (a slow path — plain puts over ssh — must not read as 100 ms), the last one beyond.
    private var buckets = [UInt32](repeating: 0, count: 10_000)
    private var slowBuckets = [UInt32](repeating: 0, count: 9_901)
    /// When the first and the latest counted frame reached the screen.
    private var firstShownAt: MonotonicInstant?, lastShownAt: MonotonicInstant?
    private var samples = 0
    private var rateWindowStart: MonotonicInstant
    private var shownAtWindowStart = 0
    private let startTime: MonotonicInstant

    public init(now: MonotonicInstant) {
        rateWindowStart = now
        startTime = now
    }

    /// A frame was taken for display: sequence gaps are frames dropped on the way.
    public mutating func noteTaken(sequence: UInt64) {
        // A source that restarted its numbering (or jumped absurdly) is not a billion dropped frames.
        // A source's numbers may be anything (a producer's own): the gap is taken without a trap.
        if let last = lastSequence, sequence > last, case let gap = sequence &- last, gap > 1, gap < 1 << 20 {
            if restarting { unseen += Int(gap - 1) } else { dropped += Int(gap - 1) }
        }
        restarting = false
        lastSequence = sequence
    }

    /// The frames since the last one taken were not for showing (no window showed video): the
    /// gap before the next one taken counts as `unseen`, neither shown nor dropped.
    public mutating func restartSequence() { restarting = true }

    /// The source was switched for another.
    public mutating func noteSwitch() { switches += 1 }

    /// A frame could not be decoded and was skipped.
    public mutating func noteCorrupt() {
        corrupt += 1
        dropped += 1
    }

    /// A frame reached the screen at `now`, `latency` nanoseconds after it was captured.
    public mutating func noteShown(latencyNanoseconds: UInt64, at now: MonotonicInstant = .now()) {
        if shown == 0 {
            firstFrameMilliseconds = ProcessClock.millisecondsSinceStart()
            firstShownAt = now
        }
        lastShownAt = now
        shown += 1
        let fine = Int(min(latencyNanoseconds / 10_000, UInt64(Int.max)))
        if fine < buckets.count {
            buckets[fine] += 1
        } else {
            slowBuckets[min(Int(latencyNanoseconds / 1_000_000) - 100, slowBuckets.count - 1)] += 1
        }
        samples += 1
    }

    /// The latency below which fraction `p` of frames were shown, in milliseconds.
    public func latencyPercentile(_ p: Double) -> Double {
        guard samples > 0 else { return 0 }
        let target = max(1, Int((Double(samples) * p).rounded(.up)))
        var seen = 0
        for (i, count) in buckets.enumerated() {
            seen += Int(count)
            if seen >= target { return Double(i) * 0.01 + 0.005 }
        }
        for (i, count) in slowBuckets.enumerated() {
            seen += Int(count)
            if seen >= target { return Double(100 + i) + 0.5 }
        }
        return Double(100 + slowBuckets.count)
    }

    /// Updates the frame rate over the time since the last call (call about once a second).
    public mutating func updateRate(now: MonotonicInstant) {
        let elapsed = now.seconds(since: rateWindowStart)
        guard elapsed > 0 else { return }
        fps = Double(shown - shownAtWindowStart) / elapsed
        rateWindowStart = now
        shownAtWindowStart = shown
    }

    /// Sets the frame rate to the average over the run (for the line printed at exit, whose last
    /// window may be a sliver of a second): the rate frames were shown at, from the first to the
    /// latest, so start-up (windows, the first decode) does not count.
    public mutating func finishRate() {
        guard shown > 1, let first = firstShownAt, let last = lastShownAt else { return }
        let elapsed = last.seconds(since: first)
        if elapsed > 0 { fps = Double(shown - 1) / elapsed }
    }

    /// Process CPU time (user + system) in milliseconds.
    public static func processCPUMilliseconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec) / 1000
        let system = Double(usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_stime.tv_usec) / 1000
        return user + system
    }

    /// The `--stats` line of docs/BEHAVIOUR.md; with `final` (at exit, when `PIPCAM_STATS_FIRST_FRAME=1`)
    /// it ends with `first_frame_ms=` once a frame was shown.
    /// `shared`: frames written to the virtual camera (`--share`), reported as `shared=`; once the
    /// source was switched, `switches=` follows.
    public func line(state: String, camera: CameraState, final: Bool = false, shared: Int? = nil) -> StatsLine {
        StatsLine(
            state: state, camera: camera, fps: fps, shown: shown, dropped: dropped,
            latencyP50: latencyPercentile(0.5), latencyP99: latencyPercentile(0.99),
            cpuPerFrame: shown > 0 ? Self.processCPUMilliseconds() / Double(shown) : 0,
            shared: shared, switches: switches > 0 ? switches : nil, firstFrame: final ? firstFrameMilliseconds : nil)
    }
}
