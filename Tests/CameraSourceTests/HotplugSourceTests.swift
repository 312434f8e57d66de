import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// The test pattern while pipcam looks for a camera every 2 s; a camera that appears is taken
/// once every test frame is back.
@Suite struct HotplugSourceTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)
    private let probe: Int64 = 2_000_000_000  // how often it looks for a camera
    private let request = SourceRequest(displayWidth: 320, displayHeight: 180)

    /// A hot-plug source over `placeholder`; `found` is what each probe finds; cameras made are kept in `made`.
    private final class Rig {
        let placeholder = StubSource(name: "test")
        /// What a look finds; setting it changes the device nodes (a camera plugged in).
        var found: String? { didSet { if let found { nodes = [found] } } }
        var nodes: [String] = []
        var excluded: Set<String> = []
        var probes = 0
        var made: [(path: String, request: SourceRequest, camera: StubSource)] = []
        var prepareCamera: (StubSource) -> Void = { _ in }
        lazy var source = HotplugSource(
            request: SourceRequest(displayWidth: 320, displayHeight: 180),
            findCamera: { [unowned self] excluded in
                self.probes += 1
                self.excluded = excluded
                return self.found.flatMap { excluded.contains($0) ? nil : $0 }
            },
            listNodes: { [unowned self] in self.nodes },
            makeCamera: { [unowned self] path, request in
                let camera = StubSource(name: path, mirrored: true)
                self.prepareCamera(camera)
                self.made.append((path, request, camera))
                return camera
            },
            placeholder: placeholder)
    }

    @Test func withoutACameraShowsThePlaceholderAndProbesEveryTwoSeconds() throws {
        let rig = Rig()
        let hp = rig.source
        try hp.start()
        #expect(rig.placeholder.started)
        #expect(hp.cameraState == .waiting && hp.cameraState.description == "waiting")
        #expect(hp.name == "test" && !hp.mirroredByDefault && hp.isLive)

        let f = try #require(expectFrame(try hp.nextFrame(now: t0)))
        #expect(f.sequence == 0)
        #expect(rig.probes == 1)  // the first look is right away
        hp.recycle(bufferIndex: f.bufferIndex)
        #expect(rig.placeholder.log.last == "recycle \(f.bufferIndex)")
        #expect(!hp.needsBuffersBack)

        // No new probe before two seconds. A placeholder waiting with no timer (all three of its
        // buffers out): the wait ends at the next probe.
        for _ in 0..<3 { _ = try #require(expectFrame(try hp.nextFrame(now: t0 + probe - 1))) }
        #expect(try hp.nextFrame(now: t0 + probe - 1).waitDeadline == .some(t0 + probe))
        #expect(rig.probes == 1)
        // The placeholder's own earlier deadline wins; a later one is cut to the probe.
        rig.placeholder.waitUntil = t0 + ms(1500)
        #expect(try hp.nextFrame(now: t0 + ms(1000)).waitDeadline == .some(t0 + ms(1500)))
        rig.placeholder.waitUntil = t0 + ms(2500)
        #expect(try hp.nextFrame(now: t0 + ms(1000)).waitDeadline == .some(t0 + probe))
        #expect(rig.probes == 1)

        // At two seconds it looks again, and then two seconds after that; it opens the cameras
        // only when the device nodes changed (a node that is no camera appeared here).
        rig.nodes = ["/dev/video9"]
        #expect(try hp.nextFrame(now: t0 + probe).waitDeadline == .some(t0 + ms(2500)))
        #expect(rig.probes == 2)
        rig.placeholder.waitUntil = t0 + ms(9000)
        #expect(try hp.nextFrame(now: t0 + ms(2100)).waitDeadline == .some(t0 + 2 * probe))
        #expect(rig.probes == 2)
        _ = try hp.nextFrame(now: t0 + 2 * probe)
        #expect(rig.probes == 2, "the same nodes: no camera opened")
        #expect(rig.made.isEmpty && hp.cameraState == .waiting)
    }

    @Test func aCameraThatAppearsIsTakenOnceEveryTestFrameIsBack() throws {
        let rig = Rig()
        let hp = rig.source
        try hp.start()
        let a = try #require(expectFrame(try hp.nextFrame(now: t0)))
        let b = try #require(expectFrame(try hp.nextFrame(now: t0)))
        let requestsBefore = rig.placeholder.frameRequests

        // Plugged in: the next probe finds it. No more test frames, and the display is asked for its frames.
        rig.found = "/dev/video2"
        #expect(try hp.nextFrame(now: t0 + probe).waitDeadline == .some(nil))
        #expect(rig.probes == 2)
        #expect(rig.placeholder.frameRequests == requestsBefore)
        #expect(hp.needsBuffersBack)
        #expect(rig.made.isEmpty)
        #expect(hp.cameraState == .waiting)

        hp.recycle(bufferIndex: a.bufferIndex)
        #expect(hp.needsBuffersBack)
        #expect(try hp.nextFrame(now: t0 + probe).waitDeadline == .some(nil))
        #expect(rig.made.isEmpty && rig.probes == 2)

        // The last test frame is back: the camera is made, started and used; the placeholder stopped.
        hp.recycle(bufferIndex: b.bufferIndex)
        #expect(!hp.needsBuffersBack)
        rig.found = nil  // it is not looked for again
        let f = try #require(expectFrame(try hp.nextFrame(now: t0 + probe + ms(5))))
        let camera = try #require(rig.made.first?.camera)
        #expect(rig.made.count == 1 && rig.made[0].path == "/dev/video2")
        #expect(rig.made[0].request == request)
        #expect(camera.log.first == "start" && camera.log.last == "next")
        #expect(rig.placeholder.stopped)
        #expect(rig.placeholder.frameRequests == requestsBefore)
        #expect(hp.name == "/dev/video2" && hp.mirroredByDefault)
        #expect(hp.cameraState == .streaming)
        camera.cameraState = .interrupted(.inUse)
        #expect(hp.cameraState == .interrupted(.inUse))
        camera.pollDescriptor = 7
        #expect(hp.pollDescriptor == 7)

        // Frames, recycling, throttling and waits are the camera's from now on, with no probing.
        hp.recycle(bufferIndex: f.bufferIndex)
        #expect(camera.log.last == "recycle \(f.bufferIndex)")
        hp.apply(SourceControls(throttle: 2))
        #expect(camera.throttle == 2)
        camera.waitUntil = t0 + 60_000_000_000
        #expect(try hp.nextFrame(now: t0 + 10 * probe).waitDeadline == .some(t0 + 60_000_000_000))
        #expect(rig.probes == 2 && rig.made.count == 1)
        camera.cameraState = .interrupted(.disconnected)
        camera.waitUntil = nil
        #expect(!hp.needsBuffersBack)
        hp.stop()
        #expect(camera.stopped)
        #expect(rig.placeholder.log.filter { $0 == "stop" }.count == 1)
    }

    @Test func aCameraFoundWithNoTestFrameOutIsTakenAtOnce() throws {
        let rig = Rig()
        rig.found = "/dev/video0"
        let hp = rig.source
        try hp.start()
        let f = try #require(expectFrame(try hp.nextFrame(now: t0)))
        #expect(rig.made.count == 1)
        #expect(hp.name == "/dev/video0")
        #expect(rig.placeholder.frameRequests == 0 && rig.placeholder.stopped)
        hp.recycle(bufferIndex: f.bufferIndex)
    }

    /// The PiP resized while the test pattern ran: a camera plugged in then opens for the size the
    /// frames are shown at now, and later sizes go to the camera.
    @Test func aCameraOpensForTheSizeShownNow() throws {
        let rig = Rig()
        let hp = rig.source
        try hp.start()
        hp.apply(SourceControls(displaySize: .init(width: 640, height: 360)))
        hp.apply(SourceControls(displaySize: .init(width: 960, height: 540)))
        #expect(rig.placeholder.log == ["start", "display 640x360", "display 960x540"])  // passed on
        rig.found = "/dev/video1"
        let f = try #require(expectFrame(try hp.nextFrame(now: t0)))
        #expect(rig.made.count == 1)
        #expect(rig.made[0].request == SourceRequest(displayWidth: 960, displayHeight: 540, paced: request.paced))
        hp.recycle(bufferIndex: f.bufferIndex)
        hp.apply(SourceControls(displaySize: .init(width: 320, height: 180)))
        #expect(rig.made[0].camera.log.contains("display 320x180"))
    }

    /// The camera's `needsBuffersBack` passes through once it is in use.
    @Test func cameraNeedingFramesBackIsPassedThrough() throws {
        final class Needy: FrameSource {
            let name = "/dev/video0"
            let isLive = true, mirroredByDefault = true, frameWidth = 2, frameHeight = 2
            let frameRate: Double? = nil, pollDescriptor: Int32? = nil
            var needsBuffersBack = false
            func start() throws {}
            func nextFrame(now: MonotonicInstant) throws -> SourceStep { .wait(deadline: nil) }
            func recycle(bufferIndex: Int) {}
            func stop() {}
        }
        let camera = Needy()
        let hp = HotplugSource(request: request, findCamera: { _ in "/dev/video0" }, listNodes: { ["/dev/video0"] }, makeCamera: { _, _ in camera },
                               placeholder: StubSource(name: "test"))
        try hp.start()
        #expect(try hp.nextFrame(now: t0).waitDeadline == .some(nil))
        #expect(!hp.needsBuffersBack)
        camera.needsBuffersBack = true
        #expect(hp.needsBuffersBack)
    }

    /// A started hot-plug source whose probes find /dev/video2, which fails to start for `reason`.
    private func startedWithFailingCamera(reason: String) throws -> (Rig, HotplugSource) {
        let rig = Rig()
        rig.prepareCamera = { $0.startError = .runtime(thing: "/dev/video2", reason: reason) }
        rig.found = "/dev/video2"
        try rig.source.start()
        return (rig, rig.source)
    }

    @Test func aCameraThatFailsToStartLeavesThePlaceholderAndIsProbedAgain() throws {
        let (rig, hp) = try startedWithFailingCamera(reason: "VIDIOC_S_FMT failed: invalid argument")
        // The camera fails: this same call still shows a test frame.
        let f = try #require(expectFrame(try hp.nextFrame(now: t0)))
        #expect(rig.made.count == 1 && rig.made[0].camera.started)
        #expect(!rig.placeholder.stopped)
        #expect(hp.cameraState == .waiting && hp.name == "test")
        #expect(!hp.needsBuffersBack)
        hp.recycle(bufferIndex: f.bufferIndex)
        #expect(rig.placeholder.log.last == "recycle \(f.bufferIndex)")

        // Another camera was looked for at once, not this one…
        #expect(rig.probes == 2 && rig.excluded == ["/dev/video2"])
        let held = try #require(expectFrame(try hp.nextFrame(now: t0 + probe - 1)))
        #expect(rig.probes == 2 && rig.made.count == 1)

        // …which is tried again at the next probe, where it works once the test frame still out is back.
        rig.prepareCamera = { _ in }
        #expect(try hp.nextFrame(now: t0 + probe).waitDeadline == .some(nil))
        #expect(rig.probes == 3 && rig.excluded.isEmpty && rig.made.count == 1)
        hp.recycle(bufferIndex: held.bufferIndex)
        _ = try #require(expectFrame(try hp.nextFrame(now: t0 + probe)))
        #expect(rig.made.count == 2)
        #expect(hp.name == "/dev/video2" && hp.cameraState == .streaming)
        #expect(rig.placeholder.stopped)
    }

    /// Two cameras appear and the first cannot stream (a depth node, a full USB bus): the second
    /// is taken in the same call. Waiting for it instead, with no test frame out to come back and
    /// no descriptor to wake the capture thread, froze the test pattern for good.
    @Test(arguments: [false, true])
    func aSecondCameraIsTakenAtOnceWhenTheFirstFails(testFrameOut: Bool) throws {
        let placeholder = StubSource(name: "test")
        var nodes: [String] = [], made: [StubSource] = []
        let hp = HotplugSource(
            request: request, findCamera: { excluded in nodes.first { !excluded.contains($0) } }, listNodes: { nodes },
            makeCamera: { path, _ in
                let camera = StubSource(name: path)
                if path == "/dev/video0" { camera.startError = .runtime(thing: path, reason: "offers no pixel format pipcam can show") }
                made.append(camera)
                return camera
            },
            placeholder: placeholder)
        try hp.start()
        let held = try #require(expectFrame(try hp.nextFrame(now: t0)))
        if !testFrameOut { hp.recycle(bufferIndex: held.bufferIndex) }
        nodes = ["/dev/video0", "/dev/video1"]
        var step = try hp.nextFrame(now: t0 + probe)
        if testFrameOut {
            #expect(step.waitDeadline == .some(nil), "no camera before the test frame is back")
            #expect(hp.needsBuffersBack)
            hp.recycle(bufferIndex: held.bufferIndex)
            step = try hp.nextFrame(now: t0 + probe)
        }
        _ = try #require(expectFrame(step), "the second camera's frame, in the same call")
        #expect(made.map(\.name) == ["/dev/video0", "/dev/video1"] && made.allSatisfy(\.started))
        #expect(hp.name == "/dev/video1" && hp.cameraState == .streaming)
        #expect(placeholder.stopped)
    }

    /// A camera that keeps failing is tried again after 2, 4, 8 … up to 64 s, and forgotten
    /// (tried at once) when its node goes and comes back.
    @Test func aCameraThatKeepsFailingIsTriedLessOften() throws {
        let (rig, hp) = try startedWithFailingCamera(reason: "not enough USB bandwidth")
        var now = t0
        var tries: [Int64] = []
        while now < t0 + 300 * probe {
            let made = rig.made.count
            if let f = expectFrame(try hp.nextFrame(now: now)) { hp.recycle(bufferIndex: f.bufferIndex) }
            if rig.made.count > made { tries.append(Int64(now.nanoseconds - t0.nanoseconds) / 1_000_000_000) }
            now = now + ms(500)
        }
        // Each wait is the backoff, give or take the 2 s between looks.
        let gaps = zip(tries.dropFirst(), tries).map { $0 - $1 }
        let waits: [Int64] = [2, 4, 8, 16, 32] + Array(repeating: 64, count: max(0, gaps.count - 5))
        #expect(gaps.count >= 8 && zip(gaps, waits).allSatisfy { $0 >= $1 && $0 <= $1 + 2 }, "\(tries)")
        let before = rig.made.count
        rig.nodes = []
        for _ in 0..<3 {
            now = now + probe
            _ = try hp.nextFrame(now: now)
        }
        rig.nodes = ["/dev/video2"]
        now = now + probe
        _ = try hp.nextFrame(now: now)
        #expect(rig.made.count == before + 1, "replugged: tried at once")
    }

    /// Regression: the pump's governor keeps its level across the switch; a camera that started
    /// unthrottled would then be throttled by the governor's step *down* (level 2 → 1) with no pressure.
    @Test func theNewCameraTakesOverTheThrottleLevel() throws {
        let rig = Rig()
        let hp = rig.source
        try hp.start()
        hp.apply(SourceControls(throttle: 2))
        #expect(rig.placeholder.throttle == 2)
        rig.found = "/dev/video0"
        _ = try hp.nextFrame(now: t0)
        let camera = try #require(rig.made.first?.camera)
        #expect(camera.throttle == 2)
    }
}
