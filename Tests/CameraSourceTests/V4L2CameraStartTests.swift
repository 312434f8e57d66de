import Testing
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// A camera over `device`, shown at `w`×`h`.
func makeCamera(_ device: FakeV4L2Device, _ w: Int = 480, _ h: Int = 270) -> V4L2Camera {
    V4L2Camera(path: "/dev/video0", request: SourceRequest(displayWidth: w, displayHeight: h), openDevice: device.opener)
}


@Suite struct V4L2CameraStartTests {
    @Test func startRunsTheV4L2SequenceInOrder() throws {
        let dev = FakeCameras.uvcWebcam()
        let cam = makeCamera(dev)
        try cam.start()
        #expect(dev.log == [
            "open /dev/video0", "QUERYCAP", "ENUM_FMT",
            "ENUM_FRAMESIZES YUYV", "ENUM_FRAMEINTERVALS YUYV 320x240", "ENUM_FRAMEINTERVALS YUYV 640x480",
            "ENUM_FRAMEINTERVALS YUYV 1280x720",
            "ENUM_FRAMESIZES MJPG", "ENUM_FRAMEINTERVALS MJPG 640x480", "ENUM_FRAMEINTERVALS MJPG 1280x720",
            "ENUM_FRAMEINTERVALS MJPG 1920x1080",
            "S_FMT YUYV 640x480", "S_PARM 1/30", "G_FMT", "REQBUFS 4",
            "QUERYBUF 0", "QUERYBUF 1", "QUERYBUF 2", "QUERYBUF 3",
            "QBUF 0", "QBUF 1", "QBUF 2", "QBUF 3", "STREAMON",
        ])
        #expect(cam.frameWidth == 640 && cam.frameHeight == 480)
        #expect(cam.frameFormat == .yuyv)
        #expect(cam.frameRate == 30)
        #expect(cam.pollDescriptor == 42)
        #expect(cam.isLive && cam.mirroredByDefault)
        #expect(cam.capabilities?.card == "Integrated Camera")
        cam.stop()
        #expect(Array(dev.log.suffix(6)) == ["STREAMOFF", "MUNMAP 0", "MUNMAP 1", "MUNMAP 2", "MUNMAP 3", "CLOSE"])
        #expect(dev.mapped.isEmpty)
        #expect(cam.pollDescriptor == nil)
    }

    @Test func stopIsIdempotent() throws {
        let dev = FakeCameras.uvcWebcam()
        let cam = makeCamera(dev)
        try cam.start()
        cam.stop()
        cam.stop()
        #expect(dev.log.filter { $0 == "CLOSE" }.count == 1)
        #expect(dev.log.filter { $0 == "STREAMOFF" }.count == 1)
    }

    @Test func frameRateIsWhatTheDriverSet() throws {
        let dev = FakeCameras.uvcWebcam()
        dev.intervalResult = { _ in V4L2Fraction(1001, 30000) }
        let cam = makeCamera(dev)
        try cam.start()
        #expect(abs((cam.frameRate ?? 0) - 29.97) < 0.01)
    }

    @Test func getFormatWinsOverSetFormat() throws {
        let dev = FakeCameras.uvcWebcam()
        // The driver pads rows to 1536 bytes (and says so only in G_FMT).
        dev.formatOverride = V4L2PixFormat(fourcc: .yuyv, width: 640, height: 480, bytesPerLine: 1536, sizeImage: 1536 * 480)
        let cam = makeCamera(dev)
        try cam.start()
        dev.dequeueScript = [.frame(sequence: 0)]
        guard case .frame(let f) = try cam.nextFrame(now: .now()) else { Issue.record("no frame"); return }
        #expect(f.plane0.stride == 1536)
        #expect(f.width == 640 && f.height == 480 && f.format == .yuyv)
        #expect(f.plane0.base == UnsafeRawPointer(dev.mapped[f.bufferIndex]!))
    }

    @Test func getFormatMayChangeFormatAndSize() throws {
        let dev = FakeCameras.stepwise()
        // Another process switched the node to NV12 640x360 with 704-byte rows after our S_FMT.
        dev.formatOverride = V4L2PixFormat(fourcc: .nv12, width: 640, height: 360, bytesPerLine: 704, sizeImage: 704 * 540)
        let cam = makeCamera(dev)
        try cam.start()
        #expect(cam.frameWidth == 640 && cam.frameHeight == 360 && cam.frameFormat == .nv12)
        dev.dequeueScript = [.frame(sequence: 0)]
        guard case .frame(let f) = try cam.nextFrame(now: .now()) else { Issue.record("no frame"); return }
        #expect(f.format == .nv12)
        #expect(f.plane0.stride == 704 && f.plane1?.stride == 704)
        #expect(f.plane1?.base == f.plane0.base + 704 * 360)
        #expect(f.plane2 == nil)
    }

    @Test func paddedI420PlanesFollowBytesPerLine() {
        let layout = V4L2FrameLayout(format: V4L2PixFormat(fourcc: .yu12, width: 640, height: 480, bytesPerLine: 672))!
        #expect(layout.planes.strides == (672, 336, 336))
        #expect(layout.planes.offsets == (0, 672 * 480, 672 * 480 + 336 * 240))
        #expect(layout.minimumBytes == 672 * 480 + 2 * 336 * 240)
        let tight = V4L2FrameLayout(format: V4L2PixFormat(fourcc: .yuyv, width: 640, height: 480, bytesPerLine: 0))!
        #expect(tight.planes.strides.0 == 1280)
    }

    @Test func colorimetryFollowsTheFormat() {
        func c(_ f: FourCC, _ h: Int, _ cs: V4L2Colorspace = .default, _ enc: V4L2YCbCrEncoding = .default,
               _ q: V4L2Quantization = .default) -> Colorimetry {
            V4L2FrameLayout(format: V4L2PixFormat(
                fourcc: f, width: h * 16 / 9, height: h, colorspace: cs, ycbcrEncoding: enc, quantization: q))!.colorimetry
        }
        #expect(c(.mjpeg, 1080) == .jpeg)
        #expect(c(.yuyv, 480) == Colorimetry(matrix: .bt601, range: .limited))
        #expect(c(.yuyv, 720) == Colorimetry(matrix: .bt709, range: .limited))
        #expect(c(.yuyv, 720, .srgb) == Colorimetry(matrix: .bt601, range: .limited))
        #expect(c(.yuyv, 480, .rec709) == Colorimetry(matrix: .bt709, range: .limited))
        #expect(c(.nv12, 480, .rec709, .bt601, .fullRange) == Colorimetry(matrix: .bt601, range: .full))
        #expect(c(.yuyv, 480, .jpeg) == Colorimetry(matrix: .bt601, range: .full))
    }

    @Test func missingNodeIsBadInput() {
        let cam = V4L2Camera(path: "/dev/video7", openDevice: { _ throws(V4L2Error) in
            throw V4L2Error(call: "open", errno: ENOENT)
        })
        let e = sourceError { try cam.start() }
        #expect(e == .badInput(thing: "/dev/video7", reason: "no such device"))
        #expect(e?.exitCode == 2)
        #expect(e?.description == "/dev/video7: no such device")
    }

    /// `--source /dev/shm`: a directory is a bad source (exit 2), not a camera failure (exit 1).
    @Test func aDirectoryIsBadInput() {
        let cam = V4L2Camera(path: "/dev/shm", openDevice: { _ throws(V4L2Error) in
            throw V4L2Error(call: "open", errno: EISDIR)
        })
        let e = sourceError { try cam.start() }
        #expect(e?.exitCode == 2)
        #expect(e?.description == "/dev/shm: not a video capture device (is a directory)")
    }

    @Test func permissionDeniedNamesTheVideoGroup() {
        let cam = V4L2Camera(path: "/dev/video0", openDevice: { _ throws(V4L2Error) in
            throw V4L2Error(call: "open", errno: EACCES)
        })
        #expect(sourceError { try cam.start() }
            == .badInput(thing: "/dev/video0", reason: "permission denied (add yourself to the 'video' group)"))
    }

    @Test func nonCaptureNodeIsBadInput() {
        let dev = FakeCameras.uvcWebcam()
        dev.capabilities.canCapture = false  // a UVC metadata node
        let cam = makeCamera(dev)
        #expect(sourceError { try cam.start() } == .badInput(thing: "/dev/video0", reason: "not a video capture device"))
        #expect(dev.isClosed)
        let notV4L2 = FakeCameras.uvcWebcam()
        notV4L2.fail("QUERYCAP", ENOTTY)
        #expect(sourceError { try makeCamera(notV4L2).start() } == .badInput(thing: "/dev/video0", reason: "not a video capture device"))
    }

    @Test func busyAtSetFormatIsInUse() {
        let dev = FakeCameras.uvcWebcam()
        dev.fail("S_FMT", EBUSY)
        let cam = makeCamera(dev)
        let e = sourceError { try cam.start() }
        #expect(e == .interrupted(thing: "/dev/video0", .inUse))
        #expect(e?.cameraInterruption == .inUse)
        #expect(cam.interruption == .inUse)
        #expect(dev.isClosed && !dev.log.contains("STREAMOFF"))
    }

    @Test func busyAtRequestBuffersIsInUse() {
        let dev = FakeCameras.uvcWebcam()
        dev.fail("REQBUFS", EBUSY)
        let cam = makeCamera(dev)
        #expect(sourceError { try cam.start() }?.cameraInterruption == .inUse)
        #expect(dev.isClosed)
        // The interruption passes: a new start succeeds.
        #expect(throws: Never.self) { try cam.start() }
        #expect(cam.interruption == nil)
    }

    @Test func formatChangedByAnotherProcessIsInUse() {
        // LibV4L2Device reports a driver format changed behind our back as EBUSY from G_FMT.
        let dev = FakeCameras.uvcWebcam()
        dev.fail("G_FMT", EBUSY)
        #expect(sourceError { try makeCamera(dev).start() }?.cameraInterruption == .inUse)
        #expect(!dev.log.contains("REQBUFS 4"))
    }

    @Test func busyAtStreamOnUnmapsEverything() {
        let dev = FakeCameras.uvcWebcam()
        dev.fail("STREAMON", EBUSY)
        #expect(sourceError { try makeCamera(dev).start() }?.cameraInterruption == .inUse)
        #expect(dev.mapped.isEmpty && dev.isClosed)
    }

    /// The bus has no room for raw 640×480 (ENOSPC, or uvcvideo's EIO): the same size in MJPEG
    /// streams instead, on the camera opened again.
    @Test(arguments: [ENOSPC, EIO])
    func aModeTheBusRefusesFallsBackToACheaperOne(code: Int32) throws {
        let dev = FakeCameras.uvcWebcam()
        dev.fail("STREAMON", code)
        let cam = makeCamera(dev)
        try cam.start()
        #expect(dev.log.filter { $0.hasPrefix("S_FMT") || $0.hasPrefix("open") || $0 == "CLOSE" } == [
            "open /dev/video0", "S_FMT YUYV 640x480", "CLOSE", "open /dev/video0", "S_FMT MJPG 640x480",
        ])
        #expect(dev.log.last == "STREAMON")
        #expect(cam.frameFormat == .mjpeg && cam.frameWidth == 640 && cam.frameHeight == 480)
        #expect(cam.modes.count == 6, "every mode stays known (for later mode switches)")
        cam.stop()
        #expect(dev.mapped.isEmpty)
    }

    /// Refused again and again: smaller modes next, at most `bandwidthAttempts` of them, then one
    /// line that names the cause; nothing left mapped or open.
    @Test func aBusWithNoRoomForAnyModeSaysSo() {
        let dev = FakeCameras.uvcWebcam()
        dev.fail("STREAMON", ENOSPC, times: 100)
        let error = sourceError { try makeCamera(dev, 1280, 720).start() }
        #expect(error == .runtime(
            thing: "/dev/video0",
            reason: "not enough USB bandwidth to stream (VIDIOC_STREAMON: no space left on device, 4 modes tried)"))
        #expect(dev.log.filter { $0.hasPrefix("S_FMT") } == [
            "S_FMT MJPG 1280x720", "S_FMT YUYV 640x480", "S_FMT MJPG 640x480", "S_FMT YUYV 320x240",
        ])
        #expect(dev.mapped.isEmpty && dev.isClosed)
    }

    /// A camera not on USB that fails STREAMON with EIO in every mode is not told it lacks USB bandwidth.
    @Test func aRefusalOffUSBNamesTheCallNotTheBus() {
        let dev = FakeCameras.stepwise()
        dev.fail("STREAMON", EIO, times: 100)
        let error = sourceError { try makeCamera(dev, 640, 360).start() }
        #expect(error == .runtime(thing: "/dev/video0", reason: "VIDIOC_STREAMON failed: input/output error"), "\(String(describing: error))")
    }

    /// Off USB, EIO from STREAMON is the driver's own failure, not the bus's: no cheaper mode is
    /// tried in its place (it would stream smaller without a word).
    @Test func anEIOOffUSBIsNotTakenForWantOfBandwidth() {
        let dev = FakeCameras.uvcWebcam()
        dev.capabilities.busInfo = "platform:vivid-000"
        dev.fail("STREAMON", EIO, times: 1)
        let error = sourceError { try makeCamera(dev).start() }
        #expect(error == .runtime(thing: "/dev/video0", reason: "VIDIOC_STREAMON failed: input/output error"), "\(String(describing: error))")
        #expect(dev.log.filter { $0.hasPrefix("STREAMON") }.count == 1, "\(dev.log)")
    }

    @Test func aNodeThatCannotStreamSaysSo() {
        let dev = FakeCameras.uvcWebcam()
        dev.capabilities.canStream = false
        #expect(sourceError { try makeCamera(dev).start() } == .badInput(
            thing: "/dev/video0", reason: "does not support streaming I/O (read() only)"))
    }

    @Test func tooFewBuffersFails() {
        let dev = FakeCameras.uvcWebcam()
        dev.grantedBufferCount = 1
        let e = sourceError { try makeCamera(dev).start() }
        #expect(e == .runtime(thing: "/dev/video0", reason: "driver gave 1 capture buffer, 2 are needed"))
    }

    @Test func refusedFrameRateIsNotFatal() throws {
        let dev = FakeCameras.uvcWebcam()
        dev.fail("S_PARM", EINVAL)
        let cam = makeCamera(dev)
        try cam.start()
        #expect(cam.frameRate == 30)  // the rate of the chosen mode
    }

    @Test func otherFailuresNameTheCall() {
        let dev = FakeCameras.uvcWebcam()
        dev.fail("G_FMT", EINVAL)
        #expect(sourceError { try makeCamera(dev).start() }
            == .runtime(thing: "/dev/video0", reason: "VIDIOC_G_FMT failed: invalid argument"))
    }
}
