import PipCore
@testable import PipWindow
import Testing

/// The hover controls act only where they are drawn.
@Suite struct PipControlsTests {
    static let now = MonotonicInstant(nanoseconds: 1_000)

    @Test(arguments: [false, true])
    func controlsActOnAWindowWideEnoughToShowThem(doubleSize: Bool) {
        var controls = PipControls(doubleSize: doubleSize)
        controls.pointerMoved(at: Self.now)
        let wide = doubleSize ? 480 : 240
        let close = controls.frame(of: .close, width: wide, height: wide * 9 / 16)
        #expect(controls.control(atX: close.x + close.width / 2, y: close.y + close.height / 2, width: wide, height: wide * 9 / 16, now: Self.now) == .close)
    }

    /// The "no camera" banner keeps clear of the controls' bottom row at both sizes, and its
    /// text is as large as the controls.
    @Test(arguments: [false, true])
    func theBannerClearsTheControls(doubleSize: Bool) {
        var controls = PipControls(doubleSize: doubleSize)
        controls.pointerMoved(at: Self.now)
        let (width, height) = (640, 360)
        let mirror = controls.frame(of: .mirror, width: width, height: height)
        let notices = NoticeAssets(doubleSize: doubleSize)
        let bannerBottom = height - notices.controlsClearance + 6  // its dimmed band reaches 6 px below
        #expect(bannerBottom <= mirror.y, "banner band ends at \(bannerBottom), the mirror control starts at \(mirror.y)")
        #expect(notices.noCamera.height == AlphaMask.asset("notice-no-camera", doubleSize: doubleSize)!.height)
    }

    /// Too narrow, or too low for the mirror control to sit below the others (they are not drawn):
    /// a press anywhere is the window's, to drag.
    @Test(arguments: [(false, 96), (false, 107), (false, 150), (true, 96), (true, 215), (true, 300)])
    func controlsNotDrawnDoNotAct(doubleSize: Bool, width: Int) {
        var controls = PipControls(doubleSize: doubleSize)
        controls.pointerMoved(at: Self.now)
        let height = width * 9 / 16
        #expect(!controls.fit(width: width, height: height))
        var acting = 0
        for y in 0..<height {
            for x in 0..<width where controls.control(atX: x, y: y, width: width, height: height, now: Self.now) != nil {
                acting += 1
            }
        }
        #expect(acting == 0, "\(acting) of \(width * height) points act as a control")
    }
}
