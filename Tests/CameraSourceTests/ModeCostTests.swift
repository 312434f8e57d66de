import Testing
@testable import CameraSource

/// The estimated cost of showing a mode, and the mode switches it leads to when a window shrinks.
@Suite struct ModeCostTests {
    static func mode(_ fourcc: FourCC, _ w: Int, _ h: Int, fps: UInt32 = 30) -> V4L2Mode {
        V4L2Mode(fourcc: fourcc, size: V4L2Size(w, h), intervals: [.interval(fps: fps)])
    }
    let cost = ModeCost.measured

    private func ms(_ mode: V4L2Mode, _ w: Int, _ h: Int) -> Double { cost.milliseconds(mode, displayWidth: w, displayHeight: h) }

    @Test func straightPassesCostLessThanResampling() {
        let yuyv = Self.mode(.yuyv, 1280, 720)
        #expect(ms(yuyv, 1280, 720) < ms(yuyv, 1200, 675), "1:1 against a tenth smaller")
        #expect(ms(Self.mode(.yuyv, 1920, 1080), 960, 540) < ms(Self.mode(.yuyv, 1920, 1080), 900, 506), "2:1")
        // The picture is fitted inside the window: a wider window shows 1280x720 1:1 too.
        #expect(ms(yuyv, 1600, 720) == ms(yuyv, 1280, 720))
    }

    @Test func mjpegDecodedReducedWhenThatCovers() {
        let fullHD = Self.mode(.mjpeg, 1920, 1080)
        #expect(ms(fullHD, 960, 540) * 2 < ms(fullHD, 961, 541), "1/2 scale skips the inverse DCT")
        #expect(ms(fullHD, 1280, 720) > ms(Self.mode(.yuyv, 1920, 1080), 1280, 720), "decoding costs more than reading raw")
        #expect(ms(fullHD, 0, 0) == 0)
    }

    /// A camera with YUYV 720p and MJPEG 1080p at the same rate: a 1280x720 window reads YUYV
    /// 720p; grown well past it, MJPEG 1080p; shrunk back, YUYV 720p again, because 1080p decoded
    /// at full size costs far more than twice as much there, although 720p is not a quarter its area.
    @Test func shrinkingSwitchesBackToTheCheaperMode() {
        let yuyv = Self.mode(.yuyv, 1280, 720), mjpeg = Self.mode(.mjpeg, 1920, 1080)
        let modes = [mjpeg, yuyv]
        func select(_ w: Int, _ h: Int) -> V4L2Mode? {
            V4L2ModeSelector.select(from: modes, displayWidth: w, displayHeight: h, aspect: 16.0 / 9)?.mode
        }
        func switches(_ from: V4L2Mode, _ w: Int, _ h: Int) -> Bool {
            V4L2ModeSelector.shouldSwitch(from: from, modes: modes, displayWidth: w, displayHeight: h)
        }
        #expect(select(1280, 720) == yuyv)
        #expect(!switches(yuyv, 1400, 787), "within a tenth")
        #expect(switches(yuyv, 1600, 900) && select(1600, 900) == mjpeg, "outgrown")
        #expect(!switches(mjpeg, 1500, 844), "720p does not cover it")
        #expect(switches(mjpeg, 1280, 720) && select(1280, 720) == yuyv, "back: half the cost or less")
        #expect(switches(mjpeg, 1300, 731), "also within a tenth of 720p")
    }

    /// An MJPEG-only camera: 1080p for a 1280x720 window is decoded at full size, 720p shown 1:1;
    /// a window 1080p shows at 1/2 scale costs little either way, and keeps its mode.
    @Test func mjpegOnlyCameraSwitchesWhenDecodingIsTheCost() {
        let modes = [Self.mode(.mjpeg, 640, 360), Self.mode(.mjpeg, 1280, 720), Self.mode(.mjpeg, 1920, 1080)]
        func switches(_ from: Int, _ w: Int, _ h: Int) -> Bool {
            V4L2ModeSelector.shouldSwitch(from: modes[from], modes: modes, displayWidth: w, displayHeight: h)
        }
        #expect(switches(2, 1280, 720))
        #expect(!switches(1, 1280, 720))
        #expect(!switches(1, 800, 450), "720p is the smallest that covers")
        #expect(!switches(2, 960, 540), "1080p at 1/2 scale costs less than 720p resampled")
    }
}
