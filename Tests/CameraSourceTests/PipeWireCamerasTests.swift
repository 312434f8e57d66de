import Testing
@testable import CameraSource

/// Which PipeWire nodes are cameras and which one `--source pipewire[:NAME]` means.
@Suite struct PipeWireCamerasTests {
    private let laptop = PipeWireNode(
        id: 40, serial: 91, name: "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0", description: "Integrated Camera", nick: "Integrated C",
        deviceAPI: "v4l2", devicePath: "/dev/video0")
    private let sameByLibcamera = PipeWireNode(
        id: 41, serial: 92, name: "libcamera_input._SB_.PCI0-usb1", description: "Integrated Camera (libcamera)",
        deviceAPI: "libcamera", devicePath: "/dev/video0")
    private let mipi = PipeWireNode(id: 42, serial: 93, name: "libcamera_input.ipu6", description: "Front Camera", deviceAPI: "libcamera")
    private let published = PipeWireNode(id: 50, serial: 120, name: "cam", description: "OBS Virtual Camera")
    private let sink = PipeWireNode(id: 60, serial: 130, name: "screen-share", mediaClass: "Video/Sink")

    private var all: [PipeWireNode] { [laptop, sameByLibcamera, mipi, published, sink] }

    @Test func camerasAreVideoSourcesEachDeviceOnceThroughV4L2() {
        #expect(PipeWireCameras.cameras(among: all).map(\.id) == [40, 42, 50])
        #expect(PipeWireCameras.cameras(among: [sameByLibcamera]).map(\.id) == [41], "libcamera alone is kept")
    }

    @Test func theDaemonsOwnCamerasComeBeforeNodesProgramsPublish() throws {
        #expect(PipeWireCameras.cameras(among: [published, mipi, laptop]).map(\.id) == [42, 40, 50])
        #expect(try PipeWireCameras.choose(nil, among: [published, laptop]) == laptop)
    }

    @Test func theVirtualCameraPipcamFeedsIsNeverUsable() {
        let loopback = PipeWireNode(id: 44, serial: 95, name: "v4l2_input.platform-v4l2loopback-000", deviceAPI: "v4l2", devicePath: "/dev/video10")
        let resolve = { (path: String) in path == "/dev/v4l/by-id/pipcam" ? "/dev/video10" : path }
        let usable = PipeWireCameras.usable([loopback, laptop, published], excluding: ["/dev/video10"], resolve: resolve)
        #expect(usable.map(\.id) == [40, 50])
        let byLink = PipeWireNode(id: 45, serial: 96, name: "loop", deviceAPI: "v4l2", devicePath: "/dev/v4l/by-id/pipcam")
        #expect(PipeWireCameras.usable([byLink], excluding: ["/dev/video10"], resolve: resolve).isEmpty)
        #expect(PipeWireCameras.usable([loopback], excluding: [], resolve: resolve) == [loopback])
    }

    @Test func noNameIsTheFirstCamera() throws {
        #expect(try PipeWireCameras.choose(nil, among: all) == laptop)
        #expect(throws: SourceError.badInput(thing: "pipewire", reason: "no camera node in PipeWire")) {
            try PipeWireCameras.choose(nil, among: [sink])
        }
    }

    @Test(arguments: [
        ("cam", 50), ("91", 40), ("Front Camera", 42), ("Integrated C", 40), ("/dev/video0", 40), ("front camera", 42),
        ("obs virtual camera", 50),
    ] as [(String, UInt32)])
    func aNameIsMatchedByNodeNameSerialDescriptionNickOrDevice(name: String, id: UInt32) throws {
        #expect(try PipeWireCameras.choose(name, among: all).id == id)
    }

    @Test func aNodeNameWinsOverAnotherNodesDescription() throws {
        let confusing = PipeWireNode(id: 70, serial: 140, name: "other", description: "cam")
        #expect(try PipeWireCameras.choose("cam", among: [confusing, published]).id == 50)
    }

    @Test func anUnknownNameOrANodeThatIsNoCameraIsBadInputNamingTheCameras() {
        #expect(throws: SourceError.badInput(
            thing: "pipewire:nope",
            reason: "no such PipeWire node; camera nodes: v4l2_input.pci-0000_00_14.0-usb-0_1_1.0 (Integrated Camera), libcamera_input.ipu6 (Front Camera), cam (OBS Virtual Camera)")
        ) { try PipeWireCameras.choose("nope", among: all) }
        #expect(throws: SourceError.badInput(thing: "pipewire:screen-share", reason: "is not a camera (media.class Video/Sink)")) {
            try PipeWireCameras.choose("screen-share", among: all)
        }
        #expect(throws: SourceError.badInput(thing: "pipewire:x", reason: "no such PipeWire node; there is no camera node")) {
            try PipeWireCameras.choose("x", among: [sink])
        }
    }

    /// The mode asked for first covers the size the frames are shown at, JPEG first past 640 wide.
    @Test func theStreamAsksForTheSmallestCommonModeCoveringTheWindow() {
        let small = PipeWireCameras.streamRequest(target: "cam", for: SourceRequest(displayWidth: 480, displayHeight: 270))
        #expect(small.target == "cam" && small.width == 640 && small.height == 360 && small.frameRate == 30)
        #expect(small.formats.first == .yuyv && small.formats.last == .mjpeg)
        let large = PipeWireCameras.streamRequest(target: "cam", for: SourceRequest(displayWidth: 1000, displayHeight: 700))
        #expect(large.width == 1280 && large.height == 720 && large.formats.first == .mjpeg)
        let square = PipeWireCameras.streamRequest(target: "cam", for: SourceRequest(displayWidth: 800, displayHeight: 600, aspect: 4.0 / 3.0))
        #expect(square.width == 1280 && square.height == 960)
        let huge = PipeWireCameras.streamRequest(target: "cam", for: SourceRequest(displayWidth: 5000, displayHeight: 3000))
        #expect(huge.width == 3840 && huge.height == 2160, "the largest there is")
    }

    @Test func listedAsTheSourceFormWithTheRoute() {
        #expect(PipeWireCameras.listing([laptop, published, PipeWireNode(id: 1, serial: 1, name: "bare")]) == """
            pipewire:v4l2_input.pci-0000_00_14.0-usb-0_1_1.0: Integrated Camera (through PipeWire, /dev/video0)
            pipewire:cam: OBS Virtual Camera (through PipeWire)
            pipewire:bare: (unnamed) (through PipeWire)

            """)
    }

    /// `pipcam switch next`: the camera nodes, then the devices no node stands for.
    @Test func switchNextCyclesThroughNodesThenDevicesTheDaemonDoesNotHave() {
        let cycle = PipeWireCameras.cycle(
            nodes: all, devices: ["/dev/video0", "/dev/video2"], excluding: ["/dev/video9"], resolve: { $0 })
        #expect(cycle == [
            .pipewire(node: "v4l2_input.pci-0000_00_14.0-usb-0_1_1.0"), .pipewire(node: "libcamera_input.ipu6"), .pipewire(node: "cam"),
            .camera(path: "/dev/video2"),
        ])
        let fed = PipeWireNode(id: 80, serial: 180, name: "v4l2_input.loopback", deviceAPI: "v4l2", devicePath: "/dev/video9")
        #expect(PipeWireCameras.cycle(nodes: [fed], devices: [], excluding: ["/dev/video9"], resolve: { $0 }).isEmpty, "the virtual camera pipcam feeds")
        #expect(PipeWireCameras.cycle(nodes: [], devices: ["/dev/video0"], resolve: { $0 }) == [.camera(path: "/dev/video0")], "no daemon: the devices")
        #expect(CameraCycle.next(after: .pipewire(node: "cam"), among: cycle, resolve: { $0 }) == .camera(path: "/dev/video2"))
    }
}
