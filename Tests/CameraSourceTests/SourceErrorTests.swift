import CameraSource
import PipCore
import Testing

/// `SourceError` keeps a camera interruption as a value: the message is made from it, and nothing
/// reads the kind back from the words (rewording a message must not change what pipcam does).
@Suite struct SourceErrorTests {
    @Test func anInterruptionIsAValueWithTheUsualMessage() {
        for why in [CameraInterruption.inUse, .disconnected] {
            let error = SourceError.interrupted(thing: "/dev/video0", why)
            #expect(error.cameraInterruption == why)
            #expect(error.description == "/dev/video0: \(why.reason)")
            #expect(error.exitCode == 1)
        }
    }

    @Test func aRuntimeErrorWithTheSameWordsIsNoInterruption() {
        for why in CameraInterruption.allCases {
            #expect(SourceError.runtime(thing: "/dev/video0", reason: why.reason).cameraInterruption == nil)
            #expect(SourceError.badInput(thing: "/dev/video0", reason: why.reason).cameraInterruption == nil)
        }
    }
}
