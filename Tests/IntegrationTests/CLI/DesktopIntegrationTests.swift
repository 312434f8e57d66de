import Foundation
import TestSupport
import Testing

/// Desktop integration: the desktop entry, the man page and `make install`.
@Suite struct DesktopIntegrationTests {
    static let root = Pipcam.packageRoot

    @Test func desktopEntryIsValid() throws {
        let result = try run(["desktop-file-validate", Self.root + "/assets/pipcam.desktop"])
        #expect(result.exitCode == 0 && result.stdoutText.isEmpty && result.stderrText.isEmpty, "\(result)")
    }

    /// Every option and subcommand `pipcam --help` lists is in the man page, which renders cleanly.
    @Test func manPageCoversEveryOptionAndCommand() throws {
        let help = try run([try Pipcam.binaryPath(), "--help"]).stdoutText
        let options = Set(help.matches(of: /--([a-z][a-z-]+)/).map { String($0.output.1) }).subtracting(["help"])
        let commands = ["toggle", "start", "stop", "status", "quit"]
        #expect(options.count >= 18, "\(options)")
        let page = try String(contentsOfFile: Self.root + "/docs/pipcam.1", encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for option in options { #expect(page.contains("--\(option)") || page.contains("-\(option)"), "man page lacks --\(option)") }
        for command in commands { #expect(page.contains(".B \(command)"), "man page lacks \(command)") }
        let rendered = try run(["groff", "-man", "-Tutf8", "-ww", "-z", Self.root + "/docs/pipcam.1"])
        #expect(rendered.exitCode == 0 && rendered.stderrText.isEmpty, "\(rendered)")
    }

    @Test func makeInstallPutsEverythingUnderThePrefix() throws {
        let prefix = try Scratch.makeDirectory("install")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let result = try run(
            ["make", "-s", "-C", Self.root, "install", "PREFIX=\(prefix)", "BIN=\(try Pipcam.binaryPath())"], timeout: .seconds(30))
        #expect(result.exitCode == 0, "\(result)")
        for file in ["bin/pipcam", "share/man/man1/pipcam.1", "share/applications/pipcam.desktop",
                     "share/icons/hicolor/256x256/apps/pipcam.png"] {
            #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) installed")
        }
        #expect(try run([prefix + "/bin/pipcam", "--help"]).exitCode == 0)
    }
}
