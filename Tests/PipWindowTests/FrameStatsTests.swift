import Testing
@testable import PipWindow
import PipCore

@Suite struct FrameStatsTests {
    @Test func percentilesComeFromTheRecordedLatencies() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        for i in 1...100 { stats.noteShown(latencyNanoseconds: UInt64(i) * 100_000) }  // 0.1 … 10 ms
        #expect(abs(stats.latencyPercentile(0.5) - 5.0) < 0.02)
        #expect(abs(stats.latencyPercentile(0.99) - 9.9) < 0.02)
        #expect(stats.shown == 100)
    }

    @Test func sequenceGapsAndCorruptFramesCountAsDropped() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        for s: UInt64 in [0, 1, 2, 5, 6, 10] { stats.noteTaken(sequence: s) }
        #expect(stats.dropped == 2 + 3)
        stats.noteCorrupt()
        #expect(stats.dropped == 6 && stats.corrupt == 1)
    }

    /// A source's numbers are its own: one that wraps past the end of UInt64, or jumps anywhere,
    /// is counted without a trap (and a jump is no billion dropped frames).
    @Test func numbersAtTheEndOfTheRangeAreNoTrap() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        for s: UInt64 in [.max - 3, .max, 2, 5, .max, 0] { stats.noteTaken(sequence: s) }
        #expect(stats.dropped == 2 + 2)
    }

    @Test func rateIsFramesOverElapsedTime() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        for _ in 0..<30 { stats.noteShown(latencyNanoseconds: 1_000_000) }
        stats.updateRate(now: MonotonicInstant(nanoseconds: 1_000_000_000))
        #expect(stats.fps == 30)
        for _ in 0..<15 { stats.noteShown(latencyNanoseconds: 1_000_000) }
        stats.updateRate(now: MonotonicInstant(nanoseconds: 1_500_000_000))
        #expect(stats.fps == 30)
    }

    /// A slow path (plain puts over a remote link) is reported as slow as it is.
    @Test func latenciesBeyondAHundredMillisecondsAreMeasured() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        for _ in 0..<10 { stats.noteShown(latencyNanoseconds: 250_000_000) }
        stats.noteShown(latencyNanoseconds: 2_500_000)
        #expect(abs(stats.latencyPercentile(0.5) - 250.5) < 0.01)
        #expect(abs(stats.latencyPercentile(0.05) - 2.505) < 0.01)
        stats.noteShown(latencyNanoseconds: 60_000_000_000)
        #expect(stats.latencyPercentile(1) >= 10_000, "beyond 10 s: the last bucket")
    }

    /// The rate at exit is the rate frames were shown at, not diluted by the start-up before the first.
    @Test func theFinalRateLeavesOutStartUp() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        for i in 0..<31 { stats.noteShown(latencyNanoseconds: 1_000_000, at: MonotonicInstant(nanoseconds: 1_000_000_000 + UInt64(i) * 1_000_000_000 / 30)) }
        stats.finishRate()
        #expect(abs(stats.fps - 30) < 0.01, "\(stats.fps)")
    }

    @Test func lineHasTheContractFields() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        stats.noteShown(latencyNanoseconds: 610_000)
        let line = stats.line(state: "active", camera: .streaming).description
        #expect(line.hasPrefix("pipcam: state=active camera=streaming fps=0.00 shown=1 dropped=0 latency_p50_ms=0.6"))
        #expect(line.contains(" latency_p99_ms=") && line.contains(" cpu_ms_per_frame="))
        #expect(!line.contains("first_frame_ms"))
    }

    /// `shared=` only while a virtual camera is fed (`--share`), after the contract's fields.
    @Test func sharedFramesFollowTheContractFields() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        stats.noteShown(latencyNanoseconds: 610_000)
        #expect(!stats.line(state: "active", camera: .streaming).description.contains("shared="))
        let line = stats.line(state: "active", camera: .interrupted(.disconnected), shared: 42).description
        #expect(line.range(of: #"cpu_ms_per_frame=[0-9.]+ shared=42$"#, options: .regularExpression) != nil, "\(line)")
    }

    /// `switches=` only once the source was switched, after `shared=`.
    @Test func switchesFollowOnceThereWasOne() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        stats.noteShown(latencyNanoseconds: 610_000)
        #expect(!stats.line(state: "active", camera: .streaming, shared: 3).description.contains("switches="))
        stats.noteSwitch()
        stats.noteSwitch()
        let line = stats.line(state: "active", camera: .streaming, shared: 3).description
        #expect(line.range(of: #"cpu_ms_per_frame=[0-9.]+ shared=3 switches=2$"#, options: .regularExpression) != nil, "\(line)")
    }

    @Test func finalLineEndsWithTheFirstFrameTime() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        #expect(!stats.line(state: "active", camera: .streaming, final: true).description.contains("first_frame_ms"))
        stats.noteShown(latencyNanoseconds: 610_000)
        let first = stats.firstFrameMilliseconds
        #expect(first != nil && first! > 0 && first! < 3_600_000)
        let line = stats.line(state: "active", camera: .streaming, final: true).description
        #expect(line.contains(" cpu_ms_per_frame=") && line.contains(" first_frame_ms="))
    }
}

@Suite struct FrameStatsSequenceTests {
    @Test func restartedOrWildSequencesDoNotCountAsDrops() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        for s: UInt64 in [100, 101, 0, 1, UInt64.max - 1, 3] { stats.noteTaken(sequence: s) }
        #expect(stats.dropped == 0)
    }

    /// Frames given back while no window showed video were not for showing: not drops but
    /// unseen ones. Gaps after the restart are drops again.
    @Test func framesNotForShowingAreNotDrops() {
        var stats = FrameStats(now: MonotonicInstant(nanoseconds: 0))
        stats.noteTaken(sequence: 10)
        stats.restartSequence()
        stats.noteTaken(sequence: 400)
        #expect(stats.dropped == 0 && stats.unseen == 389)
        stats.noteTaken(sequence: 403)
        #expect(stats.dropped == 2 && stats.unseen == 389)
        // A source numbered afresh meanwhile (switched while unseen) gives no count either way.
        stats.restartSequence()
        stats.noteTaken(sequence: 5)
        #expect(stats.dropped == 2 && stats.unseen == 389)
    }
}
