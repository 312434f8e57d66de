import Testing
@testable import CameraSource
import PipCore

/// The governor's decisions at exact instants: up one level per 2 s window with more than 25% of
/// at least 10 posted frames stale, down one level per 6 s without a stale frame.
@Suite struct PressureGovernorTests {
    private let second: UInt64 = 1_000_000_000

    /// Feeds `count` frames, one every `interval` ns from `start`, frame i stale when `stale(i)`;
    /// returns each change as (nanoseconds since `start`, new level).
    private func feed(
        _ governor: inout PressureGovernor, count: Int, every interval: UInt64, from start: UInt64 = 0,
        stale: (Int) -> Bool
    ) -> [(at: UInt64, level: Int)] {
        var changes: [(UInt64, Int)] = []
        for i in 0..<count {
            let t = start + UInt64(i) * interval
            if let level = governor.record(replacedStale: stale(i), now: MonotonicInstant(nanoseconds: t)) {
                changes.append((t - start, level))
            }
        }
        return changes
    }

    private func same(_ a: [(at: UInt64, level: Int)], _ b: [(UInt64, Int)]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.at == $1.0 && $0.level == $1.1 }
    }

    @Test func defaults() {
        let g = PressureGovernor()
        #expect(g.level == 0 && PressureGovernor.maximumLevel == 3)
        #expect(g.windowNanoseconds == 2 * second && g.calmNanoseconds == 6 * second)
        #expect(g.threshold == 0.25 && g.minimumFrames == 10)
    }

    @Test func halfStaleRaisesOneLevelPerWindowUpToTheMaximum() {
        var g = PressureGovernor()
        // 10 fps for 20 s, every other frame stale.
        let changes = feed(&g, count: 201, every: second / 10) { $0 % 2 == 1 }
        #expect(same(changes, [(2 * second, 1), (4 * second, 2), (6 * second, 3)]), "\(changes)")
        #expect(g.level == 3)
    }

    @Test func calmLowersOneLevelPerSixSeconds() {
        var g = PressureGovernor()
        // Stale every other frame until 6.0 s (last stale at 5.9 s, level 3 reached at 6.0 s), then none.
        let changes = feed(&g, count: 301, every: second / 10) { $0 % 2 == 1 && $0 < 60 }
        #expect(same(changes, [
            (2 * second, 1), (4 * second, 2), (6 * second, 3),
            (12 * second, 2), (18 * second, 1), (24 * second, 0),
        ]), "\(changes)")
        #expect(g.level == 0)
    }

    /// Calm counts from the last stale frame when that is later than the last change.
    @Test func calmCountsFromTheLastStaleFrame() {
        var g = PressureGovernor()
        var changes = feed(&g, count: 21, every: second / 10) { $0 % 2 == 1 }
        #expect(same(changes, [(2 * second, 1)]))
        // One stale frame at 3.0 s: fewer than 25% of the window, so no rise, but calm restarts.
        changes = feed(&g, count: 100, every: second / 10, from: 2 * second + second / 10) { $0 == 9 }
        // Frame 0 of this run is at 2.1 s; the stale one at 3.0 s; calm ends at 9.0 s = 6.9 s into the run.
        #expect(same(changes, [(6 * second + 9 * second / 10, 0)]), "\(changes)")
    }

    @Test func exactlyAQuarterStaleIsNoPressure() {
        var g = PressureGovernor()
        // 20 frames per window (the 20th lands just past 2 s), every 4th stale: 5/20 = 25%, not more.
        let interval: UInt64 = 2 * second / 19 + 1
        #expect(feed(&g, count: 20, every: interval) { $0 % 4 == 3 }.isEmpty)
        #expect(g.level == 0)
        // One more stale frame in a window tips it.
        var h = PressureGovernor()
        let changes = feed(&h, count: 20, every: interval) { $0 % 4 == 3 || $0 == 0 }
        #expect(same(changes, [(19 * interval, 1)]), "\(changes)")
    }

    @Test func belowThresholdNeverRises() {
        var g = PressureGovernor()
        #expect(feed(&g, count: 600, every: second / 30) { $0 % 5 == 0 }.isEmpty)  // 20% stale
        #expect(g.level == 0)
    }

    @Test func fewerThanTenFramesInAWindowNeverRise() {
        var g = PressureGovernor()
        // 9 frames per window (one every 250 ms, the 9th at exactly 2 s), all stale.
        #expect(feed(&g, count: 100, every: second / 4) { _ in true }.isEmpty)
        #expect(g.level == 0)
        // Ten frames in the window are enough.
        var h = PressureGovernor()
        let interval = 2 * second / 9 + 1
        let changes = feed(&h, count: 10, every: interval) { _ in true }
        #expect(same(changes, [(9 * interval, 1)]), "\(changes)")
    }

    @Test func noChangeIsReportedAsNil() {
        var g = PressureGovernor()
        for i in 0..<19 {
            #expect(g.record(replacedStale: true, now: MonotonicInstant(nanoseconds: UInt64(i) * second / 10)) == nil)
        }
        #expect(g.record(replacedStale: true, now: MonotonicInstant(nanoseconds: 2 * second)) == 1)
        #expect(g.level == 1)
    }

    /// The window and calm stretch are settings (the pump's tests use short ones).
    @Test func shorterWindowsScaleTheTiming() {
        var g = PressureGovernor()
        g.windowNanoseconds = 20_000_000
        g.calmNanoseconds = 60_000_000
        let ms: UInt64 = 1_000_000
        let changes = feed(&g, count: 200, every: ms) { $0 < 40 }
        #expect(same(changes, [(20 * ms, 1), (40 * ms, 2), (100 * ms, 1), (160 * ms, 0)]), "\(changes)")
    }
}
