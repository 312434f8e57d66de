import Testing
@testable import PipWindow
import PipCore

/// `isPossible`, and losing the content source or its window in every phase.
@Suite struct PipStateMachineSourceTests {
    let source = PipHarness.source
    let pip = PipHarness.pip

    @Test func possibleFollowsAttachAndRemoval() {
        for removal in [PipEvent.contentSourceRemoved, .sourceDestroyed] {
            var h = PipHarness(attached: false)
            #expect(!h.machine.isPossible)
            #expect(h.send(.contentSourceAttached, at: 0) == [.possibleChanged(true)])
            #expect(h.machine.isPossible)
            #expect(h.send(.contentSourceAttached, at: 1) == [])
            #expect(h.send(removal, at: 2) == [.possibleChanged(false)])
            #expect(!h.machine.isPossible)
            #expect(h.send(.contentSourceRemoved, at: 3) == [])
            #expect(h.send(.sourceDestroyed, at: 4) == [])
        }
    }

    /// What each phase emits when the source goes: the callbacks are closed, the windows hidden,
    /// and nothing is restored.
    static let removalActions: [(PipPhase, [PipAction])] = [
        (.idle, [.possibleChanged(false)]),
        (.starting, [.possibleChanged(false), .didStart, .willStop, .hideProxy, .didStop]),
        (.active, [.possibleChanged(false), .willStop, .hidePip, .didStop]),
        (.stopping, [.possibleChanged(false), .hideProxy, .didStop]),
        (.restoring, [.possibleChanged(false), .didStop]),
    ]

    @Test(arguments: [PipEvent.contentSourceRemoved, .sourceDestroyed])
    func removalInEveryPhaseStopsWithoutRestore(_ removal: PipEvent) {
        for (phase, expected) in Self.removalActions {
            var h = PipHarness.inPhase(phase)
            #expect(h.send(removal, at: 1300) == expected, "\(phase)")
            #expect(h.phase == .idle)
            #expect(h.machine.animation == nil)
            #expect(h.machine.sourceFrame == nil)
            #expect(h.deadline == nil)
            // An abandoned restore stays abandoned.
            #expect(h.send(.restoreCompleted, at: 1400) == [])
            #expect(h.send(.tick, at: 2000) == [])
        }
    }

    @Test func removalFailsAQueuedStart() {
        var h = PipHarness.stopping()
        h.send(.startRequested, at: 1100)
        #expect(h.send(.contentSourceRemoved, at: 1150)
                == [.possibleChanged(false), .hideProxy, .didStop, .failedToStart(.notPossible)])
        #expect(h.phase == .idle)
    }

    @Test func removalCancelsAPendingAutomaticStart() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        #expect(h.deadline == 150)
        h.send(.contentSourceRemoved, at: 50)
        #expect(h.deadline == nil)
        h.send(.contentSourceAttached, at: 60)
        #expect(h.send(.tick, at: 150) == [])
        #expect(h.send(.tick, at: 1000) == [])
        #expect(h.phase == .idle)
    }

    @Test func aNewSourceWindowNeedsItsOwnFrame() {
        var h = PipHarness()
        h.send(.sourceDestroyed, at: 0)
        h.send(.contentSourceAttached, at: 10)
        // The old window's frame is gone: no grow animation from a place nothing is.
        #expect(h.send(.startRequested, at: 20) == [.willStart, .showPip(pip), .didStart])
        h.send(.stopRequested(restore: false), at: 30)
        let frame = Rect(x: 0, y: 0, width: 640, height: 480)
        h.send(.sourceFrameChanged(frame), at: 40)
        #expect(h.send(.startRequested, at: 50) == [.willStart, .showProxy(frame)])
    }

    @Test func startAfterRemovalIsNotPossible() {
        var h = PipHarness.active()
        h.send(.sourceDestroyed, at: 500)
        #expect(h.send(.startRequested, at: 600) == [.failedToStart(.notPossible)])
        #expect(h.phase == .idle)
    }
}
