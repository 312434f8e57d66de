import Testing
@testable import PipWindow
import PipCore

/// `.contentSourceSwitched`: another source window in place of the current one, in every phase
/// (AVKit's `contentSource` assigned while PiP is up). PiP stays; the new window's frame is the
/// restore target; its visibility is taken as it is.
@Suite struct PipStateMachineSwitchTests {
    let source = PipHarness.source
    let pip = PipHarness.pip
    static let other = Rect(x: 300, y: 200, width: 480, height: 360)
    let other = PipStateMachineSwitchTests.other

    @Test func idleTheNextStartGrowsOutOfTheNewWindow() {
        var h = PipHarness()
        #expect(h.send(.contentSourceSwitched(frame: other, hidden: false), at: 10) == [])
        #expect(h.send(.startRequested, at: 20) == [.willStart, .showProxy(other)])
    }

    @Test func aSwitchMakesPipPossibleAgain() {
        var h = PipHarness(attached: false, sourceFrame: nil)
        #expect(h.send(.contentSourceSwitched(frame: other, hidden: false), at: 10) == [.possibleChanged(true)])
        #expect(h.machine.isPossible)
    }

    @Test func whileStartingTheGrowthEndsAtPipAndTheStopReturnsToTheNewWindow() {
        var h = PipHarness.starting()
        #expect(h.send(.contentSourceSwitched(frame: other, hidden: false), at: 100) == [])
        #expect(h.phase == .starting)
        #expect(h.send(.tick, at: 250) == [.moveProxy(pip), .showPip(pip), .hideProxy, .didStart])
        h.send(.stopRequested(restore: true), at: 1000)
        #expect(h.send(.tick, at: 1250) == [.moveProxy(other), .hideProxy, .restoreSource(other), .restoreUserInterface])
    }

    @Test func whileActiveTheStopShrinksIntoTheNewWindow() {
        var h = PipHarness.active()
        #expect(h.send(.contentSourceSwitched(frame: other, hidden: false), at: 500) == [])
        #expect(h.phase == .active)
        #expect(h.send(.stopRequested(restore: true), at: 1000) == [.willStop, .showProxy(pip), .hidePip])
        #expect(h.send(.tick, at: 1250) == [.moveProxy(other), .hideProxy, .restoreSource(other), .restoreUserInterface])
    }

    /// The shrink in flight turns towards the new window from where the proxy is (no jump) and
    /// ends on time at the new window's frame.
    @Test func whileStoppingTheShrinkTurnsToTheNewWindow() throws {
        var h = PipHarness.stopping()  // from 1000 to 1250
        let halfway = try #require(h.send(.tick, at: 1100).first)
        guard case .moveProxy(let shown) = halfway else { Issue.record("\(halfway)"); return }
        #expect(shown != pip && shown != source)
        #expect(h.send(.contentSourceSwitched(frame: other, hidden: false), at: 1100) == [])
        #expect(h.send(.tick, at: 1100) == [], "the proxy stays where it is")
        let next = h.send(.tick, at: 1150)
        let expected = shown.interpolated(to: other, by: PipAnimation.easeOutCubic(50.0 / 150.0))
        #expect(next == [.moveProxy(expected)])
        #expect(h.send(.tick, at: 1250) == [.moveProxy(other), .hideProxy, .restoreSource(other), .restoreUserInterface])
        #expect(h.phase == .restoring)
    }

    @Test func whileStoppingToAWindowWithoutAFrameItIsBroughtBackAtOnce() {
        var h = PipHarness.stopping()
        h.send(.tick, at: 1100)
        #expect(h.send(.contentSourceSwitched(frame: nil, hidden: true), at: 1120) == [.hideProxy, .restoreSource(nil), .restoreUserInterface])
        #expect(h.phase == .restoring)
        #expect(h.send(.restoreCompleted, at: 1130) == [.didStop])
        #expect(h.deadline == nil)
    }

    @Test func whileRestoringTheStopEndsAndTheNextStartIsFromTheNewWindow() {
        var h = PipHarness.restoring()
        #expect(h.send(.contentSourceSwitched(frame: other, hidden: false), at: 1300) == [])
        #expect(h.send(.restoreCompleted, at: 1310) == [.didStop])
        #expect(h.send(.startRequested, at: 2000) == [.willStart, .showProxy(other)])
    }

    /// The switch itself starts or stops nothing; the new window's own changes do.
    @Test func theNewWindowsVisibilityCountsFromTheSwitch() {
        var h = PipHarness()
        h.send(.sourceHidden, at: 0)
        h.send(.tick, at: 150)  // started automatically: the old window was minimized
        h.send(.tick, at: 400)
        #expect(h.phase == .active)
        h.send(.contentSourceSwitched(frame: other, hidden: false), at: 500)
        #expect(h.deadline == nil, "a shown new window does not stop PiP")
        h.send(.sourceHidden, at: 600)
        #expect(h.send(.tick, at: 750) == [], "hidden while PiP is up: nothing to do")
        h.send(.sourceShown, at: 800)
        #expect(h.deadline == 950)
        #expect(h.send(.tick, at: 950) == [.willStop, .showProxy(pip), .hidePip])

        var idle = PipHarness()
        idle.send(.contentSourceSwitched(frame: nil, hidden: true), at: 10)
        #expect(idle.deadline == nil, "a hidden new window does not start PiP")
        idle.send(.sourceShown, at: 20)
        #expect(idle.send(.tick, at: 170) == [])
        idle.send(.sourceHidden, at: 200)
        #expect(idle.send(.tick, at: 350) == [.willStart, .showPip(pip), .didStart])
    }
}
