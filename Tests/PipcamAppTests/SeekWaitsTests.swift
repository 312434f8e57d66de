import PipCore
import Testing
@testable import PipcamApp

/// `pipcam seek` is answered once a frame after it shows, or when it has waited its patience.
@Suite struct SeekWaitsTests {
    private func at(_ ms: UInt64) -> MonotonicInstant { MonotonicInstant(nanoseconds: ms * 1_000_000) }

    @Test func aSeekIsAnsweredByTheFirstFrameAfterIt() {
        var waits = SeekWaits()
        waits.asked(number: 3, at: at(1000))
        #expect(waits.shown(answering: 2).isEmpty, "a frame from before the seek")
        #expect(waits.shown(answering: 3) == [3])
        #expect(waits.waiting.isEmpty && waits.nextDeadline == nil)
    }

    @Test func oneFrameAnswersEverySeekBeforeIt() {
        var waits = SeekWaits()
        waits.asked(number: 1, at: at(0))
        waits.asked(number: 2, at: at(10))
        waits.asked(number: 4, at: at(20))
        #expect(waits.shown(answering: 2) == [1, 2])
        #expect(waits.waiting.map(\.number) == [4])
    }

    @Test func aSeekWaitsItsPatienceExactly() {
        var waits = SeekWaits()
        waits.asked(number: 1, at: at(1000))
        waits.asked(number: 2, at: at(1200))
        #expect(waits.nextDeadline == at(2500))
        #expect(waits.expired(at: at(2499)).isEmpty)
        #expect(waits.expired(at: at(2500)) == [1])
        #expect(waits.nextDeadline == at(2700))
        #expect(waits.expired(at: at(2699)).isEmpty && waits.expired(at: at(2700)) == [2])
    }

    @Test func theFileGoingAnswersEverySeek() {
        var waits = SeekWaits()
        waits.asked(number: 1, at: at(0))
        waits.asked(number: 2, at: at(5))
        #expect(waits.dropAll() == [1, 2] && waits.waiting.isEmpty)
    }
}
