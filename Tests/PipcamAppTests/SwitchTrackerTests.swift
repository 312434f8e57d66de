import PipCore
import Testing
@testable import PipcamApp

/// `SwitchTracker` (docs/BEHAVIOUR.md, "Switching the source") at exact milliseconds: 5 s to
/// open, then answered at the new source's first frame put to the window showing video, or 1 s
/// after the switch all the same.
@Suite struct SwitchTrackerTests {
    static func at(_ ms: Int) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms) * 1_000_000) }

    /// A switch from the test pattern to `/dev/video2` asked at 1000 ms.
    static func asked() -> SwitchTracker {
        var tracker = SwitchTracker()
        tracker.begin(target: "/dev/video2", from: "test", now: at(1000))
        return tracker
    }

    @Test func answeredAtTheNewSourcesFirstFrameShown() {
        var tracker = Self.asked()
        #expect(tracker.nextDeadline == Self.at(6000))
        #expect(tracker.presented(sequence: 500) == nil, "the old source's frames")
        #expect(tracker.switched(name: "/dev/video2", firstSequence: 1_000_000, showingVideo: true, now: Self.at(1800)) == nil)
        #expect(tracker.nextDeadline == Self.at(2800))
        #expect(tracker.presented(sequence: 501) == nil)
        #expect(tracker.presented(sequence: 1_000_000) == .switched("/dev/video2"))
        #expect(tracker.pending == nil && tracker.nextDeadline == nil)
    }

    /// No window shows video, or the first frame went by before the capture side's word came.
    @Test func answeredAtOnceWhenNothingIsToWaitFor() {
        var hidden = Self.asked()
        #expect(hidden.switched(name: "/dev/video2", firstSequence: 7, showingVideo: false, now: Self.at(1500)) == .switched("/dev/video2"))
        var passed = Self.asked()
        #expect(passed.presented(sequence: 9) == nil)
        #expect(passed.switched(name: "/dev/video2", firstSequence: 7, showingVideo: true, now: Self.at(1500)) == .switched("/dev/video2"))
    }

    @Test func answeredASecondAfterTheSwitchWhateverIsShown() {
        var tracker = Self.asked()
        _ = tracker.switched(name: "/dev/video2", firstSequence: 7, showingVideo: true, now: Self.at(1800))
        #expect(tracker.tick(now: Self.at(2799)) == nil)
        #expect(tracker.tick(now: Self.at(2800)) == .answer(.switched("/dev/video2")))
        #expect(tracker.tick(now: Self.at(2900)) == nil, "answered once")
    }

    @Test func oneSwitchAtATime() {
        var tracker = Self.asked()
        #expect(tracker.refusal == "pipcam: a switch to /dev/video2 is under way")
        tracker.begin(target: "next", from: "test", now: Self.at(1500))
        #expect(tracker.pending?.target == "/dev/video2" && tracker.nextDeadline == Self.at(6000))
        #expect(SwitchTracker().refusal == nil)
    }

    @Test func aSourceThatFailsLeavesTheOldOne() {
        var tracker = Self.asked()
        #expect(tracker.failed(reason: "/dev/video2: no such device") == .failed("pipcam: cannot switch to /dev/video2: no such device (still showing test)"))
        #expect(tracker.pending == nil && tracker.refusal == nil)
    }

    /// Not open after 5 s: given up when its source can still be stopped; otherwise (handed over
    /// at that moment) its outcome is waited for, with no deadline to spin on.
    @Test func notOpenInFiveSeconds() {
        var stopped = Self.asked()
        #expect(stopped.tick(now: Self.at(5999)) == nil)
        #expect(stopped.tick(now: Self.at(6000)) == .openTimedOut)
        #expect(stopped.giveUp() == .failed("pipcam: cannot switch to /dev/video2: it did not open within 5 s (still showing test)"))
        #expect(stopped.pending == nil)

        var handed = Self.asked()
        #expect(handed.tick(now: Self.at(6000)) == .openTimedOut)
        handed.handedOver()
        #expect(handed.nextDeadline == nil && handed.tick(now: Self.at(9000)) == nil)
        #expect(handed.switched(name: "/dev/video2", firstSequence: 7, showingVideo: true, now: Self.at(6010)) == nil)
        #expect(handed.nextDeadline == Self.at(7010))
        #expect(handed.giveUp() == nil, "switched already: nothing to give up")
    }
}
