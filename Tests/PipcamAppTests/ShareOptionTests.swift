import CameraSource
import Testing
@testable import PipcamApp

/// `--share [DEVICE|pipewire[:NAME]]`: a device, a PipeWire node, alone, or none (docs/BEHAVIOUR.md, "Sharing the camera").
@Suite struct ShareOptionTests {
    @Test func shareAloneMeansTheFirstFreeDevice() {
        #expect(ShareOption.withValues(["--share"]) == ["--share=auto"])
        #expect(ShareOption.withValues(["--share", "--pip"]) == ["--share=auto", "--pip"])
        #expect(ShareOption.withValues(["--pip", "--share", "/dev/video10"]) == ["--pip", "--share", "/dev/video10"])
        #expect(ShareOption.withValues(["--share=/dev/video11"]) == ["--share=/dev/video11"])
        // After `--` nothing is an option.
        #expect(ShareOption.withValues(["--", "--share"]) == ["--", "--share"])
    }

    @Test func valuesSayWhichRoute() {
        #expect(ShareOption.request(nil) == nil)
        for off in ["none", "no", "off", "false", "NONE"] { #expect(ShareOption.request(off) == nil) }
        for any in ["auto", "yes", "on", "true"] { #expect(ShareOption.request(any) == .any) }
        #expect(ShareOption.request("/dev/video10") == .loopback(device: "/dev/video10"))
        #expect(ShareOption.request("pipewire") == .pipeWire(name: "pipcam"))
        #expect(ShareOption.request("pipewire:") == .pipeWire(name: "pipcam"))
        #expect(ShareOption.request("pipewire:work cam") == .pipeWire(name: "work cam"))
        #expect(ShareOption.request("pipewire:x")?.device == nil, "a node is no device to keep out of the camera list")
    }

    @Test func theConfigFileKnowsShare() throws {
        let entries = try ConfigFile.entries(from: "share = /dev/video10\nshare-size = 640x360\n", options: ConfigFile.pipcamOptions)
        #expect(entries.map(\.arguments) == [["--share", "/dev/video10"], ["--share-size", "640x360"]])
    }
}
