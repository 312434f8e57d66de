import CameraSource
import Foundation
import PipCore
import PipWindow
import Testing
import TestSupport
@testable import PipcamApp

/// `pipcam controls|set`, the control keys and the framing kept per camera, on a scripted camera.
@Suite struct CameraDeskTests {
    /// A webcam's controls in memory; `refuse` makes writes fail with EINVAL.
    final class Controls: CameraControlAccess {
        var controls: [UInt32: CameraControl]
        var writes: [String] = []
        var refuse = false
        init() { controls = WebcamControls.uvc() }
        func queryControls() throws(V4L2Error) -> [CameraControl] { controls.values.sorted { $0.id < $1.id } }
        func controlValue(_ id: UInt32) throws(V4L2Error) -> Int64 { controls[id]?.value ?? 0 }
        func setControl(_ id: UInt32, to value: Int64) throws(V4L2Error) {
            if refuse { throw V4L2Error(call: "VIDIOC_S_CTRL", errno: EINVAL) }
            controls[id]?.value = value
            writes.append("\(controls[id]!.name)=\(value)")
        }
    }

    let camera = Controls()
    let directory: String
    let desk: CameraDesk

    init() throws {
        directory = try Scratch.makeDirectory("camera-desk")
        let memory = CameraMemory(directory: directory)
        let camera = self.camera
        desk = CameraDesk(
            restorer: ControlRestorer(memory: memory) { _ in }, openControls: { _ throws(V4L2Error) in camera },
            findPipeWireDevice: { _ in "/dev/video4" }, identify: { CameraIdentity(key: "usb-Acme_Cam_1234-" + $0.suffix(1)) })
    }

    @Test func listsEveryControlWithItsMenu() throws {
        _ = desk.follow(source: .camera(path: "/dev/video0"), named: "/dev/video0")
        guard case .done(let text) = desk.answer(.list) else { throw HarnessError("no listing") }
        #expect(text.contains("brightness 0x00980900 (int) : min=-64 max=64 step=1 default=0 value=0"))
        #expect(text.contains("auto_exposure 0x009a0901 (menu) : min=0 max=3 default=3 value=3 (Aperture Priority Mode)\n    1: Manual Mode\n    3: Aperture Priority Mode"))
        #expect(text.contains("flags=inactive"))
    }

    /// A manual exposure switches auto exposure to manual first, and says so; both are remembered
    /// and reported by `status`, and forgotten again by `--reset`.
    @Test func settingAManualValueTurnsItsAutoModeOffAndIsRemembered() throws {
        _ = desk.follow(source: .camera(path: "/dev/video0"), named: "/dev/video0")
        #expect(desk.answer(.set(["exposure_time_absolute=300", "brightness=20"])) == .done("auto_exposure set to Manual Mode so exposure_time_absolute applies"))
        #expect(camera.writes == ["auto_exposure=1", "exposure_time_absolute=300", "brightness=20"])
        #expect(desk.changed.map { "\($0.name)=\($0.value)" } == ["brightness=20", "auto_exposure=1", "exposure_time_absolute=300"])
        let file = try String(contentsOfFile: directory + "/usb-Acme_Cam_1234-0", encoding: .utf8)
        #expect(file.contains("0x00980900 brightness 20"), "\(file)")
        #expect(desk.answer(.reset("brightness")) == .done(""))
        #expect(desk.changed.map(\.name) == ["auto_exposure", "exposure_time_absolute"])
        #expect(desk.answer(.reset(nil)) == .done(""))
        #expect(desk.changed.isEmpty && camera.controls[0x009a_0901]?.value == 3)
    }

    @Test func badSettingsAndRefusalsAreOneLine() throws {
        _ = desk.follow(source: .camera(path: "/dev/video0"), named: "/dev/video0")
        guard case .failed(let unknown) = desk.answer(.set(["brightnes=3"])) else { throw HarnessError("accepted") }
        #expect(unknown.hasPrefix("pipcam: ") && !unknown.contains("\n") && unknown.contains("brightness"), "\(unknown)")
        guard case .failed(let range) = desk.answer(.set(["brightness=99"])) else { throw HarnessError("accepted") }
        #expect(range.contains("64"), "\(range)")
        camera.refuse = true
        guard case .failed(let refused) = desk.answer(.set(["brightness=5"])) else { throw HarnessError("accepted") }
        #expect(refused.hasPrefix("pipcam: brightness=5: the camera refused it"), "\(refused)")
        #expect(desk.changed.isEmpty, "nothing refused is remembered")
    }

    @Test func aSourceThatIsNoCameraHasNoControls() {
        _ = desk.follow(source: .test, named: "test")
        #expect(desk.answer(.list) == .failed("pipcam: no camera controls: 'test' is not a camera"))
        #expect(desk.step(digit: 2) == "no camera controls")
    }

    /// Keys `1`/`2` step brightness by a twentieth of its range (128 / 20 → 6).
    @Test func keysStepTheControlAndSayTheValue() {
        _ = desk.follow(source: .camera(path: "/dev/video0"), named: "/dev/video0")
        #expect(desk.step(digit: 2) == "brightness 6")
        #expect(desk.step(digit: 2) == "brightness 12")
        #expect(desk.step(digit: 1) == "brightness 6")
        #expect(desk.step(digit: 5) == "no focus control")
        #expect(desk.step(digit: 4) == "exposure_time_absolute 352 (auto off)")
    }

    /// Framing is kept per camera and comes back with it; another camera has its own.
    @Test func framingIsRememberedPerCamera() {
        #expect(desk.follow(source: .camera(path: "/dev/video0"), named: "/dev/video0") == .some(nil))
        desk.remember(framing: Framing(zoom: 2, centreX: 0.3, centreY: 0.6))
        #expect(desk.follow(source: .camera(path: "/dev/video1"), named: "/dev/video1") == .some(nil))
        #expect(desk.follow(source: .camera(path: "/dev/video1"), named: "/dev/video1") == nil, "the same source again: no change")
        #expect(desk.follow(source: .test, named: "test") == .some(nil))
        #expect(desk.follow(source: .camera(path: "/dev/video0"), named: "/dev/video0") == .some(RememberedFraming(zoom: 2, centreX: 0.3, centreY: 0.6)))
        desk.remember(framing: .full)
        _ = desk.follow(source: .test, named: "test")
        #expect(desk.follow(source: .camera(path: "/dev/video0"), named: "/dev/video0") == .some(nil), "the whole picture is nothing to remember")
    }

    /// `--zoom` / `--pan` stand for the first camera and are remembered for it; a camera shown
    /// later brings its own framing, and the first one brings the given framing back.
    @Test func theGivenFramingBecomesTheFirstCamerasOwn() {
        let given = Framing(zoom: 3, centreX: 0.5, centreY: 0.4)
        let camera = self.camera
        let desk = CameraDesk(
            restorer: ControlRestorer(memory: CameraMemory(directory: directory)) { _ in }, openControls: { _ throws(V4L2Error) in camera },
            findPipeWireDevice: { _ in nil }, identify: { CameraIdentity(key: "usb-Acme_Cam_1234-" + $0.suffix(1)) }, framingGiven: true)
        #expect(desk.show(source: .test, named: "test", state: .streaming, showing: given) == nil, "the test pattern is no camera: it keeps the given framing")
        #expect(desk.show(source: .camera(path: "/dev/video0"), named: "/dev/video0", state: .streaming, showing: given) == nil)
        #expect(desk.show(source: .camera(path: "/dev/video1"), named: "/dev/video1", state: .streaming, showing: given) == .full)
        #expect(desk.show(source: .camera(path: "/dev/video0"), named: "/dev/video0", state: .streaming, showing: .full) == given)
        #expect(desk.show(source: .camera(path: "/dev/video0"), named: "/dev/video0", state: .streaming, showing: given) == nil, "the same camera: nothing changes")
    }

    /// A PipeWire camera with a V4L2 node behind it is changed through that node, and the reply says
    /// every reader sees it.
    @Test func aPipeWireCameraIsChangedForEveryReader() {
        _ = desk.follow(source: .pipewire(node: "cam"), named: "pipewire:cam")
        #expect(desk.answer(.set(["brightness=4"])) == .done("the camera changed for every program reading it through PipeWire"))
        #expect(desk.device == "/dev/video4")
    }
}
