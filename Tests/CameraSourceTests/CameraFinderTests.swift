import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import CameraSource
import PipCore

// The limit is a backstop against a finder that never stops: under ThreadSanitizer beside the VM
// tier (CI's bulk lane) its four tests once ran past a minute; alone, and in a full
// ThreadSanitizer run here, they take a fraction of a second.

/// The finder's thread: it starts the camera it finds and offers it to the capture side; what
/// became of the offer decides what it does next.
@Suite(.timeLimit(.minutes(3))) struct CameraFinderTests {
    /// Fake cameras under fake nodes; every camera made is kept, in order.
    private final class Devices: @unchecked Sendable {
        private let state = Locked((nodes: [String](), failing: Set<String>(), made: [(String, SourceRequest, StubSource)]()))
        init(_ nodes: [String], failing: Set<String> = []) { state.withLock { $0.nodes = nodes; $0.failing = failing } }
        var made: [(path: String, request: SourceRequest, camera: StubSource)] { state.withLock { $0.made } }
        var access: CameraFinder.Access {
            CameraFinder.Access(
                listNodes: { [self] in state.withLock { $0.nodes } },
                findCamera: { [self] excluded in state.withLock { $0.nodes.first { !excluded.contains($0) } } },
                makeCamera: { [self] path, request in
                    state.withLock { s in
                        let camera = StubSource(name: path)
                        if s.failing.contains(path) { camera.startError = .runtime(thing: path, reason: "cannot stream") }
                        s.made.append((path, request, camera))
                        return camera
                    }
                })
        }
    }

    /// The capture side's end: the offers taken from the inbox, waiting up to 5 s for `count` of them.
    private func offers(_ inbox: SwitchInbox, count: Int) -> [SwitchInbox.Proposal] {
        var taken: [SwitchInbox.Proposal] = []
        let end = MonotonicInstant.now().advanced(byNanoseconds: 5_000_000_000)
        while taken.count < count, MonotonicInstant.now() < end {
            taken += inbox.takeProposals()
            if taken.count < count { usleep(2000) }
        }
        return taken
    }

    private func make(_ devices: Devices, _ inbox: SwitchInbox, wake: WakeSignal = WakeSignal()) -> CameraFinder {
        CameraFinder(access: devices.access, inbox: inbox, wakeCapture: wake, request: { SourceRequest(displayWidth: 800, displayHeight: 450) })
    }

    @Test func aCameraThereIsStartedAndOfferedAtOnceForTheSizeShownNowAndTheSearchEndsWhenItTakesOver() throws {
        let devices = Devices(["/dev/video0"]), inbox = SwitchInbox(), wake = WakeSignal()
        let finder = make(devices, inbox, wake: wake)
        finder.start()
        defer { finder.stop() }
        let offer = try #require(offers(inbox, count: 1).first)
        #expect(offer.name == nil && offer.answer != nil && offer.firstFrameNanoseconds == SourceSwitcher.offeredFirstFrameNanoseconds)
        #expect(devices.made.map(\.path) == ["/dev/video0"])
        #expect(devices.made[0].request == SourceRequest(displayWidth: 800, displayHeight: 450))
        #expect((offer.source as? StubSource)?.started == true)
        var readable = pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&readable, 1, 1000) == 1, "the capture thread is woken to take it")
        offer.answer?(.switched(name: "/dev/video0", firstSequence: 7))
        let begin = MonotonicInstant.now()
        finder.stop()
        #expect(MonotonicInstant.now().seconds(since: begin) < 1)
        #expect(offers(inbox, count: 0).isEmpty && devices.made.count == 1)
    }

    @Test func aCameraThatFailsToStartIsLeftOutAndTheNextOneOffered() throws {
        let devices = Devices(["/dev/video0", "/dev/video1"], failing: ["/dev/video0"]), inbox = SwitchInbox()
        let finder = make(devices, inbox)
        finder.start()
        defer { finder.stop() }
        let offer = try #require(offers(inbox, count: 1).first)
        #expect((offer.source as? StubSource)?.name == "/dev/video1")
        #expect(devices.made.map(\.path) == ["/dev/video0", "/dev/video1"])
        #expect(devices.made[0].camera.stopped, "a camera that failed is let go")
    }

    @Test func aCameraThatGivesNoFrameIsLeftOutAndTheNextOneOfferedAtOnce() throws {
        let devices = Devices(["/dev/video0", "/dev/video1"]), inbox = SwitchInbox()
        let finder = make(devices, inbox)
        finder.start()
        defer { finder.stop() }
        let first = try #require(offers(inbox, count: 1).first)
        first.answer?(.failed(name: "/dev/video0", reason: "/dev/video0: no frame within 10 s"))
        let second = try #require(offers(inbox, count: 1).first, "long before the next look, two seconds on")
        #expect((second.source as? StubSource)?.name == "/dev/video1")
    }

    @Test func stopEndsALookingFinderAtOnce() throws {
        let devices = Devices([]), inbox = SwitchInbox()
        let finder = make(devices, inbox)
        finder.start()
        usleep(50_000)
        let begin = MonotonicInstant.now()
        finder.stop()
        #expect(MonotonicInstant.now().seconds(since: begin) < 0.5, "not at the next look")
        #expect(devices.made.isEmpty)
    }
}

/// The finder's cameras by pipcam's default route: PipeWire nodes first, as `pipewire:NAME`.
@Suite struct AnyRouteAccessTests {
    private let cam = PipeWireNode(id: 40, serial: 91, name: "cam")
    private let loopback = PipeWireNode(id: 41, serial: 92, name: "v4l2_input.loopback", deviceAPI: "v4l2", devicePath: "/dev/null")

    @Test func pipeWireNodesComeFirstAndMakePipeWireCameras() throws {
        let access = CameraFinder.Access.anyRoute(excluding: ["/dev/null"], pipeWireCameras: { [cam, loopback] })
        #expect(access.listNodes().prefix(1) == ["pipewire:cam"])
        #expect(!access.listNodes().contains("pipewire:v4l2_input.loopback"), "the virtual camera pipcam feeds")
        #expect(access.findCamera([]) == "pipewire:cam")
        let camera = access.makeCamera("pipewire:cam", SourceRequest())
        #expect(camera is PipeWireCamera && camera.name == "pipewire:cam")
    }

    @Test func withoutADaemonItIsTheV4L2Finder() {
        let access = CameraFinder.Access.anyRoute(pipeWireCameras: { nil })
        #expect(access.listNodes() == CameraFinder.Access.v4l2().listNodes())
        #expect(!(access.makeCamera("/dev/video0", SourceRequest()) is PipeWireCamera))
    }
}

/// The finder's look at the daemon's nodes every two seconds: one connection kept between looks.
@Suite struct PipeWireNodeWatchTests {
    private let cam = PipeWireNode(id: 40, serial: 91, name: "cam")
    private let sink = PipeWireNode(id: 60, serial: 130, name: "screen-share", mediaClass: "Video/Sink")

    /// Connections handed out in turn, counted; none left: no daemon.
    private final class Daemon: @unchecked Sendable {
        var next: [FakePipeWire]
        var connects = 0
        init(_ next: [FakePipeWire]) { self.next = next }
        func connect() throws(SourceError) -> PipeWireConnection {
            connects += 1
            guard !next.isEmpty else { throw SourceError.badInput(thing: "pipewire", reason: "no PipeWire daemon answers for this user") }
            return next.removeFirst()
        }
    }

    @Test func oneConnectionServesEveryLookAndSeesNodesComeAndGo() {
        let fake = FakePipeWire(nodes: [sink])
        let daemon = Daemon([fake])
        let watch = PipeWireNodeWatch(connect: daemon.connect)
        #expect(watch.cameras() == [])
        #expect(watch.cameras() == [])
        fake.nodes.append(cam)
        fake.events.append(.nodeAdded(id: 40))
        #expect(watch.cameras() == [cam])
        fake.nodes.removeAll { $0.id == 40 }
        fake.events.append(.nodeRemoved(id: 40, name: "cam"))
        #expect(watch.cameras() == [])
        #expect(daemon.connects == 1)
        #expect(fake.log.filter { $0 == "claim" }.count == 3 && fake.log.last == "release", "handed back after every look")
    }

    @Test func aDaemonThatWentIsConnectedAgainAtALaterLook() {
        let first = FakePipeWire(nodes: [cam]), second = FakePipeWire(nodes: [])
        let daemon = Daemon([first])
        let watch = PipeWireNodeWatch(connect: daemon.connect)
        #expect(watch.cameras() == [cam])
        first.alive = false
        #expect(watch.cameras() == nil && first.log.last == "disconnect")
        #expect(watch.cameras() == nil, "no daemon answers")
        daemon.next = [second]
        #expect(watch.cameras() == [])
        #expect(daemon.connects == 3)
    }
}
