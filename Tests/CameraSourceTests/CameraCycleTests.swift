import Testing
@testable import CameraSource

/// `pipcam switch next`: the camera after the one shown, round to the first.
@Suite struct CameraCycleTests {
    private let cameras: [SourceSpec] = [.camera(path: "/dev/video0"), .camera(path: "/dev/video2"), .camera(path: "/dev/video4")]

    @Test func takesTheCameraAfterTheOneShownAndWrapsRound() {
        #expect(CameraCycle.next(after: .camera(path: "/dev/video0"), among: cameras, resolve: { $0 }) == .camera(path: "/dev/video2"))
        #expect(CameraCycle.next(after: .camera(path: "/dev/video2"), among: cameras, resolve: { $0 }) == .camera(path: "/dev/video4"))
        #expect(CameraCycle.next(after: .camera(path: "/dev/video4"), among: cameras, resolve: { $0 }) == .camera(path: "/dev/video0"))
    }

    @Test func fromSomethingElseTakesTheFirstCamera() {
        #expect(CameraCycle.next(after: .test, among: cameras, resolve: { $0 }) == .camera(path: "/dev/video0"))
        #expect(CameraCycle.next(after: nil, among: cameras, resolve: { $0 }) == .camera(path: "/dev/video0"))
        // The camera shown was unplugged: the first of those left.
        #expect(CameraCycle.next(after: .camera(path: "/dev/video6"), among: cameras, resolve: { $0 }) == .camera(path: "/dev/video0"))
    }

    @Test func aPipeWireNodeIsACameraOfItsOwn() {
        let mixed: [SourceSpec] = [.pipewire(node: "cam"), .camera(path: "/dev/video2")]
        #expect(CameraCycle.next(after: .pipewire(node: "cam"), among: mixed, resolve: { $0 }) == .camera(path: "/dev/video2"))
        #expect(CameraCycle.next(after: .camera(path: "/dev/video2"), among: mixed, resolve: { $0 }) == .pipewire(node: "cam"))
    }

    @Test func withNoOtherCameraThereIsNone() {
        #expect(CameraCycle.next(after: .camera(path: "/dev/video0"), among: [.camera(path: "/dev/video0")], resolve: { $0 }) == nil)
        #expect(CameraCycle.next(after: .test, among: [], resolve: { $0 }) == nil)
    }

    @Test func aStableLinkAndItsNodeAreOneCamera() {
        let links = ["/dev/v4l/by-id/usb-cam-video-index0": "/dev/video2"]
        let resolve = { (path: String) in links[path] ?? path }
        #expect(CameraCycle.next(after: .camera(path: "/dev/v4l/by-id/usb-cam-video-index0"), among: cameras, resolve: resolve) == .camera(path: "/dev/video4"))
        #expect(CameraCycle.next(after: .camera(path: "/dev/video2"), among: [.camera(path: "/dev/video2"), .camera(path: "/dev/v4l/by-id/usb-cam-video-index0")], resolve: resolve) == nil)
    }
}
