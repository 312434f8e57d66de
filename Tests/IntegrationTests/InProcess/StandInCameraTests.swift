import CameraSource
import Foundation
import PipCore
@testable import PipWindow
@testable import PipcamApp
import Testing
import TestSupport

/// No camera at start (docs/BEHAVIOUR.md, "Sources"): the test pattern stands in and says so, and
/// a camera that appears takes over without a gap; that is no switch the user made, and the
/// status names the camera.
@Suite struct StandInCameraTests {
    @Test func aCameraThatAppearsTakesOverFromTheStandIn() throws {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let standIn = TestPatternSource(width: 320, height: 180, standsInForCamera: true)
        standIn.start()
        var options = SessionOptions()
        options.remembersGeometry = false
        options.automaticPip = .never
        options.sourceName = "test"
        options.sourceRequest = SourceRequest(displayWidth: 64, displayHeight: 36)
        // The camera is "plugged in" once the stand-in has been shown a while; a 4:3 one, so the
        // windows take its shape.
        let plugged = Locked(false)
        let made = Locked<[SourceRequest]>([])
        let access = CameraFinder.Access(
            listNodes: { plugged.withLock { $0 } ? ["/dev/video7"] : [] },
            findCamera: { excluded in plugged.withLock { $0 } && !excluded.contains("/dev/video7") ? "/dev/video7" : nil },
            makeCamera: { _, request in
                made.withLock { $0.append(request) }
                return WatchedPattern(name: "/dev/video7", width: 320, height: 240, mirrored: true)
            })
        let app = PipcamApp(display: display, source: standIn, options: options, findCamera: access)
        let script = LoopScript()
        script.wait("the stand-in to be shown, awaiting a camera", until: { app.pip != nil && app.frames.stats.shown >= 5 && app.frames.status.camera == .waiting }) {
            plugged.withLock { $0 = true }
        }
        script.wait("the camera to take over", until: { app.frames.status.camera == .streaming && app.picture.contentSize == (320, 240) })
        script.start(on: app.loop)
        #expect(app.run() == 0, "timed out waiting for \(script.failedStep ?? "")")
        #expect(app.frames.stats.switches == 0, "no switch the user asked for")
        #expect(app.statusSnapshot.source == "/dev/video7")
        #expect(made.withLock { $0.count } == 1)
        let request = try #require(made.withLock { $0.first })
        #expect(request.displayWidth > 64, "opened for the size the picture is shown at, not the one at start")
    }
}
