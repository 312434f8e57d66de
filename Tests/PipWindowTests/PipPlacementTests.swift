import CameraSource
import PipCore
import Testing
@testable import PipWindow

/// `PipPlacement` with exact rectangles at exact milliseconds: one 1920×1080 monitor whose work
/// area leaves a 30 px panel at the bottom, and PiP 320×180 in its bottom-right corner.
struct PlacementHarness {
    static let monitor = Rect(x: 0, y: 0, width: 1920, height: 1080)
    static let oneMonitor = ScreenLayout(monitors: [monitor], workArea: Rect(x: 0, y: 0, width: 1920, height: 1050))
    /// A second monitor right of the first, 1280×1024.
    static let twoMonitors = ScreenLayout(
        monitors: [monitor, Rect(x: 1920, y: 0, width: 1280, height: 1024)], workArea: Rect(x: 0, y: 0, width: 3200, height: 1050))
    static let corner = Rect(x: 1576, y: 846, width: 320, height: 180)
    static let wide = 16.0 / 9.0

    var placement: PipPlacement
    var frame = PlacementHarness.corner
    var layout = PlacementHarness.oneMonitor

    init(windowManager: Bool = true, followsSource: Bool = true) {
        placement = PipPlacement(
            defaultPlacement: followsSource ? (.bottomRight, (320, 180)) : nil, windowManagerRunning: windowManager)
    }

    static func at(_ ms: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms * 1_000_000)) }

    @discardableResult
    mutating func send(_ event: PipPlacement.Event, at ms: Double) -> [PipPlacement.Action] {
        let layout = self.layout
        return placement.handle(event, frame: frame, layout: { layout }, now: Self.at(ms))
    }

    /// The window manager (or X server) reports the window at `r`.
    @discardableResult
    mutating func configure(to r: Rect, synthetic: Bool = false, at ms: Double) -> [PipPlacement.Action] {
        let old = frame
        frame = r
        return send(.configured(from: old, synthetic: synthetic), at: ms)
    }

    /// `nextDeadline` in milliseconds.
    var deadline: Double? { placement.nextDeadline.map { Double($0.nanoseconds) / 1_000_000 } }

    /// Shown in the corner at t = 0.
    static func shown(windowManager: Bool = true) -> PlacementHarness {
        var h = PlacementHarness(windowManager: windowManager)
        h.send(.shown(planned: corner), at: 0)
        return h
    }
}

@Suite struct PipPlacementTests {
    typealias H = PlacementHarness

    @Test func showsWhereTheAnimationEndedOrOnAMonitorWhenItsOwnWentMeanwhile() {
        var h = H()
        #expect(h.send(.shown(planned: H.corner), at: 0) == [.show(H.corner)])
        #expect(h.deadline == nil)
        var lost = H()
        #expect(lost.send(.shown(planned: Rect(x: 2500, y: 300, width: 320, height: 180)), at: 0)
            == [.show(Rect(x: 1600, y: 300, width: 320, height: 180))])
    }

    @Test func aDragHandedToTheWindowManagerSnapsOnceTheButtonIsReleased() {
        var h = H.shown()
        #expect(h.send(.windowManagerDragStarted(.move), at: 2000).isEmpty)
        #expect(h.deadline == 2250)
        h.configure(to: Rect(x: 1590, y: 10, width: 320, height: 180), at: 2100)
        #expect(h.placement.isSettleDue(at: H.at(2250)))
        #expect(h.send(.tick(buttonsDown: true), at: 2250).isEmpty)  // still held
        #expect(h.deadline == 2500)
        let snapped = Rect(x: 1600, y: 0, width: 320, height: 180)
        #expect(h.send(.tick(buttonsDown: false), at: 2500) == [.move(snapped), .remember(snapped), .report(snapped)])
        #expect(h.deadline == nil)
        #expect(h.placement.defaultPlacement == nil)  // moved by the user: no longer follows the source window
    }

    @Test func pipcamsOwnDragSnapsAMoveAndFitsAResize() {
        var h = H.shown()
        h.configure(to: Rect(x: 10, y: 1020, width: 320, height: 180), at: 2000)
        let snapped = Rect(x: 0, y: 870, width: 320, height: 180)
        #expect(h.send(.ownDragEnded(.move), at: 2010) == [.move(snapped), .remember(snapped), .report(snapped)])
        h.configure(to: Rect(x: 1700, y: 900, width: 400, height: 225), at: 3000)
        let fitted = Rect(x: 1520, y: 825, width: 400, height: 225)
        #expect(h.send(.ownDragEnded(.resizeBottomRight), at: 3010) == [.move(fitted), .remember(fitted), .report(fitted)])
    }

    @Test func theWindowManagersAnswerToPipcamsPlacementIsNoUserMove() {
        var h = H.shown()
        #expect(h.configure(to: H.corner, at: 200).isEmpty)
        #expect(h.deadline == nil)
        // i3 puts it a decoration's height off: asked once more, and its answer is pipcam's too.
        let off = Rect(x: 1581, y: 866, width: 320, height: 180)
        #expect(h.configure(to: off, at: 300) == [.move(H.corner)])
        #expect(h.configure(to: off, at: 400).isEmpty)
        #expect(h.deadline == nil)
    }

    @Test func aMoveAfterTheAnswerTimeIsTheUsersAndIsRememberedWhereItSettles() {
        var h = H.shown()
        let moved = Rect(x: 1476, y: 746, width: 320, height: 180)
        #expect(h.configure(to: moved, synthetic: true, at: 1500).isEmpty)
        #expect(h.deadline == 1750)
        // Not a drag: brought inside the work area, not snapped.
        #expect(h.send(.tick(buttonsDown: false), at: 1750) == [.remember(moved), .report(moved)])
    }

    @Test func withoutAWindowManagerOnlyAPlaceNearTheRequestAnswersIt() {
        var h = H.shown(windowManager: false)
        #expect(h.configure(to: Rect(x: 1600, y: 846, width: 320, height: 180), at: 100).isEmpty)
        #expect(h.deadline == nil)
        h.configure(to: Rect(x: 1400, y: 846, width: 320, height: 180), at: 200)
        #expect(h.deadline == 450)
    }

    @Test func aWheelSpinZoomsFromTheLastZoomNotFromTheWindowsOldFrame() {
        var h = H.shown()
        let pointer = (x: 1736, y: 936)
        let first = Rect(x: 1560, y: 837, width: 352, height: 198)
        #expect(h.send(.zoom(by: 1.1, around: pointer, aspect: H.wide), at: 2000) == [.move(first)])
        // The window has not answered yet: the next notch grows the zoomed rect.
        #expect(h.send(.zoom(by: 1.1, around: pointer, aspect: H.wide), at: 2100)
            == [.move(Rect(x: 1533, y: 827, width: 387, height: 218))])  // kept inside the work area
        #expect(h.deadline == 2350)
        // A notch after the burst starts from the window's frame again.
        #expect(h.send(.zoom(by: 1.1, around: pointer, aspect: H.wide), at: 2500) == [.move(first)])
    }

    @Test func keyZoomsInAndOutComeBackToTheSameRectangle() {
        var h = H.shown()
        let larger = Rect(x: 1552, y: 833, width: 368, height: 207)
        #expect(h.send(.zoom(by: 1.15, around: nil, aspect: H.wide), at: 2000) == [.move(larger)])
        #expect(h.send(.zoom(by: 1 / 1.15, around: nil, aspect: H.wide), at: 2100) == [.move(H.corner)])
        h.configure(to: H.corner, at: 2200)
        #expect(h.send(.tick(buttonsDown: false), at: 2350) == [.remember(H.corner), .report(H.corner)])
    }

    @Test func aZoomWhileHiddenDoesNothing() {
        var h = H()
        #expect(h.send(.zoom(by: 1.1, around: nil, aspect: H.wide), at: 0).isEmpty)
        #expect(h.deadline == nil)
    }

    @Test func anUnpluggedMonitorsPipGoesToTheSameCornerOnceTheChangesAreOver() {
        var h = H()
        h.layout = H.twoMonitors
        let onSecond = Rect(x: 2856, y: 820, width: 320, height: 180)
        h.frame = onSecond
        h.send(.shown(planned: onSecond), at: 0)
        h.layout = H.oneMonitor
        #expect(h.send(.screenChanged, at: 1000).isEmpty)
        #expect(h.deadline == 1300)
        h.send(.screenChanged, at: 1200)  // a burst: placed once it is over
        #expect(h.deadline == 1500)
        #expect(h.send(.tick(buttonsDown: false), at: 1500) == [.move(H.corner), .report(H.corner)])
        // Its answer is no move by the user.
        #expect(h.configure(to: H.corner, at: 1600).isEmpty)
        #expect(h.deadline == nil)
    }

    @Test func aPanelAddedKeepsPipItsDistanceFromTheCorner() {
        var h = H.shown()
        h.layout = ScreenLayout(monitors: [H.monitor], workArea: Rect(x: 0, y: 0, width: 1920, height: 1000))
        h.send(.screenChanged, at: 2000)
        let raised = Rect(x: 1576, y: 796, width: 320, height: 180)
        #expect(h.send(.tick(buttonsDown: false), at: 2300) == [.move(raised), .report(raised)])
    }

    @Test func theWindowManagerPullingPipOntoAChangedScreenIsNoUserMove() {
        var h = H.shown(windowManager: false)
        h.send(.screenChanged, at: 5000)
        #expect(h.send(.tick(buttonsDown: false), at: 5300).isEmpty)  // still on its monitor
        h.configure(to: Rect(x: 1376, y: 846, width: 320, height: 180), at: 5500)
        #expect(h.deadline == nil)
        h.configure(to: Rect(x: 1176, y: 846, width: 320, height: 180), at: 6300)
        #expect(h.deadline == 6550)
    }

    @Test func anotherShapeReshapesAroundTheNearestCorner() {
        let reshaped = Rect(x: 1619, y: 818, width: 277, height: 208)
        var hidden = H()
        #expect(hidden.send(.aspectChanged(4.0 / 3.0), at: 0) == [.refit(reshaped)])
        var shown = H.shown()
        #expect(shown.send(.aspectChanged(4.0 / 3.0), at: 2000) == [.move(reshaped)])
        shown.configure(to: reshaped, at: 2100)
        // pipcam's own change: reported, not remembered.
        #expect(shown.send(.tick(buttonsDown: false), at: 2250) == [.report(reshaped)])
        #expect(shown.send(.aspectChanged(4.0 / 3.0), at: 3000).isEmpty)  // already that shape
    }

    @Test func beforeAStartPipFollowsTheSourceWindowsMonitorUntilTheUserMovedIt() {
        var h = H()
        h.send(.aspectChanged(4.0 / 3.0), at: 0)  // the given size keeps its area in the new shape
        let reshaped = Rect(x: 1619, y: 818, width: 277, height: 208)
        let second = Rect(x: 1920, y: 0, width: 1280, height: 1024)
        #expect(h.placement.frameBeforeStart(reshaped, layout: { H.twoMonitors }, homeArea: { second })
            == Rect(x: 2899, y: 792, width: 277, height: 208))
        #expect(h.placement.frameBeforeStart(reshaped, layout: { H.oneMonitor }, homeArea: { H.oneMonitor.primaryArea }) == nil)
        let moved = PipPlacement(defaultPlacement: nil, windowManagerRunning: true)
        let offScreen = Rect(x: 2500, y: 300, width: 320, height: 180)
        #expect(moved.frameBeforeStart(offScreen, layout: { H.oneMonitor }, homeArea: { second })
            == Rect(x: 1600, y: 300, width: 320, height: 180))
    }

    @Test func endingRightAfterAUserDragStillRemembersWhereItWasLeft() {
        var h = H.shown()
        h.send(.windowManagerDragStarted(.move), at: 2000)
        h.configure(to: Rect(x: 1590, y: 10, width: 320, height: 180), at: 2100)
        #expect(h.send(.tearDown, at: 2150) == [.remember(Rect(x: 1600, y: 0, width: 320, height: 180))])
        var own = H.shown()
        own.send(.aspectChanged(4.0 / 3.0), at: 2000)
        #expect(own.send(.tearDown, at: 2100).isEmpty)  // pipcam's own reshape is not the user's place
    }
}
