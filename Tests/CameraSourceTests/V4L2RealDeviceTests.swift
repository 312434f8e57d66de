import Testing
@testable import CameraSource
#if canImport(Glibc)
import Glibc
#endif

/// The real libv4l2 path on nodes every machine has (there is no camera here): the shim's
/// open wrapper returns the real result and errno, and libv4l2 stays quiet on stderr.
@Suite struct V4L2RealDeviceTests {
    @Test func openingAMissingNodeFailsWithENOENT() {
        #expect(throws: V4L2Error(call: "open", errno: ENOENT)) {
            _ = try LibV4L2Device.open(path: "/dev/pipcam-no-such-video-node")
        }
    }

    @Test func aNonV4L2NodeFailsInOpen() {
        // libv4l2's open runs QUERYCAP itself and closes the descriptor when it fails.
        #expect(throws: V4L2Error(call: "open", errno: ENOTTY)) { _ = try LibV4L2Device.open(path: "/dev/null") }
    }

    @Test func cameraOnNonCameraNodesSaysWhy() {
        #expect(sourceError { try V4L2Camera(path: "/dev/null").start() }
            == .badInput(thing: "/dev/null", reason: "not a video capture device"))
        #expect(sourceError { try V4L2Camera(path: "/dev/video-pipcam-missing").start() }
            == .badInput(thing: "/dev/video-pipcam-missing", reason: "no such device"))
    }

    @Test func discoveryOnThisMachineDoesNotFail() {
        let discovery = CameraDiscovery(nodePaths: { ["/dev/null", "/dev/pipcam-missing"] })
        #expect(discovery.cameras().isEmpty)
        #expect(discovery.firstCaptureCameraPath() == nil)
    }
}
