import Testing
import TestSupport
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// The capture thread feeds the virtual camera whatever the display does (docs/BEHAVIOUR.md,
/// "Sharing the camera").
@Suite struct PumpShareTests {
    private func share(_ out: FakeOutputDevice) -> CameraShare {
        CameraShare(device: "/dev/video10", output: out, format: .i420, width: 2, height: 2, frameRate: 30)
    }

    /// Every captured frame reaches the loopback, also those the display never takes (PiP closed,
    /// main window minimized: frames replaced in the mailbox unseen).
    @Test func everyCapturedFrameIsSharedEvenWhenTheDisplayTakesNone() {
        let out = FakeOutputDevice()
        let source = ScriptedSource(total: 20, buffers: 4, live: true)
        let pump = FramePump(source: source, share: share(out))
        pump.run()
        _ = eventually(timeout: .seconds(2)) { pump.mailbox.replacedCount >= 19 }
        if let last = pump.mailbox.take() { pump.mailbox.giveBack(last.bufferIndex) }
        pump.stop()
        #expect(out.frames.count == 20)
        #expect(pump.share?.written == 20)
        // Replaced frames would throttle an unshared camera; a shared one keeps its rate.
        #expect(source.throttleLevels.withLock { $0 }.allSatisfy { $0 == 0 })
    }

    /// The camera mode is chosen for the call: window sizes do not reach the camera.
    @Test func windowSizesDoNotSwitchASharedCamerasMode() {
        let source = ScriptedSource(total: 1, buffers: 1, live: true)
        let s = share(FakeOutputDevice())
        let pump = FramePump(source: source, share: s)
        pump.mailbox.noteDisplaySize(width: 1280, height: 720)
        pump.run()
        _ = eventually(timeout: .seconds(1)) { s.written == 1 }
        pump.mailbox.noteDisplaySize(width: 640, height: 360)
        usleep(100_000)
        pump.stop()
        #expect(source.displaySizes.withLock { $0 }.isEmpty)
    }

    /// Nothing showing the frames lets an unshared camera go (`SourceControls.idle`); a shared one
    /// serves the call whatever the windows show.
    @Test(arguments: [false, true])
    func idlenessReachesOnlyAnUnsharedCamera(shared: Bool) {
        let source = ScriptedSource(total: 1000, buffers: 2, live: true)
        let pump = FramePump(source: source, share: shared ? share(FakeOutputDevice()) : nil)
        pump.run()
        _ = eventually(timeout: .seconds(1)) { pump.mailbox.hasPending }
        pump.mailbox.noteIdle(true)
        let told = eventually(timeout: .seconds(1)) { source.idles.withLock { $0 == [true] } }
        pump.mailbox.noteIdle(false)
        let back = eventually(timeout: .seconds(1)) { source.idles.withLock { $0 == [true, false] } }
        usleep(50_000)
        pump.stop()
        #expect(shared ? source.idles.withLock { $0 }.isEmpty : told && back, "\(source.idles.withLock { $0 })")
    }

    /// Unseen, a shared source's frames still reach the virtual camera (the call sees them), and
    /// the source is not told it is unseen: the test pattern must paint on for the call.
    @Test func unseenFramesStillReachTheCallAndTheSourceKeepsPainting() {
        let out = FakeOutputDevice()
        let source = ScriptedSource(total: 1_000_000, buffers: 2, live: true)
        let s = share(out)
        let pump = FramePump(source: source, share: s)
        pump.mailbox.noteUnseen(true)
        pump.run()
        let written = eventually(timeout: .seconds(2)) { s.written >= 20 }
        let posted = pump.mailbox.hasPending
        pump.stop()
        #expect(written && !posted, "written \(s.written), posted \(posted)")
        #expect(source.unseens.withLock { $0 }.isEmpty, "\(source.unseens.withLock { $0 })")
    }

    /// A camera that gives nothing (interrupted): the pump wakes for the placeholders.
    @Test func placeholdersFlowWhileTheSourceWaits() {
        let out = FakeOutputDevice()
        let source = StubSource(name: "/dev/video0")
        source.waitUntil = MonotonicInstant.now().advanced(byNanoseconds: 60_000_000_000)
        let s = share(out)
        let pump = FramePump(source: source, share: s)
        pump.run()
        #expect(eventually(timeout: .seconds(3)) { s.placeholders >= 10 })
        pump.stop()
        #expect(out.frames.allSatisfy { $0 == [32, 32, 32, 32, 128, 128] })
    }
}
