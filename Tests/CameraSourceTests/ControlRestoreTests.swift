import Testing
import TestSupport
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// Remembered controls come back at every open of a camera, before it streams: at start, after
/// an unplug, after an idle release. What cannot be restored is told once per camera and control.
@Suite struct ControlRestoreTests {
    /// The fake webcam has no links: it is known by card and bus.
    private let identity = CameraIdentity(key: "Integrated_Camera@usb-0000_00_14.0-8")!
    private let noLinks = (byID: "/nonexistent/by-id", byPath: "/nonexistent/by-path")
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    /// Lines reported by a restorer.
    final class Reports: Sendable {
        private let lines = Locked([String]())
        var all: [String] { lines.withLock { $0 } }
        func add(_ line: String) { lines.withLock { $0.append(line) } }
    }

    /// A memory holding `settings` for the fake webcam, a restorer over it and what it reports.
    private func restorer(_ settings: [ControlSetting], file: String? = nil) throws -> (ControlRestorer, Reports, CameraMemory) {
        let memory = CameraMemory(directory: try Scratch.makeDirectory("state") + "/cameras")
        memory.save(RememberedCamera(controls: settings), for: identity)
        if let file {
            mkdir(memory.directory, 0o700)
            let fd = open(memory.path(for: identity), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            _ = write(fd, file, file.utf8.count)
            close(fd)
        }
        let reports = Reports()
        return (ControlRestorer(memory: memory, linkDirectories: noLinks, report: reports.add), reports, memory)
    }

    private let brightness = ControlSetting(id: 0x0098_0900, name: "brightness", value: 20)
    private let autoExposureManual = ControlSetting(id: 0x009a_0901, name: "auto_exposure", value: 1)
    private let exposure = ControlSetting(id: 0x009a_0902, name: "exposure_time_absolute", value: 100)

    private func webcam() -> FakeV4L2Device {
        let device = FakeCameras.uvcWebcam()
        device.controls = FakeCameras.uvcControls()
        device.dequeueScript = (0..<8).map { .frame(sequence: $0) }
        return device
    }

    private func camera(_ device: FakeV4L2Device, _ restorer: ControlRestorer?) -> V4L2Camera {
        V4L2Camera(path: "/nonexistent/video0", request: SourceRequest(), controls: restorer, openDevice: device.opener)
    }

    @Test func rememberedControlsAreSetAfterTheFormatAndBeforeStreaming() throws {
        let (restorer, reports, _) = try restorer([exposure, brightness, autoExposureManual])
        let device = webcam()
        try camera(device, restorer).start()
        let afterFormat = try #require(device.log.firstIndex(of: "G_FMT"))
        #expect(Array(device.log[(afterFormat + 1)...].prefix(5)) == [
            "QUERYCTRL", "S_CTRL auto_exposure=1", "S_CTRL brightness=20", "S_CTRL exposure_time_absolute=100", "REQBUFS 4",
        ])
        #expect(device.controls[0x0098_0900]?.value == 20 && device.controls[0x009a_0902]?.value == 100)
        #expect(reports.all == [])
    }

    @Test func nothingRememberedAsksTheCameraNothing() throws {
        let (restorer, reports, _) = try restorer([])
        let plain = webcam(), restored = webcam()
        try camera(plain, nil).start()
        try camera(restored, restorer).start()
        #expect(restored.log == plain.log.map { $0 == "open /dev/video0" ? "open /nonexistent/video0" : $0 })
        #expect(!restored.log.contains("QUERYCTRL"))
        #expect(reports.all == [])
    }

    @Test func valuesTheCameraHasAlreadyAreNotWrittenAgain() throws {
        let (restorer, _, _) = try restorer([brightness, autoExposureManual, exposure])
        let device = webcam()
        let cam = camera(device, restorer)
        try cam.start()
        cam.stop()
        let mark = device.log.count
        try cam.start()
        let again = Array(device.log[mark...])
        #expect(again.contains("QUERYCTRL"))
        #expect(again.filter { $0.hasPrefix("S_CTRL") } == [])
    }

    @Test func whatCannotBeRestoredIsReportedOncePerControl() throws {
        let focus = ControlSetting(id: 0x009a_090a, name: "focus_absolute", value: 30)
        let contrast = ControlSetting(id: 0x0098_0901, name: "contrast", value: 40)
        let tooBright = ControlSetting(id: 0x0098_0900, name: "brightness", value: 500)
        let (restorer, reports, _) = try restorer([focus, contrast, tooBright, exposure])
        let device = webcam()
        device.controls[0x0098_0901]!.flags = .grabbed  // refuses the set with EBUSY
        let cam = camera(device, restorer)
        for _ in 0..<3 {
            try cam.start()
            cam.stop()
        }
        let camera = "pipcam: camera Integrated_Camera@usb-0000_00_14.0-8"
        #expect(reports.all == [
            "\(camera): remembered brightness=500 not restored: brightness is from -64 to 64 (got 500)",
            "\(camera): remembered focus_absolute=30 not restored: the camera has no such control",
            "\(camera): remembered contrast=40 not restored: VIDIOC_S_CTRL: device or resource busy",
        ])
        // Never fatal: the rest was set, and it streamed each time.
        #expect(device.controls[0x009a_0902]?.value == 100 && device.controls[0x009a_0901]?.value == 1)
        #expect(device.log.filter { $0 == "STREAMON" }.count == 3)
        #expect(device.log.filter { $0 == "S_CTRL contrast=40" }.count == 3, "tried at each open, told once")
    }

    @Test func aCameraWhoseControlsCannotBeReadStillStreamsAndItIsToldOnce() throws {
        let (restorer, reports, _) = try restorer([brightness])
        let device = webcam()
        device.fail("QUERYCTRL", EIO, times: 2)
        let cam = camera(device, restorer)
        try cam.start()
        cam.stop()
        try cam.start()
        #expect(reports.all == [
            "pipcam: camera Integrated_Camera@usb-0000_00_14.0-8: its remembered controls are not restored (VIDIOC_QUERYCTRL: input/output error)",
        ])
        #expect(device.log.filter { $0 == "STREAMON" }.count == 2)
    }

    @Test func aDamagedMemoryIsWarnedOfOnceAndItsGoodLinesApplied() throws {
        let (restorer, reports, memory) = try restorer([], file: "control 0x00980900 brightness 20\nnonsense\n")
        let device = webcam()
        let cam = camera(device, restorer)
        try cam.start()
        cam.stop()
        try cam.start()
        #expect(reports.all == ["pipcam: \(memory.path(for: identity)) line 2 is not understood and ignored"])
        #expect(device.controls[0x0098_0900]?.value == 20)
    }

    /// Every open gets a fresh webcam at its defaults, as a replugged camera is.
    final class Shop {
        private(set) var devices: [FakeV4L2Device] = []
        var openErrno: Int32?
        let restorer: ControlRestorer
        init(restorer: ControlRestorer) { self.restorer = restorer }

        func resilient() -> ResilientCamera {
            ResilientCamera(path: "/nonexistent/video0", request: SourceRequest()) { path, request in
                V4L2Camera(path: path, request: request, controls: self.restorer) { _ throws(V4L2Error) in try self.open() }
            }
        }

        private func open() throws(V4L2Error) -> any V4L2Device {
            if let code = openErrno { throw V4L2Error(call: "open", errno: code) }
            let device = FakeCameras.uvcWebcam()
            device.controls = FakeCameras.uvcControls()
            device.dequeueScript = (0..<8).map { .frame(sequence: $0) }
            devices.append(device)
            return device
        }
    }

    private func restoredBeforeStreaming(_ device: FakeV4L2Device) -> Bool {
        guard let set = device.log.firstIndex(of: "S_CTRL brightness=20"), let on = device.log.firstIndex(of: "STREAMON") else { return false }
        return set < on && device.controls[0x0098_0900]?.value == 20
    }

    @Test func aRepluggedCameraGetsItsControlsBack() throws {
        let (restorer, reports, _) = try restorer([brightness])
        let shop = Shop(restorer: restorer)
        let cam = shop.resilient()
        try cam.start(now: t0)
        let first = try #require(shop.devices.last)
        #expect(restoredBeforeStreaming(first))
        let frame = try #require(expectFrame(try cam.nextFrame(now: t0)))
        cam.recycle(bufferIndex: frame.bufferIndex)

        first.dequeueScript = [.fail(.noDevice)]
        shop.openErrno = ENOENT
        #expect(try cam.nextFrame(now: t0).waitDeadline == .some(t0 + ms(250)))
        #expect(cam.cameraState == .interrupted(.disconnected))
        shop.openErrno = nil
        #expect(try cam.nextFrame(now: t0 + ms(250)).waitDeadline == .some(nil))
        #expect(cam.cameraState == .streaming && shop.devices.count == 2)
        let second = try #require(shop.devices.last)
        #expect(second !== first && restoredBeforeStreaming(second))
        #expect(expectFrame(try cam.nextFrame(now: t0 + ms(250))) != nil)
        #expect(reports.all == [])
    }

    @Test func aCameraBackFromIdleGetsItsControlsBack() throws {
        let (restorer, _, _) = try restorer([brightness])
        let shop = Shop(restorer: restorer)
        let cam = shop.resilient()
        try cam.start(now: t0)
        cam.apply(SourceControls(idle: true))
        _ = try cam.nextFrame(now: t0)
        #expect(shop.devices.count == 1 && shop.devices[0].isClosed)
        cam.apply(SourceControls(idle: false))
        _ = try cam.nextFrame(now: t0 + ms(1000))
        #expect(shop.devices.count == 2)
        #expect(restoredBeforeStreaming(shop.devices[1]))
    }

    /// `pipcam set` while the camera streams: the writes go through a handle on the device, the
    /// stream goes on untouched, and the memory keeps the change.
    @Test func settingWhileStreamingLeavesTheStreamAlone() throws {
        let (_, _, memory) = try restorer([])
        let device = webcam()
        let cam = camera(device, nil)
        try cam.start()
        let frame = try #require(expectFrame(try cam.nextFrame(now: t0)))
        cam.recycle(bufferIndex: frame.bufferIndex)
        let mark = device.log.count

        let access: any CameraControlAccess = device
        let controls = try access.queryControls()
        let plan = ControlPlan.setting([try ControlArgument.parse("exposure_time_absolute=100", controls: controls)], on: controls)
        #expect(plan.apply(to: access).isEmpty)
        memory.remember(plan.writes, controls: controls, for: identity)

        #expect(expectFrame(try cam.nextFrame(now: t0)) != nil)
        #expect(Array(device.log[mark...]) == ["QUERYCTRL", "S_CTRL auto_exposure=1", "S_CTRL exposure_time_absolute=100", "DQBUF"])
        #expect(memory.load(identity).camera.controls == [autoExposureManual, exposure])
    }
}

/// The fake's controls, which the tests above rely on behaving as a driver's.
@Suite struct FakeControlDeviceTests {
    @Test func enumerationIsInIDOrderWithMenusFlagsAndValues() throws {
        let device = FakeV4L2Device()
        device.controls = FakeCameras.uvcControls()
        let controls = try device.queryControls()
        #expect(controls.map(\.name) == [
            "brightness", "contrast", "white_balance_automatic", "power_line_frequency", "white_balance_temperature", "button",
            "read_only_integer_32_bits", "auto_exposure", "exposure_time_absolute", "pan_absolute",
        ])
        let exposureMode = try #require(controls.first { $0.name == "auto_exposure" })
        #expect(exposureMode.kind == .menu && exposureMode.menu.map(\.index) == [1, 3] && exposureMode.value == 3)
        #expect(controls.filter { $0.flags.contains(.inactive) }.map(\.name) == ["white_balance_temperature", "exposure_time_absolute"])
        #expect(controls.filter { $0.flags.contains(.disabled) }.map(\.name) == ["pan_absolute"])
        #expect(controls.filter { !$0.isWritable }.map(\.name) == ["read_only_integer_32_bits", "pan_absolute"])
        #expect(controls.filter { !$0.hasValue }.map(\.name) == ["button"])
    }

    @Test func setsChangeValuesAndRefuseAsADriverDoes() throws {
        let device = FakeV4L2Device()
        device.controls = FakeCameras.uvcControls()
        try device.setControl(0x0098_0900, to: -10)
        #expect(try device.controlValue(0x0098_0900) == -10)
        #expect(throws: V4L2Error(call: "VIDIOC_S_CTRL", errno: EINVAL)) { try device.setControl(0x0098_0900, to: 65) }
        #expect(throws: V4L2Error(call: "VIDIOC_S_CTRL", errno: EINVAL)) { try device.setControl(0x009a_0908, to: 0) }
        #expect(throws: V4L2Error(call: "VIDIOC_S_CTRL", errno: EACCES)) { try device.setControl(0x0098_0f01, to: 1) }
        #expect(throws: V4L2Error(call: "VIDIOC_S_CTRL", errno: EINVAL)) { try device.setControl(0x1234, to: 1) }
        #expect(throws: V4L2Error(call: "VIDIOC_G_CTRL", errno: EACCES)) { _ = try device.controlValue(0x0098_0f00) }
        device.fail("S_CTRL", EIO)
        #expect(throws: V4L2Error(call: "VIDIOC_S_CTRL", errno: EIO)) { try device.setControl(0x0098_0901, to: 1) }
        #expect(device.log == [
            "S_CTRL brightness=-10", "G_CTRL brightness", "S_CTRL brightness=65", "S_CTRL pan_absolute=0",
            "S_CTRL read_only_integer_32_bits=1", "S_CTRL 0x00001234=1", "G_CTRL button", "S_CTRL contrast=1",
        ])
        #expect(device.controls[0x0098_0901]?.value == 32)
    }
}

/// The real control handle on nodes every machine has (there is no camera here).
@Suite struct LibV4L2ControlsTests {
    @Test func openingAMissingNodeFailsWithENOENT() {
        #expect(throws: V4L2Error(call: "open", errno: ENOENT)) { _ = try LibV4L2Controls.open(path: "/dev/pipcam-no-such-video-node") }
    }

    @Test func aNonV4L2NodeIsRefusedAtOpen() {
        #expect(throws: V4L2Error(call: "open", errno: ENOTTY)) { _ = try LibV4L2Controls.open(path: "/dev/null") }
    }
}
