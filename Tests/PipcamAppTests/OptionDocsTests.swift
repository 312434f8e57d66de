import Foundation
import Testing
@testable import PipcamApp

/// The documentation says what `PipcamOptions` says: every option in docs/BEHAVIOUR.md's table and
/// the man page's OPTIONS, docs/USAGE.md pointing to that table, and the same config keys in all
/// three. (That `PipcamCommand` declares exactly these options is checked against the binary, in
/// `HelpTests`.)
@Suite struct OptionDocsTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static func document(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// The text from `start` (excluded) to the first `end` after it.
    static func span(of text: String, from start: String, to end: String) throws -> Substring {
        let from = try #require(text.range(of: start), "no '\(start)'").upperBound
        let to = try #require(text.range(of: end, range: from..<text.endIndex), "no '\(end)' after '\(start)'").lowerBound
        return text[from..<to]
    }

    static var configKeys: Set<String> { Set(PipcamOptions.configKeys.keys) }

    @Test func behaviourTableHasEveryOption() throws {
        let table = try Self.span(of: Self.document("docs/BEHAVIOUR.md"), from: "| option | meaning |", to: "\n\n")
        let firstCells = table.split(separator: "\n").map { $0.split(separator: "|").first.map(String.init) ?? "" }
        for option in PipcamOptions.all {
            #expect(firstCells.contains { $0.contains("`--\(option.name)`") || $0.contains("`--\(option.name) ") },
                    "--\(option.name) is not in BEHAVIOUR.md's table")
            if let short = option.short {
                #expect(firstCells.contains { $0.contains("`-\(short)`") || $0.contains("`-\(short) ") }, "-\(short) is not in BEHAVIOUR.md's table")
            }
            if case .flag(invertible: true) = option.reading {
                #expect(firstCells.contains { $0.contains("`--no-\(option.name)`") }, "--no-\(option.name) is not in BEHAVIOUR.md's table")
            }
        }
    }

    @Test func manPageDescribesEveryOption() throws {
        let options = try Self.span(of: Self.document("docs/pipcam.1"), from: ".SH OPTIONS", to: ".SH COMMANDS")
        for option in PipcamOptions.all {
            let roff = "\\-\\-" + option.name.replacingOccurrences(of: "-", with: "\\-")
            #expect([".B", ".BI", ".BR"].contains { options.contains("\($0) \(roff)") } || options.contains("\\fB\(roff)\\fR"),
                    "--\(option.name) has no entry in the man page's OPTIONS")
        }
    }

    @Test func usageLinksTheTableInsteadOfCopyingIt() throws {
        let usage = try Self.document("docs/USAGE.md")
        #expect(usage.contains("(BEHAVIOUR.md#command-line)"))
        #expect(!usage.contains("| option | meaning |"), "USAGE.md copies the option table again")
    }

    @Test func theConfigKeysAreTheSameEverywhere() throws {
        let behaviour = try Self.span(of: Self.document("docs/BEHAVIOUR.md"), from: "`~/.config/pipcam/config`; keys ", to: ";")
        #expect(Self.words(inBackticks: behaviour) == Self.configKeys, "BEHAVIOUR.md")
        let usage = try Self.span(of: Self.document("docs/USAGE.md"), from: "the keys being these long option names: ", to: " (others")
        #expect(Self.words(inBackticks: usage) == Self.configKeys, "USAGE.md")
        let man = try Self.span(of: Self.document("docs/pipcam.1"), from: "the keys are ", to: " (")
        let manKeys = man.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: " and ", with: ", ")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Set(manKeys) == Self.configKeys, "the man page")
    }

    static func words(inBackticks text: Substring) -> Set<String> {
        Set(text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
    }
}
