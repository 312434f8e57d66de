import TestSupport
import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// How many wake-ups are pending on a signal (consumes them).
func wakeups(_ signal: WakeSignal) -> Int {
    var count = 0
    var scratch = [UInt8](repeating: 0, count: 64)
    while true {
        let n = read(signal.fd, &scratch, scratch.count)
        if n <= 0 { return count }
        count += n
    }
}

/// Whether a signal becomes readable within `milliseconds`.
func signalled(_ signal: WakeSignal, within milliseconds: Int32) -> Bool {
    var p = pollfd(fd: signal.fd, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, milliseconds) == 1
}

/// A live source with no frames, asked again every 2 ms, whose state the test changes from its thread.
final class StatusSource: FrameSource, @unchecked Sendable {
    struct Shared {
        var state: CameraState = .streaming
        var needsBack = false
        var asked = 0
        var format: PixelFormat?
        var name = "status"
    }
    // Locked, not Mutex: ThreadSanitizer sees its lock (PipCore/Locked.swift says why).
    let shared = Locked(Shared())
    var name: String { shared.withLock { $0.name } }
    var spec: SourceSpec { .camera(path: name) }
    let isLive = true
    let mirroredByDefault: Bool
    let frameWidth = 2, frameHeight = 2
    let frameRate: Double? = nil
    let pollDescriptor: Int32? = nil
    init(mirrored: Bool) { mirroredByDefault = mirrored }

    var cameraState: CameraState { shared.withLock { $0.state } }
    var needsBuffersBack: Bool { shared.withLock { $0.needsBack } }
    var asked: Int { shared.withLock { $0.asked } }
    var frameFormat: PixelFormat? { shared.withLock { $0.format } }
    func set(format: PixelFormat?) { shared.withLock { $0.format = format } }
    func set(_ state: CameraState) { shared.withLock { $0.state = state } }
    func setNeedsBack(_ value: Bool) { shared.withLock { $0.needsBack = value } }
    func set(name: String) { shared.withLock { $0.name = name } }

    func start() throws {}
    func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        shared.withLock { $0.asked += 1 }
        return .wait(deadline: now.advanced(byNanoseconds: 2_000_000))
    }
    func recycle(bufferIndex: Int) {}
    func stop() {}
}

/// The mailbox's status and release-request channel, and how the pump drives them.
@Suite struct MailboxStatusTests {
    @Test func statusIsPublishedAndSignalledOnlyWhenItChanges() {
        let mailbox = FrameMailbox()
        #expect(mailbox.status == SourceStatus(camera: .streaming, prefersMirror: false))
        mailbox.publish(SourceStatus(camera: .streaming, prefersMirror: false))
        #expect(wakeups(mailbox.toDisplay) == 0)
        let busy = SourceStatus(camera: .interrupted(.inUse), prefersMirror: true)
        mailbox.publish(busy)
        #expect(wakeups(mailbox.toDisplay) == 1)
        #expect(mailbox.status == busy)
        mailbox.publish(busy)
        #expect(wakeups(mailbox.toDisplay) == 0)
        mailbox.publish(SourceStatus(camera: .interrupted(.disconnected), prefersMirror: true))
        #expect(wakeups(mailbox.toDisplay) == 1)
        #expect(mailbox.status.camera == .interrupted(.disconnected))
        #expect(wakeups(mailbox.toCapture) == 0)
    }

    @Test func releaseRequestIsSeenOnce() {
        let mailbox = FrameMailbox()
        #expect(!mailbox.takeReleaseRequest())
        mailbox.requestRelease()
        mailbox.requestRelease()  // still pending: no second wake-up
        #expect(wakeups(mailbox.toDisplay) == 1)
        #expect(mailbox.takeReleaseRequest())
        #expect(!mailbox.takeReleaseRequest())
        mailbox.requestRelease()
        #expect(wakeups(mailbox.toDisplay) == 1)
        #expect(mailbox.takeReleaseRequest())
    }
}

@Suite(.serialized) struct PumpStatusTests {
    /// A pump running `source`, and its mailbox.
    static func running(_ source: StatusSource) -> (FramePump, FrameMailbox) {
        let pump = FramePump(source: source)
        pump.run()
        return (pump, pump.mailbox)
    }

    @Test func pumpPublishesTheSourceStatusWhenItChanges() {
        let source = StatusSource(mirrored: true)
        let (pump, mailbox) = Self.running(source)
        defer { pump.stop() }
        // The first status differs from the mailbox's initial one (mirroring): published and signalled.
        #expect(signalled(mailbox.toDisplay, within: 1000))
        #expect(eventually { mailbox.status == SourceStatus(camera: .streaming, prefersMirror: true, spec: .camera(path: "status")) })

        source.set(.interrupted(.disconnected))
        #expect(eventually { mailbox.status.camera == .interrupted(.disconnected) })
        #expect(mailbox.status.prefersMirror)
        _ = wakeups(mailbox.toDisplay)

        // Unchanged status: the source is asked again and again, the display is not woken.
        let asked = source.asked
        #expect(!signalled(mailbox.toDisplay, within: 100))
        #expect(source.asked > asked + 5)

        source.set(.streaming)
        #expect(signalled(mailbox.toDisplay, within: 1000))
        #expect(eventually { mailbox.status.camera == .streaming })
        #expect(!mailbox.takeReleaseRequest())
    }

    /// A camera plugged in or switching modes sends other frames: the display hears of it before
    /// the first of them. A source whose name changes (the test pattern handing over to a camera
    /// plugged in) is named in the status from then on; until then the status names nothing.
    @Test func pumpPublishesTheFramesAndNameTheSourceHasNow() {
        let source = StatusSource(mirrored: false)
        let (pump, mailbox) = Self.running(source)
        defer { pump.stop() }
        #expect(!signalled(mailbox.toDisplay, within: 50))
        #expect(mailbox.status.frames == nil && mailbox.status.name == nil)
        source.set(format: .mjpeg)
        #expect(signalled(mailbox.toDisplay, within: 1000))
        #expect(eventually { mailbox.status.frames == ExpectedFrames(format: .mjpeg, width: 2, height: 2) })
        #expect(mailbox.status.camera == .streaming)
        source.set(format: nil)  // closed for a mode switch
        #expect(eventually { mailbox.status.frames == nil })
        source.set(name: "/dev/video0")
        #expect(eventually { mailbox.status.name == "/dev/video0" })
    }

    /// The pump on a clock that has passed the source's 2 ms wait whenever the pump looks: it asks
    /// the source again at once, so "for a while" is counted in rounds of the pump, not slept.
    @Test func pumpAsksForEveryFrameBackWhileTheSourceNeedsThem() {
        let source = StatusSource(mirrored: false)
        let clock = SteppingClock(step: 2_000_000)
        let pump = FramePump(source: source, now: clock.now)
        pump.run()
        let mailbox = pump.mailbox
        defer { pump.stop() }
        #expect(!signalled(mailbox.toDisplay, within: 50))
        #expect(!mailbox.takeReleaseRequest())

        source.setNeedsBack(true)
        #expect(signalled(mailbox.toDisplay, within: 1000))
        #expect(mailbox.takeReleaseRequest())
        // Asked again while the source still needs them.
        #expect(eventually { mailbox.takeReleaseRequest() })

        // A round of the pump asks the source, then reads whether it needs its frames back: once
        // the source was asked twice more, every round that read "needs them" has ended.
        source.setNeedsBack(false)
        var asked = source.asked
        #expect(eventually { source.asked >= asked + 2 })
        _ = mailbox.takeReleaseRequest()  // one may have been on its way
        asked = source.asked
        #expect(eventually { source.asked >= asked + 25 })
        #expect(!mailbox.takeReleaseRequest())
    }

    /// Frames the display never takes are replaced as stale: the governor throttles the source one
    /// level per window up to the maximum.
    @Test func staleFramesThrottleALiveSource() {
        let source = ScriptedSource(total: .max, buffers: 4, live: true)
        // The governor's own 2 s windows, on a clock 100 ms on at every frame: 20 frames a window.
        let clock = SteppingClock(step: 100_000_000)
        let pump = FramePump(source: source, now: clock.now)
        pump.run()
        let reached = eventually { source.throttleLevels.withLock { $0.count >= 3 } }
        pump.stop()
        #expect(reached)
        #expect(source.throttleLevels.withLock { $0 } == [1, 2, 3])
        #expect(pump.mailbox.replacedCount > 30)
    }
}

/// Who holds a camera in use by another program: in the status, looked up as `HolderWatch` says.
@Suite(.serialized) struct PumpHolderTests {
    @Test func aCameraInUseNamesItsHolderInTheStatusAndNoneOnceItStreams() {
        let source = StatusSource(mirrored: false)
        source.set(name: "/dev/video7")
        let looked = Locked([String]())
        let pump = FramePump(source: source, lookUpHolder: { path in
            looked.withLock { $0.append(path) }
            return "firefox, pid 4242"
        })
        pump.run()
        defer { pump.stop() }
        #expect(eventually { source.asked > 3 })
        #expect(pump.mailbox.status.holder == nil && looked.withLock { $0 }.isEmpty, "streaming: nobody is looked for")
        source.set(.interrupted(.inUse))
        #expect(eventually { pump.mailbox.status.holder == "firefox, pid 4242" })
        #expect(pump.mailbox.status.camera == .interrupted(.inUse))
        let asked = source.asked
        #expect(eventually { source.asked > asked + 20 })
        #expect(looked.withLock { $0 } == ["/dev/video7"], "looked up once, not at every turn of the loop")
        source.set(.streaming)
        #expect(eventually { pump.mailbox.status.holder == nil && pump.mailbox.status.camera == .streaming })
    }
}
