import Testing
@testable import CameraSource
import PipCore
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Choosing and opening the virtual camera, and the one-line errors of docs/BEHAVIOUR.md
/// ("Sharing the camera").
@Suite struct ShareTargetTests {
    /// Devices by path; a path not listed does not exist. `daemon`: whether PipeWire answers;
    /// the nodes asked for are kept in `published`.
    private func target(
        _ devices: [String: FakeOutputDevice], loaded: Bool = true, daemon: Bool = false, published: Locked<[PipeWireNodeRequest]> = Locked([])
    ) -> ShareTarget {
        ShareTarget(
            nodePaths: { devices.keys.sorted() },
            openOutput: { path throws(V4L2Error) in
                guard let d = devices[path] else { throw V4L2Error(call: "open", errno: ENOENT) }
                return d
            },
            moduleLoaded: { loaded },
            publish: { node throws(SourceError) in
                guard daemon else { throw SourceError.badInput(thing: "pipewire", reason: "no PipeWire daemon answers for this user") }
                published.withLock { $0.append(node) }
                return NodeOutput()
            })
    }

    /// A published node that takes every frame.
    private final class NodeOutput: ShareOutput {
        var frames = 0
        func send(_ bytes: UnsafeRawBufferPointer, capturedAt: MonotonicInstant?) throws -> Bool {
            frames += 1
            return true
        }
        var readers: Int? { 2 }
        func close() {}
    }

    /// `--share pipewire[:NAME]` publishes a node in the stream's format, size and rate.
    @Test func aPipeWireNodeIsPublishedInTheStreamsFormat() throws {
        let published = Locked<[PipeWireNodeRequest]>([])
        let share = try target([:], daemon: true, published: published)
            .open(.pipeWire(name: "work"), format: .yuyv, width: 1280, height: 720, frameRate: 29.97)
        #expect(published.withLock { $0 } == [PipeWireNodeRequest(name: "work", format: .yuyv, width: 1280, height: 720, frameRate: 30)])
        #expect(share.route == .pipeWire(node: "work") && share.device == "pipewire:work" && share.loopbackDevice == nil)
        #expect(share.readers == 2)
    }

    /// `--share` alone: a free loopback first; without one, a PipeWire node named pipcam; with
    /// neither, one line naming both ways.
    @Test func shareAlonePrefersALoopbackThenPipeWire() throws {
        let free = FakeOutputDevice()
        let published = Locked<[PipeWireNodeRequest]>([])
        let loopback = try target(["/dev/video10": free], daemon: true, published: published).open(.any, format: .i420, width: 64, height: 32, frameRate: 30)
        #expect(loopback.route == .loopback(device: "/dev/video10") && published.withLock { $0.isEmpty })
        let node = try target(["/dev/video0": camera()], loaded: false, daemon: true, published: published)
            .open(.any, format: .i420, width: 64, height: 32, frameRate: 30)
        #expect(node.route == .pipeWire(node: "pipcam"))
        let busy = try target(["/dev/video10": written()], daemon: true).open(.any, format: .i420, width: 64, height: 32, frameRate: 30)
        #expect(busy.route == .pipeWire(node: "pipcam"), "every loopback has a writer: PipeWire")
        let neither = error { () throws(SourceError) in try target([:], loaded: false).open(.any, format: .i420, width: 64, height: 32, frameRate: 30) }
        #expect(neither == .badInput(thing: "--share", reason: "no virtual camera: v4l2loopback is not loaded (load it: \(ShareTarget.loadCommand)); and PipeWire: no PipeWire daemon answers for this user"))
        let named = error { () throws(SourceError) in try target([:], daemon: false).open(.pipeWire(name: "pipcam"), format: .i420, width: 64, height: 32, frameRate: 30) }
        #expect(named == .badInput(thing: "pipewire", reason: "no PipeWire daemon answers for this user"))
    }

    private func camera(_ card: String = "Integrated Camera") -> FakeOutputDevice {
        let d = FakeOutputDevice()
        d.capabilities = V4L2Capabilities(driver: "uvcvideo", card: card, busInfo: "usb-1", canCapture: true, canStream: true)
        return d
    }

    private func written() -> FakeOutputDevice {
        let d = FakeOutputDevice()
        d.capabilities.canCapture = true
        d.capabilities.canOutput = false
        return d
    }

    private func error(_ body: () throws(SourceError) -> CameraShare) -> SourceError? {
        do {
            _ = try body()
            return nil
        } catch { return error }
    }

    @Test func theGivenDeviceIsSetToTheStreamsFormat() throws {
        let loop = FakeOutputDevice()
        let share = try target(["/dev/video10": loop]).open(path: "/dev/video10", format: .yuyv, width: 640, height: 360, frameRate: 30)
        #expect(share.device == "/dev/video10")
        #expect(loop.format?.fourcc == .yuyv && loop.format?.width == 640 && loop.format?.height == 360)
        #expect(loop.format?.sizeImage == 640 * 360 * 2)
        #expect(loop.interval == V4L2Fraction(1000, 30_000))
        let i420 = FakeOutputDevice()
        _ = try target(["/dev/video11": i420]).open(path: "/dev/video11", format: .i420, width: 1280, height: 720, frameRate: nil)
        #expect(i420.format?.fourcc == .yu12 && i420.format?.sizeImage == 1280 * 720 * 3 / 2)
        #expect(i420.interval == nil)
    }

    /// Without a device: the first loopback nobody writes, past cameras and busy loopbacks.
    @Test func theFirstFreeLoopbackIsChosen() throws {
        let free = FakeOutputDevice()
        let share = try target(["/dev/video0": camera(), "/dev/video10": written(), "/dev/video11": free])
            .open(path: nil, format: .i420, width: 64, height: 32, frameRate: 30)
        #expect(share.device == "/dev/video11")
        #expect(free.format != nil)
    }

    @Test func noModuleIsBadInputWithTheCommandToLoadIt() {
        let e = error { () throws(SourceError) in
            try target(["/dev/video0": camera()], loaded: false).open(path: nil, format: .i420, width: 64, height: 32, frameRate: 30)
        }
        #expect(e?.exitCode == 2)
        #expect(e?.description.contains("sudo modprobe v4l2loopback exclusive_caps=1 card_label=pipcam") == true)
        let missing = error { () throws(SourceError) in
            try target([:], loaded: false).open(path: "/dev/video10", format: .i420, width: 64, height: 32, frameRate: 30)
        }
        #expect(missing?.exitCode == 2)
        #expect(missing?.description.hasPrefix("/dev/video10: no such device; v4l2loopback is not loaded") == true)
    }

    @Test func aDeviceThatIsNoLoopbackIsBadInput() {
        let cam = camera()
        let e = error { () throws(SourceError) in
            try target(["/dev/video0": cam]).open(path: "/dev/video0", format: .i420, width: 64, height: 32, frameRate: 30)
        }
        #expect(e == .badInput(thing: "/dev/video0", reason: "not a v4l2loopback output device (it is 'Integrated Camera', driver uvcvideo)"))
        #expect(cam.isClosed)
    }

    /// Another program writes it: a runtime failure (exit 1), nothing left open.
    @Test func aWrittenLoopbackIsARuntimeFailure() {
        let busy = written()
        let e = error { () throws(SourceError) in
            try target(["/dev/video10": busy]).open(path: "/dev/video10", format: .i420, width: 64, height: 32, frameRate: 30)
        }
        #expect(e == .runtime(thing: "/dev/video10", reason: "another process already writes to it"))
        #expect(e?.exitCode == 1)
        #expect(busy.isClosed)
        let all = error { () throws(SourceError) in
            try target(["/dev/video10": written()]).open(path: nil, format: .i420, width: 64, height: 32, frameRate: 30)
        }
        #expect(all?.exitCode == 1)
    }

    /// v4l2loopback keeps the format of a stream that still has readers: not ours to change.
    @Test func aLoopbackKeepingAnotherFormatIsARuntimeFailure() {
        let kept = FakeOutputDevice()
        kept.keptFormat = V4L2PixFormat(fourcc: .yuyv, width: 320, height: 240)
        let e = error { () throws(SourceError) in
            try target(["/dev/video10": kept]).open(path: "/dev/video10", format: .i420, width: 64, height: 32, frameRate: 30)
        }
        #expect(e?.exitCode == 1)
        #expect(e?.description.contains("in use at YUYV 320x240") == true)
        #expect(kept.isClosed)
    }

    @Test func readersAreTheOtherProcessesWithTheDeviceOpen() throws {
        // This process's own descriptors do not count; a path that does not resolve is unknown.
        let fd = open("/dev/null", O_RDONLY)
        defer { close(fd) }
        #expect(DeviceOpeners.others(of: "/nonexistent/video10") == nil)
        #expect((DeviceOpeners.others(of: "/dev/null") ?? -1) >= 0)
        let scratch = "/tmp/pipcam-openers-\(getpid())"
        let f = open(scratch, O_CREAT | O_RDWR, 0o600)
        defer { close(f); unlink(scratch) }
        #expect(DeviceOpeners.others(of: scratch) == 0)
    }
}
