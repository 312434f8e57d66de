import Foundation
import TestSupport
import Testing

/// Nothing spent while nothing shows (docs/BEHAVIOUR.md, "When nothing shows the camera"): a main
/// window showing a live source that another window covers entirely draws no frames, and draws
/// them again as soon as it is uncovered.
@Suite(.serialized) struct MainWindowCoveredTests {
    private func shown(_ x: XServer) throws -> Int { try x.pipcamStatus().object["shown"] as? Int ?? -1 }

    @Test func aCoveredMainWindowDrawsNoFramesUntilUncovered() throws {
        let x = try XServer()
        let pipcam = try x.startPipcam(["--source", "test", "--auto-pip", "never"])
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        try waitUntil("frames are shown", timeout: .seconds(10)) { try shown(x) > 10 }

        // xmessage over the whole screen (no window manager: it stays where it asks to be).
        let cover = try x.start(["xmessage", "-geometry", "\(x.width)x\(x.height)+0+0", "-bg", "black", "covering"])
        defer { cover.terminate(grace: .milliseconds(200)) }
        try waitUntil("frames stop being shown under the cover", timeout: .seconds(5)) {
            let before = try shown(x)
            Thread.sleep(forTimeInterval: 0.3)
            return try shown(x) == before
        }
        let covered = try shown(x)
        Thread.sleep(forTimeInterval: 1)
        #expect(try shown(x) == covered, "frames drawn into a covered window")
        #expect(try x.isViewable(main))

        cover.terminate(grace: .milliseconds(200))
        try waitUntil("frames are shown again once uncovered", timeout: .seconds(5)) { try shown(x) > covered + 5 }
        #expect(pipcam.isRunning && pipcam.stderrText.isEmpty, "\(pipcam.stderrText)")
    }
}
