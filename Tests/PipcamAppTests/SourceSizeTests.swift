import Foundation
import Testing

/// Files stay small enough to read whole: no Swift or C file in Sources over 350 lines, README.md
/// no more than 200.
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
