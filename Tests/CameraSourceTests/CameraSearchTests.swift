import Testing
@testable import CameraSource
import PipCore

/// When the finder looks for a camera while the test pattern stands in, and which cameras it
/// leaves out, at exact milliseconds.
@Suite struct CameraSearchTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    @Test func looksAtOnceThenEveryTwoSecondsAndOpensCamerasOnlyWhenTheNodesChange() {
        var search = CameraSearch(now: t0)
        #expect(search.nextDeadline == t0 && search.phase == .looking)
        #expect(search.look(nodes: [], now: t0) == [], "the first look opens whatever is there")
        #expect(search.nextDeadline == t0 + ms(2000))
        #expect(search.look(nodes: ["/dev/video0"], now: t0 + ms(1999)) == nil, "not due yet")
        #expect(search.nextDeadline == t0 + ms(2000))
        #expect(search.look(nodes: [], now: t0 + ms(2000)) == nil, "the same nodes: nothing can have changed")
        #expect(search.nextDeadline == t0 + ms(4000))
        // A late look (a busy host) counts two seconds from when it happened.
        #expect(search.look(nodes: ["/dev/video9"], now: t0 + ms(4300)) == [])
        #expect(search.nextDeadline == t0 + ms(6300))
    }

    @Test func aCameraOnItsWayStopsTheLooksUntilItsOutcome() {
        var search = CameraSearch(now: t0)
        _ = search.look(nodes: ["/dev/video0"], now: t0)
        search.offered("/dev/video0")
        #expect(search.phase == .offered(path: "/dev/video0") && search.nextDeadline == nil)
        #expect(search.look(nodes: ["/dev/video0", "/dev/video1"], now: t0 + ms(5000)) == nil)
        // It never gave a frame: looked for again at once, leaving it out.
        let failure = search.failed("/dev/video0", now: t0 + ms(10_000))
        #expect(failure.say && failure.excluding == ["/dev/video0"])
        #expect(search.phase == .looking && search.nextDeadline == t0 + ms(2000))
        #expect(search.look(nodes: ["/dev/video0", "/dev/video1"], now: t0 + ms(10_000)) == ["/dev/video0"])
        search.offered("/dev/video1")
        search.end()
        #expect(search.phase == .over && search.nextDeadline == nil)
        #expect(search.look(nodes: [], now: t0 + ms(60_000)) == nil)
        _ = search.failed("/dev/video1", now: t0 + ms(60_000))
        #expect(search.phase == .over, "a late failure does not start the search again")
    }

    /// A camera that keeps failing is said once and tried again after 2, 4, 8 … up to 64 s.
    @Test func aCameraThatKeepsFailingIsTriedLessOftenAndSaidOnce() {
        var search = CameraSearch(now: t0)
        let nodes = ["/dev/video2"]
        #expect(search.look(nodes: nodes, now: t0) == [])
        var now = t0
        var says: [Bool] = [], tries: [Int64] = []
        for _ in 0..<9 {
            let failure = search.failed("/dev/video2", now: now)
            says.append(failure.say)
            #expect(failure.excluding == ["/dev/video2"])
            // Looks every two seconds; the first that includes it again is its retry.
            let failedAt = now
            repeat {
                now = search.nextDeadline!
            } while search.look(nodes: nodes, now: now) != []
            tries.append(Int64(now.nanoseconds - failedAt.nanoseconds) / 1_000_000)
        }
        #expect(says == [true] + Array(repeating: false, count: 8))
        // Each retry comes at the first look once its wait is over (looks every 2 s from t0).
        #expect(tries == [2000, 4000, 8000, 16_000, 32_000, 64_000, 64_000, 64_000, 64_000])
    }

    @Test func aNodeThatGoesIsForgottenSoItsCameraIsTriedAndSaidAgainWhenItComesBack() {
        var search = CameraSearch(now: t0)
        _ = search.look(nodes: ["/dev/video2"], now: t0)
        _ = search.failed("/dev/video2", now: t0)
        _ = search.failed("/dev/video2", now: t0 + ms(100))  // waits 4 s now
        #expect(search.look(nodes: [], now: t0 + ms(2000)) == [], "unplugged: nothing left out")
        #expect(search.look(nodes: ["/dev/video2"], now: t0 + ms(4000)) == [], "plugged in again: tried at once")
        #expect(search.failed("/dev/video2", now: t0 + ms(4000)).say, "and said again")
    }

    @Test func aFailureDueAgainOpensTheCamerasWithTheSameNodes() {
        var search = CameraSearch(now: t0)
        _ = search.look(nodes: ["/dev/video0", "/dev/video1"], now: t0)
        _ = search.failed("/dev/video0", now: t0)
        _ = search.failed("/dev/video1", now: t0 + ms(1000))
        // At 2 s video0 is due (its 2 s wait is over), video1 is not (due at 3 s).
        #expect(search.look(nodes: ["/dev/video0", "/dev/video1"], now: t0 + ms(2000)) == ["/dev/video1"])
        #expect(search.look(nodes: ["/dev/video0", "/dev/video1"], now: t0 + ms(4000)) == [])
    }
}
