import Foundation
import PipcamApp
import TestSupport
import Testing

/// The man page (the desktop entry and `make install`: PackagingTests).
@Suite struct DesktopIntegrationTests {
    static let root = Pipcam.packageRoot

    /// Every option and subcommand `pipcam --help` lists is in the man page, which renders cleanly;
    /// they are `PipcamOptions`' (the one list the config keys and docs follow) and no others.
    @Test func manPageCoversEveryOptionAndCommand() throws {
        let help = try run([try Pipcam.binaryPath(), "--help"]).stdoutText
        let options = Set(help.matches(of: /--([a-z][a-z-]+)/).map { String($0.output.1) }).subtracting(["help"])
        let listed = Set(PipcamOptions.all.flatMap { option in
            if case .flag(invertible: true) = option.reading { [option.name, "no-\(option.name)"] } else { [option.name] }
        })
        // `--reset` is `pipcam set`'s own, shown in the usage lines.
        #expect(options.subtracting(["version", "generate-completion-script", "reset", "toggle"]) == listed,
                "--help and PipcamOptions differ: \(options.symmetricDifference(listed).sorted())")
        let commands = ["toggle", "start", "stop", "status", "switch", "quit", "controls", "set"]
        let page = try String(contentsOfFile: Self.root + "/docs/pipcam.1", encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for option in options { #expect(page.contains("--\(option)") || page.contains("-\(option)"), "man page lacks --\(option)") }
        for command in commands {
            #expect(page.contains(".B \(command)") || page.contains(".BI \(command) "), "man page lacks \(command)")
        }
        let rendered = try run(["groff", "-man", "-Tutf8", "-ww", "-z", Self.root + "/docs/pipcam.1"])
        #expect(rendered.exitCode == 0 && rendered.stderrText.isEmpty, "\(rendered)")
    }
}
