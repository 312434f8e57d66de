import Testing
@testable import PipWindow
import PipCore

/// What pipcam makes of other clients' property values (any client may write them; the
/// fuzz-x-properties target in Fuzz/ feeds these readers arbitrary values).
@Suite struct WindowPropertyValuesTests {
    let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)

    @Test func workAreaIsTheCurrentDesktopsQuadruple() {
        let values = [0, 0, 1920, 1080, 0, 30, 1920, 1050]
        #expect(WindowManagerInfo.workArea(values: values, desktop: 1, screen: screen) == Rect(x: 0, y: 30, width: 1920, height: 1050))
        #expect(WindowManagerInfo.workArea(values: values, desktop: 0, screen: screen) == screen)
    }

    /// A desktop of 0xFFFFFFFF (read as -1), a list too short for the desktop, an empty or
    /// off-screen area: the whole screen.
    @Test(arguments: [
        ([0, 30, 1920, 1050], -1), ([0, 30, 1920, 1050], 1), ([0, 30, 0, 1050], 0), ([-10, 30, 1920, 1050], 0),
        ([100, 30, 1920, 1050], 0), ([0, 30, 1920], 0),
    ])
    func badWorkAreasGiveTheScreen(values: [Int], desktop: Int) {
        #expect(WindowManagerInfo.workArea(values: values, desktop: desktop, screen: screen) == screen)
    }

    @Test func monitorWorkAreasSkipEmptyRectanglesAndALeftover() {
        let values = [0, 30, 1920, 1050, 1920, 0, 0, 1024, 1920, 0, 1280, 1024, 7, 7]
        #expect(WindowManagerInfo.monitorWorkAreas(values: values) == [
            Rect(x: 0, y: 30, width: 1920, height: 1050), Rect(x: 1920, y: 0, width: 1280, height: 1024),
        ])
        #expect(WindowManagerInfo.monitorWorkAreas(values: [1, 2, 3]).isEmpty)
    }

    @Test func frameExtentsGrowTheWindowOnlyWhenPlausible() {
        let inner = Rect(x: 100, y: 100, width: 640, height: 480)
        #expect(SourceWindowWatcher.outerFrame(inner: inner, extents: [2, 3, 24, 4]) == Rect(x: 98, y: 76, width: 645, height: 508))
        #expect(SourceWindowWatcher.outerFrame(inner: inner, extents: [2, 3, 24]) == inner)
        #expect(SourceWindowWatcher.outerFrame(inner: inner, extents: [2, 3, -24, 4]) == inner)
        #expect(SourceWindowWatcher.outerFrame(inner: inner, extents: [2, 3, 5000, 4]) == inner)
    }
}
