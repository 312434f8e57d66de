import Testing
import PipWindow
@testable import PipcamApp
import PipCore

/// The size a camera is first asked to suit (`SessionOptions.firstDisplaySize`): the window that
/// shows the picture first.
@Suite struct FirstDisplaySizeTests {
    let area = Rect(x: 0, y: 24, width: 1920, height: 1056)

    @Test func theMainWindowFirst() {
        let options = SessionOptions()
        let size = options.firstDisplaySize(workArea: area, parentSize: nil, rememberedPip: (640, 360))
        #expect(size == (1344, 739), "70 % of the work area, whatever PiP size was remembered")
    }

    @Test func embeddedTheParentsSize() {
        var options = SessionOptions()
        options.embedInto = 0x1200007
        #expect(options.firstDisplaySize(workArea: area, parentSize: (800, 450), rememberedPip: nil) == (800, 450))
        // A parent whose size could not be read: the PiP's rule, as before.
        #expect(options.firstDisplaySize(workArea: area, parentSize: nil, rememberedPip: nil) == (480, 270))
    }

    @Test func pipFirstItsSize() {
        var options = SessionOptions()
        options.startInPip = true
        #expect(options.firstDisplaySize(workArea: area, parentSize: nil, rememberedPip: nil) == (480, 270))
        #expect(options.firstDisplaySize(workArea: area, parentSize: nil, rememberedPip: (640, 360)) == (640, 360))
        options.remembersGeometry = false
        #expect(options.firstDisplaySize(workArea: area, parentSize: nil, rememberedPip: (640, 360)) == (480, 270))
        options.size = (320, 200)
        #expect(options.firstDisplaySize(workArea: area, parentSize: nil, rememberedPip: (640, 360)) == (320, 200))
        // Following another application's window, pipcam has no main window: PiP shows it first.
        var following = SessionOptions()
        following.followWindow = 0x3400001
        #expect(following.firstDisplaySize(workArea: area, parentSize: nil, rememberedPip: nil) == (480, 270))
    }
}
