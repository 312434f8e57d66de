import Testing
@testable import PipWindow
import PipCore

/// `startsAutomaticallyWhenSourceHidden`: debounced start on hide, stop on show, and the grace
/// period after our own restore.
@Suite struct PipStateMachineAutomaticTests {
    let source = PipHarness.source
    let pip = PipHarness.pip

    @Test func aShortHideDoesNothing() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        #expect(h.deadline == 150)
        #expect(h.send(.tick, at: 50) == [])
        h.send(.sourceShown, at: 100)  // back to where it was: nothing pending
        #expect(h.deadline == nil)
        #expect(h.send(.tick, at: 150) == [])
        #expect(h.send(.tick, at: 1000) == [])
        #expect(h.phase == .idle)
    }

    @Test func aHideThatLastsStartsOnTheTickAtTheDeadline() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        #expect(h.send(.tick, at: 149) == [])
        #expect(h.send(.tick, at: 150) == [.willStart, .showProxy(source)])
        #expect(h.phase == .starting)
        #expect(h.machine.startedAutomatically)
        #expect(h.deadline == 166)  // the animation starts at the tick
    }

    @Test func aLateTickStartsTheAnimationThen() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        #expect(h.send(.tick, at: 400) == [.willStart, .showProxy(source)])
        #expect(h.machine.animation?.start == PipHarness.at(400))
    }

    @Test func repeatedHideReportsDoNotRestartTheDebounce() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        h.send(.sourceHidden, at: 100)
        #expect(h.deadline == 150)
        #expect(h.send(.tick, at: 150) == [.willStart, .showProxy(source)])
    }

    @Test func automaticStartWithoutSourceFrameShowsPipAtOnce() {
        var h = PipHarness(sourceFrame: nil)
        h.send(.sourceHidden, at: 0)
        #expect(h.send(.tick, at: 150) == [.willStart, .showPip(pip), .didStart])
    }

    @Test func noAutomaticStartWhenNotPossible() {
        var h = PipHarness(attached: false)
        h.send(.sourceHidden, at: 0)
        #expect(h.send(.tick, at: 150) == [])  // not even failedToStart: nobody asked
        #expect(h.deadline == nil)
    }

    @Test func noAutomaticStartWhenSwitchedOff() {
        var h = PipHarness(automatic: false)
        h.send(.sourceHidden, at: 0)
        #expect(h.deadline == nil)
        #expect(h.send(.tick, at: 150) == [])
        #expect(h.send(.tick, at: 5000) == [])
        #expect(h.phase == .idle)
    }

    @Test func noAutomaticStopWhenSwitchedOff() {
        var h = PipHarness.active(automatic: false)
        h.send(.sourceHidden, at: 300)
        h.send(.sourceShown, at: 600)
        #expect(h.deadline == nil)
        #expect(h.send(.tick, at: 1000) == [])
        #expect(h.phase == .active)
    }

    @Test func showingTheSourceStopsWithRestore() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        h.send(.tick, at: 150)
        h.send(.tick, at: 400)
        #expect(h.phase == .active)
        h.send(.sourceShown, at: 1000)
        #expect(h.deadline == 1150)
        #expect(h.send(.tick, at: 1150) == [.willStop, .showProxy(pip), .hidePip])
        #expect(h.phase == .stopping)
    }

    @Test func aShortShowDuringPipDoesNothing() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        h.send(.tick, at: 150)
        h.send(.tick, at: 400)
        h.send(.sourceShown, at: 1000)
        h.send(.sourceHidden, at: 1100)
        #expect(h.deadline == nil)
        #expect(h.send(.tick, at: 1250) == [])
        #expect(h.phase == .active)
    }

    @Test func showingTheSourceWhileGrowingReverses() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        h.send(.tick, at: 150)  // growth starts at 150
        h.send(.sourceShown, at: 200)
        #expect(h.deadline == 166)  // the next frame comes before the debounce deadline (350)
        // t = 350: the frame step (p = 0.8, eased 1 − 0.2³ = 0.992:
        //   x = 100 + 1132·0.992 = 1222.944 → 1223    y = 100 + 416·0.992 = 512.672 → 513
        //   w = 800 − 480·0.992 = 323.84 → 324        h = 450 − 270·0.992 = 182.16 → 182),
        // then the automatic stop reverses the growth.
        #expect(h.send(.tick, at: 350)
                == [.moveProxy(Rect(x: 1223, y: 513, width: 324, height: 182)), .didStart, .willStop])
        #expect(h.phase == .stopping)
        #expect(h.machine.animation?.duration == 200_000_000)
    }

    @Test func aManualPipStopsWhenTheSourceIsHiddenThenShown() {
        var h = PipHarness.active()  // started by hand while the source is shown
        h.send(.sourceHidden, at: 300)
        #expect(h.send(.tick, at: 450) == [])  // already in PiP
        h.send(.sourceShown, at: 600)
        #expect(h.send(.tick, at: 750) == [.willStop, .showProxy(pip), .hidePip])
    }

    @Test func explicitRequestsCancelThePendingReaction() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        #expect(h.send(.stopRequested(restore: true), at: 50) == [])  // ignored, but "no PiP" wins
        #expect(h.deadline == nil)
        #expect(h.send(.tick, at: 150) == [])
        #expect(h.phase == .idle)

        var a = PipHarness.active()
        a.send(.sourceHidden, at: 300)
        a.send(.tick, at: 450)
        a.send(.sourceShown, at: 1000)
        #expect(a.send(.startRequested, at: 1050) == [])  // "PiP on" wins over the pending stop
        #expect(a.send(.tick, at: 1150) == [])
        #expect(a.phase == .active)
    }

    @Test func ourOwnRestoreDoesNotStartPipAgain() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        h.send(.tick, at: 150)
        h.send(.tick, at: 400)
        h.send(.stopRequested(restore: true), at: 1000)
        #expect(h.send(.tick, at: 1250) == [.moveProxy(source), .hideProxy, .restoreSource(source), .restoreUserInterface])
        // The window manager's noise while mapping the source (grace until 1750): ignored.
        h.send(.sourceShown, at: 1260)
        h.send(.sourceHidden, at: 1300)
        h.send(.sourceShown, at: 1320)
        h.send(.sourceHidden, at: 1400)
        #expect(h.machine.visibility.isHidden == true)
        #expect(h.deadline == nil)
        #expect(h.send(.restoreCompleted, at: 1450) == [.didStop])
        // Still hidden when the grace period ends: no automatic start.
        #expect(h.send(.tick, at: 1800) == [])
        h.send(.sourceHidden, at: 1900)
        #expect(h.send(.tick, at: 3000) == [])
        #expect(h.phase == .idle)
        // The user shows it and hides it again: that starts PiP.
        h.send(.sourceShown, at: 4000)
        #expect(h.send(.tick, at: 4150) == [])
        h.send(.sourceHidden, at: 5000)
        #expect(h.send(.tick, at: 5150) == [.willStart, .showProxy(source)])
    }

    @Test func afterTheGraceAHideCountsAgain() {
        var h = PipHarness.restoring()  // restored at 1250: grace until 1750
        h.send(.sourceShown, at: 1260)
        h.send(.restoreCompleted, at: 1300)
        h.send(.sourceHidden, at: 1749)
        #expect(h.deadline == nil)
        h.send(.sourceShown, at: 1750)  // grace is over: this one counts (idle: nothing to stop)
        #expect(h.deadline == 1900)
        #expect(h.send(.tick, at: 1900) == [])
        h.send(.sourceHidden, at: 2000)
        #expect(h.deadline == 2150)
        #expect(h.send(.tick, at: 2150) == [.willStart, .showProxy(source)])
    }

    @Test func deadlineIsTheEarlierOfFrameAndDebounce() {
        var h = PipHarness.stopping()  // next frame at 1016
        h.send(.sourceHidden, at: 1001)
        #expect(h.deadline == 1016)
        h.send(.tick, at: 1140)
        #expect(h.deadline == 1151)  // debounce 1151 before frame 1156
        // Hidden while shrinking, not idle: consumed without a start.
        #expect(h.send(.tick, at: 1151).contains(.willStart) == false)
        #expect(h.deadline == 1167)
    }
}
