import Testing
@testable import CameraSource
#if canImport(Glibc)
import Glibc
#endif

@Suite struct CameraDiscoveryTests {
    /// video0: UVC webcam, video1: its metadata node, video2: vivid, video3: not allowed to open.
    private func machine() -> (CameraDiscovery, [String: FakeV4L2Device]) {
        let metadata = FakeCameras.uvcWebcam()
        metadata.capabilities.canCapture = false
        let devices = [
            "/dev/video0": FakeCameras.uvcWebcam(), "/dev/video1": metadata, "/dev/video2": FakeCameras.stepwise(),
        ]
        let discovery = CameraDiscovery(
            nodePaths: { ["/dev/video0", "/dev/video1", "/dev/video2", "/dev/video3"] },
            openDevice: { path throws(V4L2Error) in
                guard let d = devices[path] else { throw V4L2Error(call: "open", errno: EACCES) }
                return d
            })
        return (discovery, devices)
    }

    @Test func listsCaptureCamerasWithFormatsSizesAndRates() {
        let (discovery, devices) = machine()
        devices["/dev/video0"]!.formats.append(
            V4L2FormatDescription(fourcc: .rgb24, description: "RGB3", isEmulated: true))
        let cameras = discovery.cameras()
        #expect(cameras.map(\.path) == ["/dev/video0", "/dev/video2"])
        #expect(cameras.first?.card == "Integrated Camera" && cameras.first?.driver == "uvcvideo")
        #expect(cameras.first?.formats.map(\.fourcc) == [.yuyv, .mjpeg, .rgb24])
        #expect(devices.values.allSatisfy { $0.isClosed })
        #expect(CameraDescription.listing(cameras) == """
            /dev/video0: Integrated Camera (uvcvideo)
              YUYV 320x240 @ 30, 15 fps; 640x480 @ 30, 15 fps; 1280x720 @ 10 fps
              MJPG 640x480 @ 30, 15 fps; 1280x720 @ 30, 15 fps; 1920x1080 @ 30, 15 fps
            /dev/video2: vivid (vivid)
              YUYV 16x16 to 1920x1080 step 2x2 @ 60, 50, 30, 25 fps
              NV12 16x16 to 1920x1080 step 2x2 @ 60, 50, 30, 25 fps
              YU12 16x16 to 1920x1080 step 2x2 @ 60, 50, 30, 25 fps
              RGB3 16x16 to 1920x1080 step 2x2 @ 60, 50, 30, 25 fps

            """)
    }

    @Test func firstCaptureCameraSkipsOtherNodes() {
        let (discovery, _) = machine()
        #expect(discovery.firstCaptureCameraPath() == "/dev/video0")
        let noCamera = CameraDiscovery(nodePaths: { ["/dev/video1"] }, openDevice: { _ throws(V4L2Error) in
            let d = FakeCameras.uvcWebcam()
            d.capabilities.canCapture = false
            return d
        })
        #expect(noCamera.firstCaptureCameraPath() == nil)
        #expect(noCamera.cameras().isEmpty)
        #expect(CameraDescription.listing([]) == "no cameras found\n")
    }

    /// An image-processor node (`V4L2_CAP_IO_MC`, e.g. Intel IPU6's raw nodes at /dev/video0…)
    /// streams nothing without a media pipeline: the default camera is the webcam after it.
    @Test func firstCaptureCameraSkipsMediaControlledNodes() {
        let discovery = CameraDiscovery(nodePaths: { ["/dev/video0", "/dev/video2"] }, openDevice: { path throws(V4L2Error) in
            let d = FakeCameras.uvcWebcam()
            d.capabilities.isMediaControlled = path == "/dev/video0"
            return d
        })
        #expect(discovery.firstCaptureCameraPath() == "/dev/video2")
    }

    /// `pipcam switch next` cycles through these: real cameras in node order, then virtual ones;
    /// nodes that cannot stream by themselves and those excluded (the `--share` device) are not.
    @Test func captureCamerasPutVirtualOnesLast() {
        let discovery = CameraDiscovery(nodePaths: { ["/dev/video0", "/dev/video1", "/dev/video2", "/dev/video3", "/dev/video9"] }) {
            path throws(V4L2Error) in
            let d = FakeCameras.uvcWebcam()
            if path == "/dev/video0" || path == "/dev/video9" { d.capabilities.driver = V4L2Capabilities.loopbackDriver }
            d.capabilities.canCapture = path != "/dev/video1"
            return d
        }
        #expect(discovery.captureCameraPaths() == ["/dev/video2", "/dev/video3", "/dev/video0", "/dev/video9"])
        #expect(discovery.captureCameraPaths(excluding: ["/dev/video9", "/dev/video3"]) == ["/dev/video2", "/dev/video0"])
        #expect(discovery.firstCaptureCameraPath() == "/dev/video2")
    }

    @Test func listingMarksEmulatedFormatsAndOddRates() {
        let camera = CameraDescription(path: "/dev/video4", card: "", driver: "bttv", formats: [
            .init(fourcc: .yu12, description: "Planar YUV 4:2:0", isEmulated: true, sizes: [
                .init(size: V4L2Size(720, 576), intervals: .discrete([V4L2Fraction(1001, 30000), V4L2Fraction(2, 15)])),
                .init(size: V4L2Size(352, 288), intervals: .unknown),
            ]),
            .init(fourcc: .yuyv, description: "YUYV", sizes: [
                .init(size: V4L2Size(640, 480), intervals: .stepwise(
                    min: .interval(fps: 60), max: .interval(fps: 1), step: V4L2Fraction(0, 1))),
            ]),
        ])
        #expect(camera.listing(includeEmulated: true) == """
            /dev/video4: (unnamed) (bttv)
              YU12 (emulated) 720x576 @ 29.97, 7.5 fps; 352x288
              YUYV 640x480 @ 1-60 fps

            """)
        #expect(camera.listing() == """
            /dev/video4: (unnamed) (bttv)
              YUYV 640x480 @ 1-60 fps

            """)
        let onlyEmulated = CameraDescription(path: "/dev/video5", card: "cam", driver: "x", formats: [camera.formats[0]])
        #expect(onlyEmulated.listing().contains("YU12 (emulated) 720x576"))
    }

    @Test func videoNodesSortNumerically() {
        let names = ["video10", "video2", "null", "video0", "videofoo", "video", "v4l", "video1"]
        #expect(CameraDiscovery.videoNodePaths(names: names)
            == ["/dev/video0", "/dev/video1", "/dev/video2", "/dev/video10"])
        #expect(CameraDiscovery.videoNodePaths().allSatisfy { $0.hasPrefix("/dev/video") })
    }

    @Test func fourCCNames() {
        #expect(FourCC.mjpeg.description == "MJPG")
        #expect(FourCC("Y10 ").description == "Y10")
        #expect(FourCC.yu12.pixelFormat == .i420 && FourCC.jpeg.pixelFormat == .mjpeg)
        #expect(FourCC("H264").pixelFormat == nil)
    }
}
