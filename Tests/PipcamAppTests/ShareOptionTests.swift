import Testing
@testable import PipcamApp

/// `--share [DEVICE]`: a device, alone, or none (docs/BEHAVIOUR.md, "Sharing the camera").
@Suite struct ShareOptionTests {
    @Test func shareAloneMeansTheFirstFreeDevice() {
        #expect(ShareOption.withValues(["--share"]) == ["--share=auto"])
        #expect(ShareOption.withValues(["--share", "--pip"]) == ["--share=auto", "--pip"])
        #expect(ShareOption.withValues(["--pip", "--share", "/dev/video10"]) == ["--pip", "--share", "/dev/video10"])
        #expect(ShareOption.withValues(["--share=/dev/video11"]) == ["--share=/dev/video11"])
        // After `--` nothing is an option.
        #expect(ShareOption.withValues(["--", "--share"]) == ["--", "--share"])
    }

    @Test func valuesSayWhichDevice() {
        #expect(ShareOption.device(nil) == nil)
        for off in ["none", "no", "off", "false", "NONE"] { #expect(ShareOption.device(off) == nil) }
        for any in ["auto", "yes", "on", "true"] { #expect(ShareOption.device(any) == .some(nil)) }
        #expect(ShareOption.device("/dev/video10") == .some("/dev/video10"))
    }

    @Test func theConfigFileKnowsShare() throws {
        let entries = try ConfigFile.entries(from: "share = /dev/video10\nshare-size = 640x360\n", options: ConfigFile.pipcamOptions)
        #expect(entries.map(\.arguments) == [["--share", "/dev/video10"], ["--share-size", "640x360"]])
    }
}
