import Foundation
import Testing
import TestSupport
@testable import CameraSource
#if canImport(Glibc)
import Glibc
#endif

/// One small text file per camera: written whole or not at all, read as far as it can be, one
/// warning naming a damaged file.
@Suite struct CameraMemoryTests {
    private let identity = CameraIdentity(key: "usb-Logitech_C920_ABCD1234-video-index0")!
    private let brightness = ControlSetting(id: 0x0098_0900, name: "brightness", value: 20)
    private let exposure = ControlSetting(id: 0x009a_0902, name: "exposure_time_absolute", value: 100)

    private func memory() throws -> CameraMemory { CameraMemory(directory: try Scratch.makeDirectory("state") + "/pipcam/cameras") }

    private func write(_ text: String, _ memory: CameraMemory) throws {
        try FileManager.default.createDirectory(atPath: memory.directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: memory.path(for: identity)))
    }

    private func file(_ memory: CameraMemory) -> String? {
        FileManager.default.contents(atPath: memory.path(for: identity)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func theDirectoryFollowsXDGStateHome() {
        #expect(CameraMemory.directory { ["XDG_STATE_HOME": "/s", "HOME": "/h"][$0] } == "/s/pipcam/cameras")
        #expect(CameraMemory.directory { ["XDG_STATE_HOME": "relative", "HOME": "/h"][$0] } == "/h/.local/state/pipcam/cameras")
        #expect(CameraMemory.directory { ["HOME": "/h"][$0] } == "/h/.local/state/pipcam/cameras")
        #expect(CameraMemory.directory { _ in nil } == nil)
    }

    @Test func whatIsSavedIsLoadedBack() throws {
        let memory = try memory()
        let camera = RememberedCamera(
            controls: [exposure, brightness], framing: RememberedFraming(zoom: 2, centreX: 0.4, centreY: 0.55))
        #expect(memory.save(camera, for: identity) == nil)
        #expect(file(memory) == """
            control 0x00980900 brightness 20
            control 0x009a0902 exposure_time_absolute 100
            zoom 2.0
            centre 0.4 0.55

            """)
        let (loaded, warning) = memory.load(identity)
        #expect(loaded == camera && warning == nil)
        var info = stat()
        #expect(stat(memory.directory, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat(memory.path(for: identity), &info) == 0 && info.st_mode & 0o777 == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: memory.directory)
        #expect(leftovers == [identity.key], "no temporary file left")
    }

    @Test func noFileIsNothingRememberedAndNoWarning() throws {
        let (camera, warning) = try memory().load(identity)
        #expect(camera == RememberedCamera() && warning == nil)
    }

    @Test func savingMergesAndADefaultValueIsForgotten() throws {
        let memory = try memory()
        let controls = FakeCameras.uvcControls().values.sorted { $0.id < $1.id }
        #expect(memory.remember([brightness], controls: controls, for: identity) == nil)
        #expect(memory.remember([exposure, ControlSetting(id: 0x009a_0901, name: "auto_exposure", value: 1)], controls: controls, for: identity) == nil)
        #expect(memory.remember(framing: RememberedFraming(zoom: 1.5, centreX: 0.5, centreY: 0.25), for: identity) == nil)
        #expect(memory.load(identity).camera == RememberedCamera(
            controls: [brightness, ControlSetting(id: 0x009a_0901, name: "auto_exposure", value: 1), exposure],
            framing: RememberedFraming(zoom: 1.5, centreX: 0.5, centreY: 0.25)))
        // Brightness back to its default 0: forgotten; a button press is never a setting.
        memory.remember([ControlSetting(id: 0x0098_0900, name: "brightness", value: 0), ControlSetting(id: 0x0098_0f00, name: "button", value: 1)],
            controls: controls, for: identity)
        #expect(memory.load(identity).camera.controls.map(\.name) == ["auto_exposure", "exposure_time_absolute"])
        memory.forgetControl(0x009a_0901, for: identity)
        #expect(memory.load(identity).camera.controls == [exposure])
        memory.forgetControl(nil, for: identity)
        memory.remember(framing: nil, for: identity)
        #expect(file(memory) == nil, "nothing left to remember: no file")
    }

    @Test func aDamagedFileKeepsItsGoodLinesWithOneWarning() throws {
        let memory = try memory()
        try write("""
            # a comment, and a blank line

            control 0x00980900 brightness 20
            garbage
            control 0x0098090 contrast 1
            control 0x00980901 contrast notanumber
            control 0x00980902 Saturation 4
            control 0x009a0902 exposure_time_absolute 100 extra
            zoom nan
            zoom 2.5
            centre 0.5 inf
            centre 0.3 0.7
            control 0x00980900 brightness 30
            """, memory)
        let (camera, warning) = memory.load(identity)
        #expect(camera == RememberedCamera(
            controls: [ControlSetting(id: 0x0098_0900, name: "brightness", value: 30)],
            framing: RememberedFraming(zoom: 2.5, centreX: 0.3, centreY: 0.7)))
        #expect(warning == "pipcam: \(memory.path(for: identity)) 7 lines (from line 4) are not understood and ignored")
    }

    @Test func oneBadLineIsNamed() throws {
        let memory = try memory()
        try write("zoom 0.5\ncentre 0.2 0.2\n", memory)
        let (camera, warning) = memory.load(identity)
        #expect(camera.framing == RememberedFraming(zoom: 1, centreX: 0.2, centreY: 0.2))
        #expect(warning == "pipcam: \(memory.path(for: identity)) line 1 is not understood and ignored")
    }

    /// A change written over a damaged file keeps the file as it was beside it, and says so: the
    /// lines pipcam could not read are the user's, not pipcam's to drop.
    @Test func aDamagedFileIsKeptAsideWhenWrittenOver() throws {
        let memory = try memory()
        let damaged = "zoom 0.5\ncentre 0.2 0.2\nmy note\n"
        try write(damaged, memory)
        let path = memory.path(for: identity)
        let said = memory.remember(framing: RememberedFraming(zoom: 2, centreX: 0.5, centreY: 0.5), for: identity)
        #expect(said == "pipcam: \(path) 2 lines (from line 1) are not understood and ignored; the file as it was is kept as \(path).damaged")
        #expect(try String(contentsOfFile: path + ".damaged", encoding: .utf8) == damaged)
        #expect(memory.load(identity).camera == RememberedCamera(controls: [], framing: RememberedFraming(zoom: 2, centreX: 0.5, centreY: 0.5)))
        #expect(memory.load(identity).warning == nil)
        #expect(memory.remember(framing: nil, for: identity) == nil, "a sound file is written over in silence")
    }

    @Test func aHugeFileIsReadUpToTheLimit() throws {
        let memory = try memory()
        let line = "control 0x00980900 brightness 20\n"
        try write(line + String(repeating: "# padding padding padding\n", count: 3000) + "control 0x00980901 contrast 50\n", memory)
        let (camera, warning) = memory.load(identity)
        #expect(camera.controls == [brightness])
        #expect(warning == "pipcam: \(memory.path(for: identity)) is larger than 64 KiB: the rest is ignored")
    }

    @Test func aDirectoryInItsPlaceIsAWarningAndSavingFailsWithALine() throws {
        let memory = try memory()
        try FileManager.default.createDirectory(atPath: memory.path(for: identity), withIntermediateDirectories: true)
        let (camera, warning) = memory.load(identity)
        #expect(camera == RememberedCamera())
        #expect(warning == "pipcam: \(memory.path(for: identity)) cannot be read (is a directory)")
        #expect(memory.save(RememberedCamera(controls: [brightness]), for: identity)
            == "pipcam: \(memory.path(for: identity)) cannot be written (is a directory)")
    }

    /// Unreadable even for root (these tests may run as root, whom permissions do not stop).
    @Test func anUnreadableFileIsAWarning() throws {
        let memory = try memory()
        try FileManager.default.createDirectory(atPath: memory.directory, withIntermediateDirectories: true)
        let path = memory.path(for: identity)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: path)
        let (camera, warning) = memory.load(identity)
        #expect(camera == RememberedCamera())
        #expect(warning == "pipcam: \(path) cannot be read (too many levels of symbolic links)")
    }
}
