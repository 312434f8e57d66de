import Testing
@testable import CameraSource

/// `pipcam switch next`: the camera after the one shown, round to the first.
@Suite struct CameraCycleTests {
    private let cameras = ["/dev/video0", "/dev/video2", "/dev/video4"]

    @Test func takesTheCameraAfterTheOneShownAndWrapsRound() {
        #expect(CameraCycle.next(after: "/dev/video0", among: cameras, resolve: { $0 }) == "/dev/video2")
        #expect(CameraCycle.next(after: "/dev/video2", among: cameras, resolve: { $0 }) == "/dev/video4")
        #expect(CameraCycle.next(after: "/dev/video4", among: cameras, resolve: { $0 }) == "/dev/video0")
    }

    @Test func fromSomethingElseTakesTheFirstCamera() {
        #expect(CameraCycle.next(after: "test", among: cameras, resolve: { $0 }) == "/dev/video0")
        #expect(CameraCycle.next(after: nil, among: cameras, resolve: { $0 }) == "/dev/video0")
        // The camera shown was unplugged: the first of those left.
        #expect(CameraCycle.next(after: "/dev/video6", among: cameras, resolve: { $0 }) == "/dev/video0")
    }

    @Test func withNoOtherCameraThereIsNone() {
        #expect(CameraCycle.next(after: "/dev/video0", among: ["/dev/video0"], resolve: { $0 }) == nil)
        #expect(CameraCycle.next(after: "test", among: [], resolve: { $0 }) == nil)
    }

    @Test func aStableLinkAndItsNodeAreOneCamera() {
        let links = ["/dev/v4l/by-id/usb-cam-video-index0": "/dev/video2"]
        let resolve = { (path: String) in links[path] ?? path }
        #expect(CameraCycle.next(after: "/dev/v4l/by-id/usb-cam-video-index0", among: cameras, resolve: resolve) == "/dev/video4")
        #expect(CameraCycle.next(after: "/dev/video2", among: ["/dev/video2", "/dev/v4l/by-id/usb-cam-video-index0"], resolve: resolve) == nil)
    }
}
