import Testing
@testable import CameraSource
import PipCore

/// A PipeWire camera against a scripted daemon: start-up, frames copied out and the daemon's
/// buffers given back at once, the node going and coming back, the daemon going, idle.
@Suite struct PipeWireCameraTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)
    private let cam = PipeWireNode(id: 40, serial: 91, name: "cam", description: "Test Camera")
    private let yuyv = PipeWireStreamFormat(pixelFormat: .yuyv, width: 4, height: 2, frameRate: 30)
    private let request = SourceRequest(displayWidth: 480, displayHeight: 270)

    /// Connections handed out in turn, counted.
    private final class Daemon: @unchecked Sendable {
        var next: [FakePipeWire]
        var connects = 0
        init(_ next: [FakePipeWire]) { self.next = next }
        var connector: PipeWireConnector {
            { [self] () throws(SourceError) -> PipeWireConnection in
                connects += 1
                guard !next.isEmpty else { throw SourceError.badInput(thing: "pipewire", reason: "no PipeWire daemon answers for this user") }
                return next.removeFirst()
            }
        }
    }

    private func started(_ fake: FakePipeWire, node: String? = "cam") throws -> (PipeWireCamera, Daemon) {
        let daemon = Daemon([fake])
        let camera = PipeWireCamera(node: node, request: request, connect: daemon.connector)
        try camera.start()
        return (camera, daemon)
    }

    @Test func startPicksTheNodeAgreesOnAFormatPausedAndHandsTheConnectionOver() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        #expect(fake.opened == [PipeWireCameras.streamRequest(target: "cam", for: request)])
        #expect(fake.log == ["open cam", "paused", "release"] && fake.active == false, "paused until the capture thread takes it")
        #expect(camera.name == "pipewire:cam" && camera.isLive && camera.mirroredByDefault)
        #expect(camera.frameWidth == 4 && camera.frameHeight == 2 && camera.frameFormat == .yuyv && camera.frameRate == 30)
        #expect(camera.cameraState == .streaming)
        #expect(camera.pollDescriptor == fake.pollDescriptor)
    }

    @Test func framesAreCopiedOutAndTheDaemonsBufferGoesBackAtOnce() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        #expect(try camera.nextFrame(now: t0).waitDeadline == .some(nil), "nothing filled yet")
        #expect(fake.log.suffix(2) == ["claim", "active"])
        fake.fill(byteCount: 16, value: 0x5A)
        let frame = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(fake.lent.isEmpty, "given back before the frame is shown")
        #expect(frame.format == .yuyv && frame.width == 4 && frame.height == 2 && frame.plane0.stride == 8 && frame.byteCount == 16)
        #expect((0..<16).allSatisfy { frame.plane0.base.load(fromByteOffset: $0, as: UInt8.self) == 0x5A })
        // Three of pipcam's buffers: with all three out, a filled buffer goes back unshown.
        var out = [frame]
        for value in [1, 2] as [UInt8] {
            fake.fill(byteCount: 16, value: value)
            out.append(try #require(expectFrame(try camera.nextFrame(now: t0))))
        }
        #expect(Set(out.map(\.bufferIndex)).count == 3)
        fake.fill(byteCount: 16, value: 3)
        #expect(try camera.nextFrame(now: t0).waitDeadline == .some(nil))
        #expect(fake.lent.isEmpty)
        camera.recycle(bufferIndex: out[1].bufferIndex)
        fake.fill(byteCount: 16, value: 4)
        let again = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(again.bufferIndex == out[1].bufferIndex)
        #expect(again.plane0.base.load(as: UInt8.self) == 4)
    }

    /// What the producer writes in shared memory is its own: a sequence that jumps to the end of
    /// the numbers and wraps, or a stride the buffer cannot hold, is never a trap or a read past it.
    @Test func aHostileProducersNumbersAreTakenSafely() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        _ = try camera.nextFrame(now: t0)
        for producer in [UInt64(1), .max, 3] {
            fake.fill(byteCount: 16, value: 1, sequence: producer)
            let frame = try #require(expectFrame(try camera.nextFrame(now: t0)), "sequence \(producer)")
            camera.recycle(bufferIndex: frame.bufferIndex)
        }
        // 16 bytes with a stride of 1000: two rows need 1008.
        fake.fill(byteCount: 16, value: 2, stride: 1000, sequence: 4)
        #expect(try camera.nextFrame(now: t0).waitDeadline == .some(nil), "not shown")
        fake.fill(byteCount: 16, value: 3, stride: 8, sequence: 5)
        #expect(try expectFrame(try camera.nextFrame(now: t0)) != nil, "the next whole frame shows")
    }

    /// A camera whose daemon hands out shared memory, its connection taken over by this thread.
    private func lending(_ format: PipeWireStreamFormat? = nil) throws -> (FakePipeWire, PipeWireCamera) {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: format ?? yuyv)
        fake.sharedMemory = true
        let (camera, _) = try started(fake)
        _ = try camera.nextFrame(now: t0)
        return (fake, camera)
    }

    /// Shared memory: frames are shown from the daemon's buffer itself (pipcam's own mapping of
    /// it), which goes back once the display is done; two at most, a third is copied.
    @Test func framesInSharedMemoryAreShownFromTheDaemonsBufferUntilTheDisplayIsDone() throws {
        let (fake, camera) = try lending()
        fake.fill(byteCount: 16, value: 1)
        let first = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(first.bufferIndex >= PipeWireCamera.lentBase && fake.lent.count == 1 && fake.kept.values.sorted() == [1])
        #expect(fake.lent.contains(UnsafeMutableRawPointer(mutating: first.plane0.base)), "the daemon's memory, not a copy")
        fake.fill(byteCount: 16, value: 2)
        let second = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(second.bufferIndex >= PipeWireCamera.lentBase && fake.lent.count == 2)
        fake.fill(byteCount: 16, value: 3)
        let third = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(third.bufferIndex < PipeWireCamera.lentBase && fake.lent.count == 2, "copied: its buffer went back at once")
        #expect(third.plane0.base.load(as: UInt8.self) == 3)
        camera.recycle(bufferIndex: first.bufferIndex)
        #expect(fake.lent.count == 1 && fake.kept.count == 1, "given back and its mapping dropped once the display is done")
        fake.fill(byteCount: 16, value: 4)
        let fourth = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(fourth.bufferIndex == first.bufferIndex && fourth.plane0.base.load(as: UInt8.self) == 4)
    }

    /// A producer that writes into a buffer pipcam still shows: its frames are copied from then
    /// on, and the buffer handed out twice goes back once.
    @Test func aProducerThatWritesIntoALentBufferGetsItsFramesCopied() throws {
        let (fake, camera) = try lending()
        fake.fill(byteCount: 16, value: 1)
        let shown = try #require(expectFrame(try camera.nextFrame(now: t0)))
        let handle = UnsafeMutableRawPointer(mutating: shown.plane0.base)
        fake.refill(handle, value: 9, byteCount: 16)
        let again = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(again.bufferIndex < PipeWireCamera.lentBase && again.plane0.base.load(as: UInt8.self) == 9)
        #expect(fake.lent == [handle], "still lent: not given back while the display has it")
        fake.fill(byteCount: 16, value: 5)
        let later = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(later.bufferIndex < PipeWireCamera.lentBase, "copied from then on")
        camera.recycle(bufferIndex: shown.bufferIndex)
        #expect(fake.lent.isEmpty && fake.kept.isEmpty)
    }

    /// The stream closed while a frame is lent (the node gone): its memory stays pipcam's until the
    /// display is done, and nothing is given back to a stream that is not there.
    @Test func lentMemoryOutlivesItsStream() throws {
        let (fake, camera) = try lending()
        fake.fill(byteCount: 16, value: 1)
        let shown = try #require(expectFrame(try camera.nextFrame(now: t0)))
        fake.events.append(.nodeRemoved(id: cam.id, name: cam.name))
        _ = try camera.nextFrame(now: t0)
        #expect(camera.cameraState == .interrupted(.disconnected) && fake.kept.values.sorted() == [1])
        camera.recycle(bufferIndex: shown.bufferIndex)
        #expect(fake.kept.isEmpty)
    }

    @Test func rgbxInSharedMemoryIsCopiedToBeTurned() throws {
        let (fake, camera) = try lending(PipeWireStreamFormat(pixelFormat: .bgra, width: 2, height: 1, frameRate: 30, redFirst: true))
        fake.fill(bytes: [1, 2, 3, 4, 5, 6, 7, 8])
        let frame = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(frame.bufferIndex < PipeWireCamera.lentBase && fake.lent.isEmpty && fake.kept.isEmpty)
    }

    @Test func sequenceNumbersCountTheFramesTheDaemonSkipped() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        fake.fill(byteCount: 16, value: 1, sequence: 10)
        let a = try #require(expectFrame(try camera.nextFrame(now: t0)))
        camera.recycle(bufferIndex: a.bufferIndex)
        fake.fill(byteCount: 16, value: 1, sequence: 13)
        let b = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(b.sequence == a.sequence + 3, "two frames never reached pipcam")
        camera.recycle(bufferIndex: b.bufferIndex)
        fake.fill(byteCount: 16, value: 1, skipped: 2, sequence: 14)
        let c = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(c.sequence == b.sequence + 3, "two older buffers went back unseen")
    }

    @Test func aShortOrDamagedBufferIsNotShown() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        fake.fill(byteCount: 15, value: 1)
        #expect(try camera.nextFrame(now: t0).waitDeadline == .some(nil))
        #expect(fake.lent.isEmpty)
    }

    /// Another program changed the camera's mode: frames come at the new size.
    @Test func aFormatChangeMidStreamIsFollowed() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        fake.change(to: PipeWireStreamFormat(pixelFormat: .nv12, width: 8, height: 4, frameRate: 15))
        fake.fill(byteCount: 48, value: 9)
        let frame = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(frame.format == .nv12 && frame.width == 8 && frame.height == 4 && frame.plane1 != nil)
        #expect(camera.frameFormat == .nv12 && camera.frameRate == 15)
    }

    @Test func rgbxFramesAreShownAsBGRxTurnedAsTheyAreCopied() throws {
        let rgbx = PipeWireStreamFormat(pixelFormat: .bgra, width: 2, height: 1, frameRate: 30, redFirst: true)
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: rgbx)
        let (camera, _) = try started(fake)
        #expect(camera.frameFormat == .bgra)
        fake.fill(bytes: [0x10, 0x20, 0x30, 0xFF, 0x01, 0x02, 0x03, 0x00])
        let frame = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect((0..<8).map { frame.plane0.base.load(fromByteOffset: $0, as: UInt8.self) } == [0x30, 0x20, 0x10, 0xFF, 0x03, 0x02, 0x01, 0x00])
        // BGRx itself is copied as it comes.
        fake.change(to: PipeWireStreamFormat(pixelFormat: .bgra, width: 2, height: 1, frameRate: 30))
        fake.fill(bytes: [0x10, 0x20, 0x30, 0xFF, 0x01, 0x02, 0x03, 0x00])
        camera.recycle(bufferIndex: frame.bufferIndex)
        let plain = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect((0..<8).map { plain.plane0.base.load(fromByteOffset: $0, as: UInt8.self) } == [0x10, 0x20, 0x30, 0xFF, 0x01, 0x02, 0x03, 0x00])
    }

    @Test func theNodeGoingIsADisconnectionUntilANodeOfItsNameComesBack() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        _ = try camera.nextFrame(now: t0)
        fake.nodes = []
        fake.events.append(.nodeRemoved(id: 40, name: "cam"))
        #expect(try camera.nextFrame(now: t0).waitDeadline == .some(nil))
        #expect(camera.cameraState == .interrupted(.disconnected) && fake.log.last == "close")
        // Another node coming is not it.
        fake.nodes = [PipeWireNode(id: 41, serial: 95, name: "other")]
        fake.events.append(.nodeAdded(id: 41))
        _ = try camera.nextFrame(now: t0)
        #expect(fake.opened.count == 1 && camera.cameraState == .interrupted(.disconnected))
        // The camera plugged in again: a new id and serial, the same name.
        fake.nodes.append(PipeWireNode(id: 44, serial: 99, name: "cam"))
        fake.events.append(.nodeAdded(id: 44))
        fake.fill(byteCount: 16, value: 7)
        let frame = try #require(expectFrame(try camera.nextFrame(now: t0)))
        #expect(fake.opened.count == 2 && fake.log.suffix(2) == ["open cam", "active"])
        #expect(camera.cameraState == .streaming && frame.plane0.base.load(as: UInt8.self) == 7)
    }

    @Test func theDaemonGoingIsADisconnectionAndPipcamConnectsAgainAfterAWait() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, daemon) = try started(fake)
        _ = try camera.nextFrame(now: t0)
        fake.alive = false
        #expect(try camera.nextFrame(now: t0).waitDeadline == .some(t0 + ms(1000)))
        #expect(camera.cameraState == .interrupted(.disconnected) && fake.log.last == "disconnect")
        #expect(camera.pollDescriptor == nil, "a timer, no descriptor, until it connects again")
        // Not back yet at 1 s: the next try is 2 s later.
        #expect(try camera.nextFrame(now: t0 + ms(999)).waitDeadline == .some(t0 + ms(1000)))
        #expect(try camera.nextFrame(now: t0 + ms(1000)).waitDeadline == .some(t0 + ms(3000)))
        #expect(daemon.connects == 2)
        // Back: the node is listed, the stream opens, frames come.
        let restarted = FakePipeWire(nodes: [PipeWireNode(id: 33, serial: 40, name: "cam")], formatOnOpen: yuyv)
        daemon.next = [restarted]
        _ = try camera.nextFrame(now: t0 + ms(3000))
        #expect(daemon.connects == 3 && restarted.opened.map(\.target) == ["cam"] && restarted.active == true)
        #expect(!restarted.log.contains("claim"), "connected on this thread: nothing to take over")
        restarted.fill(byteCount: 16, value: 3)
        _ = try #require(expectFrame(try camera.nextFrame(now: t0 + ms(3001))))
        #expect(camera.cameraState == .streaming)
    }

    /// The window resized: the stream asks again for the mode of the new size, only when that is
    /// another mode (the same rung of the ladder asks nothing), and frames flow in the new format.
    @Test func aWindowAtAnotherSizeAsksForTheModeThatSuitsIt() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        camera.apply(SourceControls(displaySize: .init(width: 480, height: 270)))
        camera.apply(SourceControls(displaySize: .init(width: 1280, height: 720)))
        #expect(fake.opened.count == 1, "before the capture thread took the connection over: remembered only")
        _ = try camera.nextFrame(now: t0)
        #expect(fake.opened.map(\.width) == [640, 1280], "asked again once the capture thread has the connection")
        camera.apply(SourceControls(displaySize: .init(width: 1200, height: 700)))
        #expect(fake.opened.count == 2, "the same rung of modes: not asked again")
        let big = PipeWireStreamFormat(pixelFormat: .mjpeg, width: 1920, height: 1080, frameRate: 30)
        fake.formatOnOpen = big
        camera.apply(SourceControls(displaySize: .init(width: 1600, height: 900)))
        #expect(fake.opened.map(\.width) == [640, 1280, 1920] && fake.opened.last?.formats.first == .mjpeg)
        #expect(fake.active == true && camera.cameraState == .streaming)
        _ = try camera.nextFrame(now: t0)
        #expect(camera.frameWidth == 1920 && camera.frameFormat == .mjpeg)
    }

    @Test func idlePausesTheStreamAndResumesIt() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        _ = try camera.nextFrame(now: t0)
        camera.apply(SourceControls(idle: true))
        #expect(fake.active == false && camera.cameraState == .interrupted(.idle))
        fake.fill(byteCount: 16, value: 1)
        #expect(try camera.nextFrame(now: t0).waitDeadline == .some(nil), "no frame while idle")
        camera.apply(SourceControls(idle: false))
        #expect(fake.active == true && camera.cameraState == .streaming)
    }

    @Test func idleBeforeTheCaptureThreadTookOverStartsPaused() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        camera.apply(SourceControls(idle: true))
        #expect(fake.log.last == "release")
        _ = try camera.nextFrame(now: t0)
        #expect(fake.log.suffix(2) == ["claim", "paused"])
    }

    @Test func aThrottledCameraKeepsOneFrameInTwoToTheN() throws {
        let fake = FakePipeWire(nodes: [cam], formatOnOpen: yuyv)
        let (camera, _) = try started(fake)
        camera.apply(SourceControls(throttle: 1))
        var shown = 0
        for _ in 0..<8 {
            fake.fill(byteCount: 16, value: 1)
            if case .frame(let frame) = try camera.nextFrame(now: t0) {
                shown += 1
                camera.recycle(bufferIndex: frame.bufferIndex)
            }
        }
        #expect(shown == 4)
    }

    @Test func startFailuresAreOneClearLine() throws {
        #expect(throws: SourceError.badInput(thing: "pipewire", reason: "no PipeWire daemon answers for this user")) {
            try PipeWireCamera(node: nil, request: request, connect: Daemon([]).connector).start()
        }
        let noCamera = FakePipeWire(nodes: [PipeWireNode(id: 9, serial: 9, name: "sink", mediaClass: "Video/Sink")])
        #expect(throws: SourceError.badInput(thing: "pipewire", reason: "no camera node in PipeWire")) { try started(noCamera, node: nil) }
        #expect(noCamera.log == ["disconnect"] || noCamera.log == ["close", "disconnect"])
        let noFormat = FakePipeWire(nodes: [cam])
        noFormat.events.append(.linkFailed(message: "no more input formats"))
        #expect(throws: SourceError.badInput(thing: "pipewire:cam", reason: "offers no format pipcam can show (no more input formats)")) {
            try started(noFormat)
        }
        // The link's error and the stream's end race: either order is the same line.
        let endedFirst = FakePipeWire(nodes: [cam])
        endedFirst.events += [.streamState(.unconnected, message: ""), .linkFailed(message: "no more input formats")]
        #expect(throws: SourceError.badInput(thing: "pipewire:cam", reason: "offers no format pipcam can show (no more input formats)")) {
            try started(endedFirst)
        }
        let errorLost = FakePipeWire(nodes: [cam])
        errorLost.events.append(.streamState(.unconnected, message: ""))
        #expect(throws: SourceError.badInput(thing: "pipewire:cam", reason: "offers no format pipcam can show (its stream ended before a format was agreed)")) {
            try started(errorLost)
        }
        // The node removed as the stream ends: the camera went.
        let gone = FakePipeWire(nodes: [cam])
        gone.events += [.streamState(.unconnected, message: ""), .nodeRemoved(id: cam.id, name: cam.name)]
        #expect(throws: SourceError.interrupted(thing: "pipewire:cam", .disconnected)) { try started(gone) }
    }
}
