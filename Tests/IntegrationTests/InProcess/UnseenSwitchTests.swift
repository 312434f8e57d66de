import CameraSource
import Foundation
import PipCore
@testable import PipWindow
import PipControl
@testable import PipcamApp
import Testing
import TestSupport

/// While no window shows video no frame comes to replace the one kept for redraws
/// (docs/BEHAVIOUR.md, "When nothing shows the camera"): a switch made then must still let the
/// old source go — a camera closes at once, not when a window shows video again.
@Suite struct UnseenSwitchTests {
    @Test func aSwitchWhileNothingShowsLetsTheOldSourceGo() throws {
        let x = try makeServer()
        let display = try XDisplay(name: x.display)
        let old = WatchedPattern()
        try old.start()
        var options = SessionOptions()
        options.remembersGeometry = false
        options.automaticPip = .never
        // Not the idle release's giving every frame back: the switch's own.
        options.idleReleaseSeconds = 0
        let app = PipcamApp(display: display, source: old, options: options)
        var cover: RunningProcess?
        var reply: PipReply?
        let script = LoopScript()
        script.wait("the main window to show frames", until: { app.pip != nil && app.frames.stats.shown >= 5 }) {
            cover = try? x.start(["xmessage", "-geometry", "\(x.width)x\(x.height)+0+0", "-bg", "black", "covering"])
        }
        script.wait("the frames to be unseen under the cover", until: { app.viewing.framesUnseen }) {
            app.switches.switchSource(to: .source(.test, text: "test")) { reply = $0 }
        }
        script.wait("the switch to be answered", until: { reply != nil })
        script.wait("the old source to stop", until: { old.stopped.withLock { $0 } })
        script.start(on: app.loop)
        #expect(app.run() == 0, "timed out waiting for \(script.failedStep ?? "")")
        cover?.terminate(grace: .milliseconds(200))
        // Answered as switched; the old source stopped (the script's last step) says the new one took over.
        #expect(reply == .done(""), "\(String(describing: reply))")
    }
}
