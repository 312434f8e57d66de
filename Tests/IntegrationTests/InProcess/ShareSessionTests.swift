import PipControl
import CameraSource
import Foundation
import PipCore
@testable import PipWindow
@testable import PipcamApp
import Testing
import TestSupport

/// pipcam with `--share` in this process on its own Xvfb: the test pattern's frames reach the
/// virtual camera (a recording stand-in) while they are shown, whatever the windows do, and the
/// stats line and `status` report it (docs/BEHAVIOUR.md, "Sharing the camera").
@Suite struct ShareSessionTests {
    @Test func framesReachTheVirtualCameraWhilePipIsUpAndAfterItIsClosed() throws {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let source = TestPatternSource(width: 640, height: 360)
        source.start()
        let out = FakeOutputDevice()
        let share = CameraShare(device: "/dev/video10", output: out, format: .i420, width: 640, height: 360, frameRate: source.frameRate)
        defer { share.close() }
        var options = SessionOptions()
        options.remembersGeometry = false
        options.startInPip = true
        let app = PipcamApp(display: display, source: source, options: options, share: share)
        var whileActive = 0, afterClose = 0, writtenAround = 0...0
        var status: InstanceStatus?
        var line = ""
        let script = LoopScript()
        script.wait("PiP to show frames", until: { app.pip != nil && app.pip.phase == .active && app.frames.stats.shown >= 10 }) {
            whileActive = share.written
            status = app.statusSnapshot
            // The capture thread writes on meanwhile: the line's count is one of those around it.
            line = app.statsLine()
            writtenAround = whileActive...share.written
            // Out of sight: PiP goes back to where it came from (with --pip, the main window).
            app.carryOut(.pip(.stop))
        }
        script.wait("PiP to stop", until: { app.pip.phase == .idle }) { afterClose = share.written }
        script.pause(600)
        script.start(on: app.loop)
        #expect(app.run() == 0, "timed out waiting for \(script.failedStep ?? "")")
        #expect(whileActive >= 10)
        #expect(share.written >= afterClose + 5, "frames kept reaching the virtual camera: \(afterClose) → \(share.written)")
        #expect(out.frames.count == share.written)
        #expect(out.frames.allSatisfy { $0.count == 640 * 360 * 3 / 2 })
        let stream = try #require(status?.share)
        #expect(stream.device == "/dev/video10" && stream.format == "i420" && stream.width == 640 && stream.height == 360)
        #expect(stream.written >= 10 && stream.placeholders == 0)
        let shared = try #require(StatsLine(line)?.shared, "\(line)")
        #expect(writtenAround.contains(shared) && line.hasSuffix(" shared=\(shared)"), "\(line): written \(writtenAround)")
    }
}

/// The call sees the window's framing: zoomed on the top-left quarter of a four-quarter picture,
/// every shared frame is that quarter alone; with `--share-full-frame`, the whole picture.
@Suite struct ShareFramingTests {
    /// The last frame written to the virtual camera by pipcam showing the quarters zoomed 2× on
    /// the top-left one, `fullFrame` or not (I420, 320×180).
    func lastSharedFrame(fullFrame: Bool) throws -> [UInt8] {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let source = SourceFactory.make(try SourceSpec.parse("y4m:" + QuadrantClip.path()), request: SourceRequest())
        try source.start()
        let out = FakeOutputDevice()
        let share = CameraShare(device: "/dev/video10", output: out, format: .i420, width: 320, height: 180, frameRate: 10)
        defer { share.close() }
        var options = SessionOptions()
        options.remembersGeometry = false
        options.startInPip = true
        options.framing = Framing(zoom: 2, centreX: 0.25, centreY: 0.25)
        options.shareFullFrame = fullFrame
        let app = PipcamApp(display: display, source: source, options: options, share: share)
        let script = LoopScript()
        script.wait("frames to be shared", until: { share.written >= 3 }) { app.loop.stop(exitCode: 0) }
        script.start(on: app.loop)
        #expect(app.run() == 0, "timed out waiting for \(script.failedStep ?? "")")
        return try #require(out.frames.last)
    }

    @Test func theCallSeesTheFramedPicture() throws {
        let frame = try lastSharedFrame(fullFrame: false)
        let (w, h) = (320, 180)
        let (y, u, v) = QuadrantClip.yuv(.red)
        #expect(frame[0..<(w * h)].allSatisfy { $0 == y }, "luma is the red quarter's everywhere")
        #expect(frame[(w * h)..<(w * h * 5 / 4)].allSatisfy { $0 == u } && frame[(w * h * 5 / 4)...].allSatisfy { $0 == v })
    }

    @Test func shareFullFrameSharesTheWholePicture() throws {
        let frame = try lastSharedFrame(fullFrame: true)
        let w = 320
        #expect(frame[10 * w + 10] == QuadrantClip.yuv(.red).0 && frame[10 * w + 300] == QuadrantClip.yuv(.green).0)
        #expect(frame[170 * w + 10] == QuadrantClip.yuv(.blue).0 && frame[170 * w + 300] == QuadrantClip.yuv(.white).0)
    }
}
