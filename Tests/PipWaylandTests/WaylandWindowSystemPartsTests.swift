import PipCore
@testable import PipWayland
import PipWindow
import Testing

/// The pure parts of the Wayland window system: the one-output screen, and the
/// source window as its owner says it is.
struct WaylandWindowSystemPartsTests {
    static let now = MonotonicInstant(nanoseconds: 5_000_000_000)

    @Test func theScreenIsTheFirstOutputWholeElseAStandInSize() {
        let layout = WaylandScreen.layout(output: (1920, 1080))
        #expect(layout.monitors == [Rect(x: 0, y: 0, width: 1920, height: 1080)])
        #expect(layout.areas == [Rect(x: 0, y: 0, width: 1920, height: 1080)])
        #expect(WaylandScreen.layout(output: nil).monitors == [Rect(x: 0, y: 0, width: 1280, height: 720)])
        let screen = WaylandScreen(output: (800, 600))
        #expect(screen.homeArea(near: nil) == Rect(x: 0, y: 0, width: 800, height: 600))
        #expect(!screen.windowManagerRunning, "pipcam places its layer surfaces itself")
    }

    @Test func theSourceWatchReportsWhatItsOwnerSaysOnceEachAndNothingAfterStop() {
        var events: [PipEvent] = []
        let watch = WaylandSourceWatch(window: 1, hiding: .hidden) { events.append($0) }
        let frame = Rect(x: 40, y: 40, width: 640, height: 360)
        watch.frame = frame
        watch.frame = frame
        watch.isHidden = true
        watch.isHidden = true
        watch.isHidden = false
        #expect(events == [.sourceFrameChanged(frame), .sourceHidden, .sourceShown])
        var restored = 0
        watch.onRestore = { restored += 1 }
        watch.restore()
        watch.stop()
        watch.restore()
        watch.isHidden = true
        #expect(restored == 1 && events.count == 3)
    }
}
