import Foundation
import Testing

/// Files stay small enough to read whole: no Swift or C file in Sources over 350 lines, README.md
/// no more than 200; the program's composition root (`PipcamApp` over its files) no more than 400
/// lines and 15 stored properties, so new rules go into values and desks, not into it.
@Suite struct SourceSizeTests {
    static let longestSourceFile = 350
    static let longestReadme = 200

    static func lineCount(_ path: String) throws -> Int {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let newlines = bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        // A last line without its newline is a line all the same.
        return newlines + (bytes.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
    }

    @Test func noSourceFileIsLongerThanItsLimit() throws {
        let sources = OptionDocsTests.root + "/Sources"
        let files = try #require(FileManager.default.subpathsOfDirectory(atPath: sources) as [String]?)
        var tooLong: [String] = []
        for file in files.sorted() where [".swift", ".c", ".h"].contains(where: file.hasSuffix) {
            let lines = try Self.lineCount(sources + "/" + file)
            if lines > Self.longestSourceFile { tooLong.append("Sources/\(file) (\(lines) lines)") }
        }
        #expect(files.contains { $0.hasSuffix(".c") }, "no C file found under \(sources)")
        #expect(tooLong.isEmpty, "over \(Self.longestSourceFile) lines: \(tooLong.joined(separator: ", "))")
    }

    /// The release binary links the Swift runtime in: one `import Foundation` in Sources would
    /// bring Foundation and ICU along (62 MB instead of under 20, and a .deb twice its limit).
    @Test func noSourceFileImportsFoundation() throws {
        let sources = OptionDocsTests.root + "/Sources"
        let files = try #require(FileManager.default.subpathsOfDirectory(atPath: sources) as [String]?)
        let importing = try files.filter { $0.hasSuffix(".swift") }.filter { file in
            try String(contentsOfFile: sources + "/" + file, encoding: .utf8).split(separator: "\n")
                .contains { $0.hasPrefix("import Foundation") || $0.hasPrefix("@_exported import Foundation") }
        }
        #expect(importing.isEmpty, "import Foundation in \(importing.sorted())")
    }

    @Test func theCompositionRootStaysSmall() throws {
        let folder = OptionDocsTests.root + "/Sources/PipcamApp"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("PipcamApp") && $0.hasSuffix(".swift") }
        #expect(files.count >= 2, "PipcamApp's files not found in \(folder)")
        var lines = 0
        var stored: [String] = []
        for file in files {
            let path = folder + "/" + file
            lines += try Self.lineCount(path)
            // A stored property: declared at the type's level, with no body of its own (`{` after
            // the type is a computed property's).
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            where line.range(of: #"^    (public |private |private\(set\) )?(lazy )?(let|var) [a-zA-Z]+(:|\s=)"#, options: .regularExpression) != nil
                && !line.contains("{") {
                stored.append(String(line))
            }
        }
        #expect(lines <= 400, "PipcamApp has \(lines) lines over \(files.count) files, more than 400")
        #expect(stored.count <= 15 && stored.count >= 5, "PipcamApp stores \(stored.count) properties: \(stored)")
    }

    @Test func readmeIsShort() throws {
        let lines = try Self.lineCount(OptionDocsTests.root + "/README.md")
        #expect(lines <= Self.longestReadme, "README.md has \(lines) lines, more than \(Self.longestReadme)")
    }

    @Test func aLastLineWithoutItsNewlineIsCounted() throws {
        let path = NSTemporaryDirectory() + "/pipcam-line-count-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("one\ntwo".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Self.lineCount(path) == 2)
        try Data("one\ntwo\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(try Self.lineCount(path) == 2)
    }
}
