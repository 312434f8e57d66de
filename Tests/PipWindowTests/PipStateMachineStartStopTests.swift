import Testing
@testable import PipWindow
import PipCore

/// Start, stop, close and restore: the exact action lists and phases.
@Suite struct PipStateMachineStartStopTests {
    let source = PipHarness.source
    let pip = PipHarness.pip

    @Test func startGrowsOutOfTheSourceWindow() {
        var h = PipHarness()
        #expect(h.send(.startRequested, at: 0) == [.willStart, .showProxy(source)])
        #expect(h.phase == .starting)
        #expect(!h.machine.isActive)
        #expect(!h.machine.startedAutomatically)
        #expect(h.deadline == 16)
    }

    @Test func growthEndsWithThePipWindowMappedBeforeTheProxyGoes() {
        var h = PipHarness.starting()
        #expect(h.send(.tick, at: 250) == [.moveProxy(pip), .showPip(pip), .hideProxy, .didStart])
        #expect(h.phase == .active)
        #expect(h.machine.isActive)
        #expect(h.deadline == nil)
    }

    @Test func startWithoutSourceFrameShowsPipAtOnce() {
        var h = PipHarness(sourceFrame: nil)
        #expect(h.send(.startRequested, at: 0) == [.willStart, .showPip(pip), .didStart])
        #expect(h.phase == .active)
        #expect(h.deadline == nil)
    }

    @Test func startWhenNotPossibleFails() {
        var h = PipHarness(attached: false)
        #expect(h.send(.startRequested, at: 0) == [.failedToStart(.notPossible)])
        #expect(h.phase == .idle)
        #expect(h.deadline == nil)
    }

    @Test func startWhileStartingOrActiveIsIgnored() {
        var h = PipHarness.starting()
        #expect(h.send(.startRequested, at: 100) == [])
        #expect(h.phase == .starting)
        h.send(.tick, at: 250)
        #expect(h.send(.startRequested, at: 300) == [])
        #expect(h.phase == .active)
    }

    @Test func stopWithRestoreShrinksThenRestoresThenWaitsForCompletion() {
        var h = PipHarness.active()
        #expect(h.send(.stopRequested(restore: true), at: 1000) == [.willStop, .showProxy(pip), .hidePip])
        #expect(h.phase == .stopping)
        #expect(!h.machine.isActive)
        #expect(h.deadline == 1016)
        // restoreSource before restoreUserInterface; no didStop yet.
        #expect(h.send(.tick, at: 1250) == [.moveProxy(source), .hideProxy, .restoreSource(source), .restoreUserInterface])
        #expect(h.phase == .restoring)
        #expect(h.deadline == nil)
        #expect(h.send(.tick, at: 5000) == [])
        #expect(h.send(.restoreCompleted, at: 6000) == [.didStop])
        #expect(h.phase == .idle)
    }

    @Test func stopWithoutRestoreAndCloseEndAtOnce() {
        for event in [PipEvent.stopRequested(restore: false), .pipWindowClosed] {
            var h = PipHarness.active()
            #expect(h.send(event, at: 1000) == [.willStop, .hidePip, .didStop])
            #expect(h.phase == .idle)
            #expect(h.deadline == nil)
            #expect(h.send(.restoreCompleted, at: 1100) == [])
        }
    }

    /// No frame to shrink into (the source window not viewable), but the source window is still
    /// brought back (mapped, raised), not only the delegate's interface: a followed window left
    /// unmapped with no window manager stayed hidden, and the camera showed nowhere.
    @Test func stopWithUnknownSourceFrameRestoresTheSourceAndTheUserInterface() {
        var h = PipHarness(sourceFrame: nil)
        h.send(.startRequested, at: 0)
        #expect(h.send(.stopRequested(restore: true), at: 100) == [.willStop, .hidePip, .restoreSource(nil), .restoreUserInterface])
        #expect(h.phase == .restoring)
        #expect(h.deadline == nil)
        #expect(h.send(.restoreCompleted, at: 200) == [.didStop])
        #expect(h.phase == .idle)
    }

    @Test func stopIsIgnoredWhenIdleStoppingOrRestoring() {
        for phase in [PipPhase.idle, .stopping, .restoring] {
            for event in [PipEvent.stopRequested(restore: true), .stopRequested(restore: false), .pipWindowClosed] {
                var h = PipHarness.inPhase(phase)
                #expect(h.send(event, at: 1300) == [])
                #expect(h.phase == phase)
            }
        }
    }

    @Test func restoreCompletedIsIgnoredOutsideRestoring() {
        for phase in [PipPhase.idle, .starting, .active, .stopping] {
            var h = PipHarness.inPhase(phase)
            #expect(h.send(.restoreCompleted, at: 1300) == [])
            #expect(h.phase == phase)
        }
    }

    @Test func pipFrameChangesMoveWhereTheStopStarts() {
        var h = PipHarness.active()
        let moved = Rect(x: 40, y: 60, width: 400, height: 225)
        #expect(h.send(.pipFrameChanged(moved), at: 500) == [])
        #expect(h.machine.pipFrame == moved)
        #expect(h.send(.stopRequested(restore: true), at: 1000) == [.willStop, .showProxy(moved), .hidePip])
    }

    @Test func startDuringStopIsQueuedUntilAfterDidStop() {
        var h = PipHarness.stopping()
        #expect(h.send(.startRequested, at: 1100) == [])
        #expect(h.send(.tick, at: 1250) == [.moveProxy(source), .hideProxy, .restoreSource(source), .restoreUserInterface])
        #expect(h.send(.restoreCompleted, at: 1300) == [.didStop, .willStart, .showProxy(source)])
        #expect(h.phase == .starting)
        #expect(h.deadline == 1316)
    }

    @Test func startWhileRestoringIsQueuedToo() {
        var h = PipHarness.restoring()
        #expect(h.send(.startRequested, at: 1300) == [])
        #expect(h.send(.startRequested, at: 1310) == [])
        #expect(h.send(.restoreCompleted, at: 1400) == [.didStop, .willStart, .showProxy(source)])
    }

    @Test func queuedStartWithoutSourceFrameShowsPipAtOnce() {
        var h = PipHarness(sourceFrame: nil)
        h.send(.startRequested, at: 0)
        h.send(.stopRequested(restore: true), at: 100)
        #expect(h.send(.startRequested, at: 150) == [])
        #expect(h.send(.restoreCompleted, at: 200) == [.didStop, .willStart, .showPip(pip), .didStart])
        #expect(h.phase == .active)
    }

    @Test func stopCancelsAQueuedStart() {
        for event in [PipEvent.stopRequested(restore: true), .stopRequested(restore: false), .pipWindowClosed] {
            var h = PipHarness.stopping()
            h.send(.startRequested, at: 1100)
            #expect(h.send(event, at: 1150) == [])
            h.send(.tick, at: 1250)
            #expect(h.send(.restoreCompleted, at: 1300) == [.didStop])
            #expect(h.phase == .idle)
        }
    }

    @Test func framesAreStoredInEveryPhase() {
        let frame = Rect(x: 1, y: 2, width: 3, height: 4)
        for phase in PipHarness.allPhases {
            var h = PipHarness.inPhase(phase)
            #expect(h.send(.sourceFrameChanged(frame), at: 1300) == [])
            #expect(h.send(.pipFrameChanged(frame), at: 1300) == [])
            #expect(h.machine.sourceFrame == frame)
            #expect(h.machine.pipFrame == frame)
            #expect(h.phase == phase)
        }
    }
}
