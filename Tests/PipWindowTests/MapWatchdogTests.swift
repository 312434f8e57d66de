import PipCore
import Testing
@testable import PipWindow

/// `MapWatchdog` at exact milliseconds: a window shown is mapped again each second while the
/// server says it is unmapped, at most `retries` times, and never once it was mapped.
@Suite struct MapWatchdogTests {
    static func at(_ ms: Int64) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms) * 1_000_000) }

    /// The ticks at `times` (ms) with the window unmapped, and whether each mapped it again.
    static func remaps(_ watchdog: inout MapWatchdog, at times: [Int64], isMapped: Bool? = false) -> [Bool] {
        times.map { watchdog.tick(now: at($0), isMapped: isMapped) }
    }

    @Test func aDroppedMapRequestIsMadeAgainEachSecond() {
        var watchdog = MapWatchdog(retries: 3)
        watchdog.shown(now: Self.at(500))
        #expect(watchdog.nextDeadline == Self.at(1500))
        #expect(Self.remaps(&watchdog, at: [1499, 1500]) == [false, true])
        #expect(watchdog.nextDeadline == Self.at(2500))
        #expect(Self.remaps(&watchdog, at: [2600, 3600]) == [true, true])
        #expect(watchdog.nextDeadline == nil, "three retries, then it gives up")
        #expect(Self.remaps(&watchdog, at: [9000]) == [false])
    }

    @Test func onceMappedAnUnmapIsLeftAlone() {
        var watchdog = MapWatchdog(retries: 10)
        watchdog.shown(now: Self.at(0))
        watchdog.settled()
        #expect(watchdog.nextDeadline == nil && Self.remaps(&watchdog, at: [1000]) == [false])
    }

    /// Mapped meanwhile (the MapNotify not handled yet), or the window gone: nothing to do, and
    /// nothing more to watch.
    @Test(arguments: [true, nil] as [Bool?])
    func mappedOrGoneEndsTheWatch(isMapped: Bool?) {
        var watchdog = MapWatchdog(retries: 10)
        watchdog.shown(now: Self.at(0))
        #expect(Self.remaps(&watchdog, at: [1000], isMapped: isMapped) == [false])
        #expect(watchdog.nextDeadline == nil)
    }

    /// Shown again (PiP started anew): the retries start over.
    @Test func showingAgainStartsOver() {
        var watchdog = MapWatchdog(retries: 1)
        watchdog.shown(now: Self.at(0))
        #expect(Self.remaps(&watchdog, at: [1000]) == [true] && watchdog.nextDeadline == nil)
        watchdog.shown(now: Self.at(5000))
        #expect(Self.remaps(&watchdog, at: [6000]) == [true])
    }
}
