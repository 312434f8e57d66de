import PipCore
import PipWindow
import Testing
@testable import PipcamApp

/// The main window's playback bar: only for a file, only where it fits beside the PiP button.
@Suite struct PlaybackBarTests {
    @Test func aFileGetsThreeButtonsACameraNone() {
        var bar = PlaybackBar(doubleSize: false)
        let middle = (x: 320, y: 360 - 12 - 18)
        #expect(bar.button(atX: middle.x, y: middle.y, width: 640, height: 360) == nil, "no file: no bar")
        bar.state = PlaybackBar.State(isPlaying: true, progress: 0.5)
        #expect(bar.button(atX: middle.x, y: middle.y, width: 640, height: 360) == .playPause)
        #expect(bar.button(atX: middle.x - 42, y: middle.y, width: 640, height: 360) == .skipBack)
        #expect(bar.button(atX: middle.x + 42, y: middle.y, width: 640, height: 360) == .skipForward)
        #expect(bar.button(atX: middle.x, y: 20, width: 640, height: 360) == nil)
    }

    /// Never over the PiP button (36 pixels, 12 from the bottom-right corner); too narrow: no bar.
    @Test func theBarKeepsClearOfThePipButton() {
        var bar = PlaybackBar(doubleSize: false)
        bar.state = PlaybackBar.State(isPlaying: false, progress: nil)
        for width in [228, 240, 320, 1280] {
            let pipButton = Rect(x: width - 48, y: 360 - 48, width: 36, height: 36)
            for button in PlaybackBar.Button.allCases {
                #expect(bar.frame(of: button, width: width, height: 360).intersection(pipButton) == nil, "\(button) at width \(width)")
            }
        }
        #expect(!bar.fits(width: 227) && bar.button(atX: 113, y: 330, width: 227, height: 360) == nil)
    }
}
