import Testing
@testable import PipWindow
import PipCore

/// The grow/shrink animation: ease-out cubic rectangles, frame deadlines, and the reversal of a start.
@Suite struct PipStateMachineAnimationTests {
    let source = PipHarness.source  // 100,100 800x450
    let pip = PipHarness.pip  // 1232,516 320x180: deltas +1132, +416, −480, −270

    @Test func easeOutCubic() {
        #expect(PipAnimation.easeOutCubic(0) == 0)
        #expect(abs(PipAnimation.easeOutCubic(0.2) - 0.488) < 1e-12)  // 1 − 0.8³ = 1 − 0.512
        #expect(PipAnimation.easeOutCubic(0.5) == 0.875)  // 1 − 0.5³
        #expect(PipAnimation.easeOutCubic(1) == 1)
        #expect(PipAnimation.easeOutCubic(-1) == 0)
        #expect(PipAnimation.easeOutCubic(2) == 1)
    }

    @Test func interpolationRoundsHalvesAwayFromZero() {
        let a = Rect(x: 0, y: 0, width: 1, height: -1)
        let b = Rect(x: 3, y: -3, width: 2, height: -2)
        // 1.5 → 2, −1.5 → −2, 1.5 → 2, −1.5 → −2
        #expect(a.interpolated(to: b, by: 0.5) == Rect(x: 2, y: -2, width: 2, height: -2))
    }

    @Test func growthRectanglesAtChosenInstants() {
        var h = PipHarness.starting()
        // t = 0: p = 0, eased 0: the proxy is already at the source frame, nothing to move.
        #expect(h.send(.tick, at: 0) == [])
        // t = 50: p = 0.2, eased = 1 − 0.8³ = 0.488
        //   x = 100 + 1132·0.488 = 652.416 → 652    y = 100 + 416·0.488 = 303.008 → 303
        //   w = 800 − 480·0.488 = 565.76 → 566      h = 450 − 270·0.488 = 318.24 → 318
        #expect(h.send(.tick, at: 50) == [.moveProxy(Rect(x: 652, y: 303, width: 566, height: 318))])
        // t = 125: p = 0.5, eased = 1 − 0.5³ = 0.875
        //   x = 100 + 1132·0.875 = 1090.5 → 1091 (half away from zero)    y = 100 + 364 = 464
        //   w = 800 − 420 = 380                                           h = 450 − 236.25 = 213.75 → 214
        #expect(h.send(.tick, at: 125) == [.moveProxy(Rect(x: 1091, y: 464, width: 380, height: 214))])
        // t = 250: p = 1: the PiP frame, then the hand-over.
        #expect(h.send(.tick, at: 250) == [.moveProxy(pip), .showPip(pip), .hideProxy, .didStart])
    }

    @Test func shrinkRectangles() {
        var h = PipHarness.stopping()  // from the PiP frame at 1000 back to the source frame
        // t = 1050: eased 0.488
        //   x = 1232 − 1132·0.488 = 679.584 → 680    y = 516 − 416·0.488 = 312.992 → 313
        //   w = 320 + 480·0.488 = 554.24 → 554       h = 180 + 270·0.488 = 311.76 → 312
        #expect(h.send(.tick, at: 1050) == [.moveProxy(Rect(x: 680, y: 313, width: 554, height: 312))])
        #expect(h.send(.tick, at: 1250) == [.moveProxy(source), .hideProxy, .restoreSource(source), .restoreUserInterface])
    }

    @Test func deadlinesFollowTicksAndStopAtTheEnd() {
        var h = PipHarness.starting()
        #expect(h.deadline == 16)  // start + one frame
        h.send(.tick, at: 16)
        #expect(h.deadline == 32)
        h.send(.tick, at: 50)  // a late tick: the next frame counts from it
        #expect(h.deadline == 66)
        h.send(.tick, at: 240)
        #expect(h.deadline == 250)  // 256 capped at the end
        h.send(.tick, at: 250)
        #expect(h.deadline == nil)
    }

    @Test func anEarlyTickStillMovesAndRestartsTheFrameInterval() {
        var h = PipHarness.starting()
        h.send(.tick, at: 50)
        h.send(.tick, at: 51)  // before the deadline (66): handled anyway
        #expect(h.deadline == 67)
    }

    @Test func repeatedTickAtTheSameInstantMovesNothing() {
        var h = PipHarness.starting()
        #expect(h.send(.tick, at: 125).count == 1)
        #expect(h.send(.tick, at: 125) == [])
    }

    @Test func aLateTickFinishesInOneStep() {
        var h = PipHarness.starting()
        #expect(h.send(.tick, at: 900) == [.moveProxy(pip), .showPip(pip), .hideProxy, .didStart])
    }

    @Test func stopDuringStartRetracesFromTheCurrentRectangle() {
        var h = PipHarness.starting()
        h.send(.tick, at: 50)
        // The start's callbacks close first; the shrink begins where the proxy is at 125 ms
        // (1091,464 380x214, see above) and lasts the 125 ms spent growing.
        #expect(h.send(.stopRequested(restore: true), at: 125) == [.didStart, .willStop])
        #expect(h.phase == .stopping)
        #expect(!h.machine.isActive)
        #expect(h.machine.animation?.from == Rect(x: 1091, y: 464, width: 380, height: 214))
        #expect(h.machine.animation?.duration == 125_000_000)
        #expect(h.deadline == 141)
        // t = 187.5: p = 0.5, eased 0.875 from 1091,464 380x214 to 100,100 800x450:
        //   x = 1091 − 991·0.875 = 223.875 → 224    y = 464 − 364·0.875 = 145.5 → 146
        //   w = 380 + 420·0.875 = 747.5 → 748       h = 214 + 236·0.875 = 420.5 → 421
        #expect(h.send(.tick, at: 187.5) == [.moveProxy(Rect(x: 224, y: 146, width: 748, height: 421))])
        #expect(h.deadline == 203.5)
        // t = 245: p = 0.96, eased 1 − 0.04³ = 0.999936: every side rounds to the source frame already.
        #expect(h.send(.tick, at: 245) == [.moveProxy(source)])
        #expect(h.deadline == 250)  // capped at 125 + 125
        // So the last step has nothing to move.
        #expect(h.send(.tick, at: 250) == [.hideProxy, .restoreSource(source), .restoreUserInterface])
        #expect(h.send(.restoreCompleted, at: 300) == [.didStop])
    }

    @Test func stopDuringStartAfterTheGrowthEndedTakesAFullShrink() {
        var h = PipHarness.starting()
        // No tick came at 250: the proxy is still at the source frame but the growth is over.
        #expect(h.send(.stopRequested(restore: true), at: 400) == [.didStart, .willStop])
        #expect(h.machine.animation?.from == pip)
        #expect(h.machine.animation?.duration == 250_000_000)
    }

    @Test func closeOrStopWithoutRestoreDuringStartEndsAtOnce() {
        for event in [PipEvent.stopRequested(restore: false), .pipWindowClosed] {
            var h = PipHarness.starting()
            h.send(.tick, at: 50)
            #expect(h.send(event, at: 100) == [.didStart, .willStop, .hideProxy, .didStop])
            #expect(h.phase == .idle)
            #expect(h.deadline == nil)
        }
    }

    @Test func zeroLengthAnimationFinishesOnTheNextTick() {
        var h = PipHarness { $0.animationNanoseconds = 0 }
        #expect(h.send(.startRequested, at: 10) == [.willStart, .showProxy(source)])
        #expect(h.deadline == 10)
        #expect(h.send(.tick, at: 10) == [.moveProxy(pip), .showPip(pip), .hideProxy, .didStart])
    }

    @Test func stopAtTheInstantOfStartRetracesInZeroTime() {
        var h = PipHarness.starting()
        #expect(h.send(.stopRequested(restore: true), at: 0) == [.didStart, .willStop])
        #expect(h.deadline == 0)
        // The proxy never moved: no step, straight to the restore.
        #expect(h.send(.tick, at: 0) == [.hideProxy, .restoreSource(source), .restoreUserInterface])
    }

    @Test func theShrinkFollowsTheSourceWindowIfItMoves() {
        var h = PipHarness.stopping()
        let moved = Rect(x: 500, y: 300, width: 640, height: 360)
        h.send(.sourceFrameChanged(moved), at: 1100)
        #expect(h.send(.tick, at: 1250) == [.moveProxy(moved), .hideProxy, .restoreSource(moved), .restoreUserInterface])
    }

    @Test func ticksOutsideAnimationsDoNothing() {
        for phase in [PipPhase.idle, .active, .restoring] {
            var h = PipHarness.inPhase(phase)
            #expect(h.send(.tick, at: 2000) == [])
            #expect(h.phase == phase)
            #expect(h.deadline == nil)
        }
    }
}
