import Testing
@testable import CameraSource

@Suite struct V4L2ModeSelectionTests {
    private func modes(_ device: FakeV4L2Device, _ w: Int, _ h: Int) throws -> [V4L2Mode] {
        try device.captureModes(displayWidth: w, displayHeight: h)
    }

    private func pick(_ device: FakeV4L2Device, _ w: Int, _ h: Int) throws -> V4L2ModeChoice? {
        V4L2ModeSelector.select(from: try modes(device, w, h), displayWidth: w, displayHeight: h)
    }

    private func expectChoice(
        _ choice: V4L2ModeChoice?, _ fourcc: FourCC, _ w: Int, _ h: Int, fps: UInt32?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(choice?.mode.fourcc == fourcc, sourceLocation: sourceLocation)
        #expect(choice?.mode.size == V4L2Size(w, h), sourceLocation: sourceLocation)
        #expect(choice?.interval == fps.map { V4L2Fraction.interval(fps: $0) }, sourceLocation: sourceLocation)
    }

    @Test func uvcWebcamPicksCheapestCoveringMode() throws {
        let cam = FakeCameras.uvcWebcam()
        // Small window: YUYV covers it at 30 fps.
        expectChoice(try pick(cam, 480, 270), .yuyv, 640, 480, fps: 30)
        expectChoice(try pick(cam, 320, 180), .yuyv, 320, 240, fps: 30)
        expectChoice(try pick(cam, 640, 480), .yuyv, 640, 480, fps: 30)
        // YUYV 720p is only 10 fps: MJPEG at the same size wins.
        expectChoice(try pick(cam, 1000, 563), .mjpeg, 1280, 720, fps: 30)
        expectChoice(try pick(cam, 1280, 720), .mjpeg, 1280, 720, fps: 30)
        // At 800x450 MJPEG 1920x1080 decodes at 1/2 (960x540) with no inverse DCT, clearly
        // cheaper than decoding 1280x720 whole.
        expectChoice(try pick(cam, 800, 450), .mjpeg, 1920, 1080, fps: 30)
        expectChoice(try pick(cam, 1920, 1080), .mjpeg, 1920, 1080, fps: 30)
        // Nothing covers: the largest smooth mode.
        expectChoice(try pick(cam, 3840, 2160), .mjpeg, 1920, 1080, fps: 30)
        // A mode a tenth smaller or less covers too: a 1306x735 main window (70 % of a 1920x1050
        // work area) gets 1280x720, not 1920x1080; a 704x528 window VGA; a tenth and a pixel more does not.
        expectChoice(try pick(cam, 1306, 735), .mjpeg, 1280, 720, fps: 30)
        expectChoice(try pick(cam, 1408, 792), .mjpeg, 1280, 720, fps: 30)
        expectChoice(try pick(cam, 1409, 720), .mjpeg, 1920, 1080, fps: 30)
        expectChoice(try pick(cam, 704, 528), .yuyv, 640, 480, fps: 30)
        expectChoice(try pick(cam, 705, 450), .mjpeg, 1920, 1080, fps: 30)
    }

    /// A camera changes modes for a resized window only when the window outgrew its frames by
    /// more than a tenth (and a larger mode suits it), when a mode of a quarter the area or less
    /// covers it, or when the mode that covers it costs half as much to show; modes of the
    /// picture's shape come first.
    @Test func modeSwitchesOnlyForLargeChanges() throws {
        let cam = FakeCameras.uvcWebcam()
        let list = try modes(cam, 480, 270)
        func switches(_ current: V4L2Size, _ w: Int, _ h: Int) -> Bool {
            V4L2ModeSelector.shouldSwitch(from: Self.mode(current, in: list), modes: list, displayWidth: w, displayHeight: h)
        }
        let vga = V4L2Size(640, 480), hd = V4L2Size(1280, 720), fullHD = V4L2Size(1920, 1080)
        #expect(!switches(vga, 640, 480) && !switches(vga, 700, 525), "within a tenth")
        #expect(switches(vga, 800, 600), "outgrown: MJPEG 1280x720 covers it")
        #expect(!switches(fullHD, 2400, 1350), "outgrown, but nothing larger")
        // Smaller windows: the smallest covering mode of the same shape (16:9 here) must be a
        // quarter of the area or less.
        #expect(!switches(fullHD, 480, 270) && !switches(hd, 320, 180), "1280x720 is the smallest 16:9 mode")
        let wide = [V4L2Size(640, 360), hd, fullHD].map { V4L2Mode(fourcc: .mjpeg, size: $0, intervals: [.interval(fps: 30)]) }
        func switchesWide(_ current: V4L2Size, _ w: Int, _ h: Int) -> Bool {
            V4L2ModeSelector.shouldSwitch(from: Self.mode(current, in: wide), modes: wide, displayWidth: w, displayHeight: h)
        }
        #expect(switchesWide(fullHD, 480, 270) && switchesWide(hd, 640, 360), "640x360: a quarter or less")
        #expect(!switchesWide(hd, 800, 450))
        // 1280x720 is not a quarter of 1920x1080's area, but decoding 1080p at full size for a
        // 1000x563 window costs twice what 720p costs there (`ModeCost`).
        #expect(switchesWide(fullHD, 1000, 563))
        #expect(!switches(vga, 0, 0))
    }

    /// The mode a camera streams in at `size`: the one chosen for a window that size.
    static func mode(_ size: V4L2Size, in list: [V4L2Mode]) -> V4L2Mode {
        V4L2ModeSelector.select(from: list, displayWidth: size.width, displayHeight: size.height)!.mode
    }

    @Test func theShapeInUseWinsAmongCoveringModes() {
        let list = [V4L2Size(960, 720), V4L2Size(1280, 720), V4L2Size(1920, 1080)].map {
            V4L2Mode(fourcc: .mjpeg, size: $0, intervals: [.interval(fps: 30)])
        }
        func pick(_ w: Int, _ h: Int, aspect: Double?) -> V4L2Size? {
            V4L2ModeSelector.select(from: list, displayWidth: w, displayHeight: h, aspect: aspect)?.mode.size
        }
        #expect(pick(900, 675, aspect: nil) == V4L2Size(960, 720), "smallest covering")
        #expect(pick(1000, 560, aspect: nil) == V4L2Size(960, 720))
        #expect(pick(1000, 560, aspect: 16.0 / 9) == V4L2Size(1280, 720), "16:9 kept")
        #expect(pick(1000, 750, aspect: 4.0 / 3) == V4L2Size(960, 720), "4:3 covers it within a tenth")
        #expect(pick(1100, 825, aspect: 4.0 / 3) == V4L2Size(1920, 1080), "no 4:3 mode covers it")

        // vivid's webcam: nothing smooth covers 1280x720 (it runs at 15 fps there); the largest
        // smooth mode of the picture's shape, not the largest of any shape.
        let vivid = [(320, 180, 60), (640, 360, 30), (640, 480, 25), (1280, 720, 15)].map {
            V4L2Mode(fourcc: .yuyv, size: V4L2Size($0.0, $0.1), intervals: [.interval(fps: UInt32($0.2))])
        }
        #expect(V4L2ModeSelector.select(from: vivid, displayWidth: 1280, displayHeight: 720)?.mode.size == V4L2Size(640, 480))
        #expect(V4L2ModeSelector.select(from: vivid, displayWidth: 1280, displayHeight: 720, aspect: 16.0 / 9)?.mode.size
            == V4L2Size(640, 360))
        #expect(V4L2ModeSelector.shouldSwitch(from: vivid[0], modes: vivid, displayWidth: 1280, displayHeight: 720))
        #expect(!V4L2ModeSelector.shouldSwitch(from: vivid[1], modes: vivid, displayWidth: 1280, displayHeight: 720))
    }

    /// A larger covering mode wins over the smallest one only when it costs clearly less to show
    /// (`ModeCost`), has the same shape and no lower rate.
    @Test func aClearlyCheaperLargerModeWins() {
        func mjpeg(_ w: Int, _ h: Int, fps: UInt32 = 30) -> V4L2Mode {
            V4L2Mode(fourcc: .mjpeg, size: V4L2Size(w, h), intervals: [.interval(fps: fps)])
        }
        func pick(_ list: [V4L2Mode], _ w: Int, _ h: Int) -> V4L2Mode? {
            V4L2ModeSelector.select(from: list, displayWidth: w, displayHeight: h)?.mode
        }
        let cost = ModeCost.measured
        let hd = mjpeg(1280, 720), fullHD = mjpeg(1920, 1080)
        // The estimate itself: 1080p at 1/2 against 720p decoded whole, at 800x450.
        let ratio = cost.milliseconds(fullHD, displayWidth: 800, displayHeight: 450)
            / cost.milliseconds(hd, displayWidth: 800, displayHeight: 450)
        #expect(ratio < V4L2ModeSelector.clearlyCheaper && ratio > 0.5)
        #expect(pick([hd, fullHD], 800, 450) == fullHD)
        // A slower larger mode does not win; nor one of another shape.
        #expect(pick([hd, mjpeg(1920, 1080, fps: 25)], 800, 450) == hd)
        #expect(pick([hd, mjpeg(1920, 1440)], 800, 450) == hd)
        // A cost model where the reduced decode saves little keeps the smallest covering mode.
        var dear = cost
        dear.reducedDecodePerSourcePixel = 1.6
        #expect(V4L2ModeSelector.select(from: [hd, fullHD], displayWidth: 800, displayHeight: 450, cost: dear)?.mode == hd)
        // Raw modes: the smallest covering one is the cheapest.
        let raw = [V4L2Size(640, 360), V4L2Size(1280, 720)].map { V4L2Mode(fourcc: .yuyv, size: $0, intervals: [.interval(fps: 30)]) }
        #expect(pick(raw, 600, 338) == raw[0])
    }

    @Test func equalSizesPreferYUYVOverMJPEG() {
        let both = [
            V4L2Mode(fourcc: .mjpeg, size: V4L2Size(640, 480), intervals: [.interval(fps: 30)]),
            V4L2Mode(fourcc: .yuyv, size: V4L2Size(640, 480), intervals: [.interval(fps: 30)]),
        ]
        expectChoice(V4L2ModeSelector.select(from: both, displayWidth: 480, displayHeight: 270), .yuyv, 640, 480, fps: 30)
    }

    @Test func stepwiseDriverGetsTheDisplaySize() throws {
        let vivid = FakeCameras.stepwise()
        expectChoice(try pick(vivid, 480, 270), .yuyv, 480, 270, fps: 30)
        // Rounded up to the step, widths to multiples of 8 (libv4l2 crops others in software).
        expectChoice(try pick(vivid, 481, 271), .yuyv, 488, 272, fps: 30)
        #expect(V4L2FrameSizes.stepwise(min: V4L2Size(16, 16), max: V4L2Size(1920, 1080), step: V4L2Size(3, 1))
            .candidates(displayWidth: 100, displayHeight: 51) == [V4L2Size(112, 52), V4L2Size(1920, 1080)])
        // Clamped to the largest size.
        expectChoice(try pick(vivid, 2560, 1440), .yuyv, 1920, 1080, fps: 30)
    }

    @Test func yuyvOnlyCameraTradesSizeForRate() throws {
        let cam = FakeCameras.uvcWebcam()
        cam.formats.removeLast()
        // 720p would be 10 fps: the largest 30 fps mode is better.
        expectChoice(try pick(cam, 1280, 720), .yuyv, 640, 480, fps: 30)
        expectChoice(try pick(cam, 480, 270), .yuyv, 640, 480, fps: 30)
    }

    @Test func slowCameraFallsBackToTheBestRate() {
        let slow = [
            V4L2Mode(fourcc: .yuyv, size: V4L2Size(1280, 720), intervals: [.interval(fps: 10), .interval(fps: 5)]),
            V4L2Mode(fourcc: .yuyv, size: V4L2Size(1920, 1080), intervals: [.interval(fps: 5)]),
        ]
        expectChoice(V4L2ModeSelector.select(from: slow, displayWidth: 480, displayHeight: 270), .yuyv, 1280, 720, fps: 10)
        expectChoice(V4L2ModeSelector.select(from: slow, displayWidth: 1920, displayHeight: 1080), .yuyv, 1280, 720, fps: 10)
    }

    @Test func emulatedFormatsOnlyWhenNothingElse() {
        let mjpegCamera = [
            V4L2Mode(fourcc: .yu12, size: V4L2Size(1280, 720), intervals: [.interval(fps: 30)], isEmulated: true),
            V4L2Mode(fourcc: .mjpeg, size: V4L2Size(1280, 720), intervals: [.interval(fps: 30)]),
            V4L2Mode(fourcc: FourCC("H264"), size: V4L2Size(640, 480), intervals: [.interval(fps: 30)]),
        ]
        expectChoice(V4L2ModeSelector.select(from: mjpegCamera, displayWidth: 480, displayHeight: 270), .mjpeg, 1280, 720, fps: 30)
        let onlyEmulated = [mjpegCamera[0], mjpegCamera[2]]
        expectChoice(V4L2ModeSelector.select(from: onlyEmulated, displayWidth: 480, displayHeight: 270), .yu12, 1280, 720, fps: 30)
        #expect(V4L2ModeSelector.select(from: [mjpegCamera[2]], displayWidth: 480, displayHeight: 270) == nil)
    }

    @Test func preferredIntervalAvoidsNeedlessSpeed() {
        let ntsc = V4L2Fraction(1001, 30000)
        #expect(V4L2ModeSelector.preferredInterval(of: [.interval(fps: 60), .interval(fps: 30)]) == .interval(fps: 30))
        #expect(V4L2ModeSelector.preferredInterval(of: [.interval(fps: 25), ntsc, .interval(fps: 60)]) == ntsc)
        #expect(V4L2ModeSelector.preferredInterval(of: [.interval(fps: 120), .interval(fps: 60)]) == .interval(fps: 60))
        #expect(V4L2ModeSelector.preferredInterval(of: [.interval(fps: 10), .interval(fps: 15)]) == .interval(fps: 15))
        #expect(V4L2ModeSelector.preferredInterval(of: [V4L2Fraction(0, 0)]) == nil)
        #expect(V4L2ModeSelector.preferredInterval(of: []) == nil)
    }

    @Test func intervalRangeOffers30() {
        let range = V4L2FrameIntervals.stepwise(min: .interval(fps: 60), max: .interval(fps: 1), step: V4L2Fraction(0, 1))
        #expect(range.candidates == [.interval(fps: 60), .interval(fps: 30), .interval(fps: 25), .interval(fps: 1)])
        #expect(V4L2ModeSelector.preferredInterval(of: range.candidates) == .interval(fps: 30))
        let fastOnly = V4L2FrameIntervals.stepwise(min: .interval(fps: 120), max: .interval(fps: 60), step: V4L2Fraction(1, 120))
        #expect(fastOnly.candidates == [.interval(fps: 120), .interval(fps: 60)])
    }

    @Test func unenumeratedSizesUseTheDisplaySize() throws {
        let d = FakeV4L2Device()
        d.formats = [V4L2FormatDescription(fourcc: .yuyv, description: "YUYV")]
        let found = try modes(d, 480, 270)
        #expect(found == [V4L2Mode(fourcc: .yuyv, size: V4L2Size(480, 270), intervals: [])])
        expectChoice(V4L2ModeSelector.select(from: found, displayWidth: 480, displayHeight: 270), .yuyv, 480, 270, fps: nil)
    }
}
