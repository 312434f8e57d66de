import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// Hands a `ResilientCamera` a fresh fake webcam on every open, the way a replugged camera is a new
/// device: `prepare` shapes each new device (a failing call, scripted frames), `openErrno` makes the
/// open itself fail (the node is gone). Every attempt is recorded in `openedPaths`.
final class FakeCameraShop {
    /// The path of every open attempt, failed ones included.
    private(set) var openedPaths: [String] = []
    /// Every device handed out, oldest first.
    private(set) var devices: [FakeV4L2Device] = []
    var openErrno: Int32?
    var prepare: (FakeV4L2Device) -> Void = { _ in }

    var opens: Int { openedPaths.count }
    /// The device handed out last.
    var device: FakeV4L2Device { devices.last! }

    func makeCamera(path: String, request: SourceRequest) -> V4L2Camera {
        V4L2Camera(path: path, request: request, openDevice: { path throws(V4L2Error) in try self.open(path) })
    }

    private func open(_ path: String) throws(V4L2Error) -> any V4L2Device {
        openedPaths.append(path)
        if let code = openErrno { throw V4L2Error(call: "open", errno: code) }
        let device = FakeCameras.uvcWebcam()
        prepare(device)
        devices.append(device)
        return device
    }

    /// A resilient camera started at `now` over webcams that each have 8 frames to give.
    static func streamingCamera(at now: MonotonicInstant) throws -> (ResilientCamera, FakeCameraShop) {
        let shop = FakeCameraShop()
        shop.prepare = { dev in dev.dequeueScript = (0..<8).map { .frame(sequence: $0) } }
        let cam = shop.resilient()
        try cam.start(now: now)
        return (cam, shop)
    }

    /// A resilient camera over this shop's devices (not started). The default path exists nowhere,
    /// so no stable link is found and it reopens by the same name.
    func resilient(path: String = "/nonexistent/video0") -> ResilientCamera {
        ResilientCamera(path: path, request: SourceRequest(), makeCamera: makeCamera)
    }
}

/// Instants for injected time.
func ms(_ milliseconds: Int64) -> Int64 { milliseconds * 1_000_000 }

extension MonotonicInstant {
    static func + (a: MonotonicInstant, nanoseconds: Int64) -> MonotonicInstant { a.advanced(byNanoseconds: nanoseconds) }
    static func - (a: MonotonicInstant, nanoseconds: Int64) -> MonotonicInstant { a.advanced(byNanoseconds: -nanoseconds) }
}

/// The frame of a step, recording an issue when it is something else.
func expectFrame(_ step: SourceStep, sourceLocation: SourceLocation = #_sourceLocation) -> VideoFrame? {
    guard case .frame(let f) = step else {
        Issue.record("expected a frame, got \(step)", sourceLocation: sourceLocation)
        return nil
    }
    return f
}

