import Foundation
import PipControl
import PipcamApp
import TestSupport
import Testing

/// The man page (the desktop entry and `make install`: PackagingTests).
@Suite struct DesktopIntegrationTests {
    static let root = Pipcam.packageRoot

    /// Every option and subcommand `pipcam --help` lists is in the man page, which renders cleanly;
    /// they are `PipcamOptions`' (the one list the config keys and docs follow) and no others. The
    /// subcommands are `ControlVerb`'s: the usage lines, each one's help, and the man page's
    /// COMMANDS, in the table's order.
    @Test func manPageCoversEveryOptionAndCommand() throws {
        let help = try run([try Pipcam.binaryPath(), "--help"]).stdoutText
        let options = Set(help.matches(of: /--([a-z][a-z-]+)/).map { String($0.output.1) }).subtracting(["help"])
        let listed = Set(PipcamOptions.all.flatMap { option in
            if case .flag(invertible: true) = option.reading { [option.name, "no-\(option.name)"] } else { [option.name] }
        })
        // `--reset` is `pipcam set`'s own, shown in the usage lines.
        #expect(options.subtracting(["version", "generate-completion-script", "reset", "toggle"]) == listed,
                "--help and PipcamOptions differ: \(options.symmetricDifference(listed).sorted())")
        for line in ControlVerb.usageLines { #expect(help.contains(line), "--help lacks '\(line)'") }
        let commands = ControlVerb.allCases.map(\.name)
        for command in ControlVerb.allCases {
            let own = try run([try Pipcam.binaryPath(), "help", command.name]).stdoutText
            #expect(own.contains("OVERVIEW: " + command.abstract.prefix(40)), "pipcam help \(command.name): \(own)")
        }
        let page = try String(contentsOfFile: Self.root + "/docs/pipcam.1", encoding: .utf8)
            .replacingOccurrences(of: "\\-", with: "-")
        for option in options { #expect(page.contains("--\(option)") || page.contains("-\(option)"), "man page lacks --\(option)") }
        let section = page.components(separatedBy: ".SH COMMANDS").last?.components(separatedBy: "\n.SH ").first ?? ""
        let entries = section.matches(of: /\.TP\n\.B[IR]? ([a-z]+)/).map { String($0.output.1) }
        #expect(entries == commands, "the man page's COMMANDS are the table's, in its order")
        let rendered = try run(["groff", "-man", "-Tutf8", "-ww", "-z", Self.root + "/docs/pipcam.1"])
        #expect(rendered.exitCode == 0 && rendered.stderrText.isEmpty, "\(rendered)")
    }
}
