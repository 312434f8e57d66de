import Foundation
import TestSupport
import Testing

/// The fenced blocks README.md and docs/USAGE.md mark with an HTML comment (`<!-- marker … -->` on
/// the line before the fence): the tests run exactly what a user copies.
enum DocBlock {
    /// The text inside the fenced block right after the line starting `<!-- marker`, in `file`
    /// (relative to the package root).
    static func text(_ marker: String, in file: String) throws -> String {
        let path = Pipcam.packageRoot + "/" + file
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        guard let at = lines.firstIndex(where: { $0.hasPrefix("<!-- \(marker)") }),
            at + 1 < lines.count, lines[at + 1].hasPrefix("```"),
            let end = lines[(at + 2)...].firstIndex(where: { $0.hasPrefix("```") })
        else { throw HarnessError("\(file) has no fenced block marked <!-- \(marker) -->") }
        return lines[(at + 2)..<end].joined(separator: "\n") + "\n"
    }
}

/// README.md's i3 lines, as written, in an i3 config: the keys start pipcam in PiP when none runs
/// and toggle PiP of the running one, and i3 reports nothing wrong with them.
@Suite struct ReadmeBindingsTests {
    @Test func usageGivesTheSameI3LinesAsTheReadme() throws {
        #expect(try DocBlock.text("i3-bindings", in: "docs/USAGE.md") == DocBlock.text("i3-bindings", in: "README.md"))
    }

    @Test func theReadmeI3BindingsStartAndTogglePip() throws {
        let lines = try DocBlock.text("i3-bindings", in: "README.md")
        let x = try makeServer(.none)
        let configHome = "\(x.directory)/config"
        try FileManager.default.createDirectory(atPath: configHome, withIntermediateDirectories: true)
        let config = "\(configHome)/i3.config"
        try (XServer.minimalI3Config + lines).write(toFile: config, atomically: true, encoding: .utf8)

        // i3's own check of the file: any error line fails it, as a user's `i3 -C` would show.
        let check = try x.run(["i3", "-C", "-c", config])
        #expect(check.succeeded && !check.stdoutText.contains("ERROR") && !check.stderrText.contains("ERROR"), "\(check)")

        // The bindings run `pipcam` by name, as a user's PATH finds it.
        let binaries = (try Pipcam.binaryPath() as NSString).deletingLastPathComponent
        let path = binaries + ":" + (x.environment["PATH"] ?? "/usr/bin:/bin")
        let i3 = try x.start(
            ["i3", "-c", config],
            extraEnvironment: ["PATH": path, "XDG_CONFIG_HOME": configHome, "XDG_CACHE_HOME": "\(x.directory)/cache"])
        defer { _ = try? x.runPipcam(["quit"]) }
        // i3 answers IPC from its event loop, which it enters after grabbing the bound keys.
        try waitUntil("i3 to answer IPC", timeout: .seconds(10)) {
            if let ended = i3.termination { throw HarnessError("i3 ended (\(ended)): \(i3.stderrText.suffix(1500))") }
            return try x.run(["i3-msg", "-t", "get_version"]).succeeded
        }
        #expect(try x.runPipcam(["status"]).termination == .exited(3), "no pipcam runs yet")

        // None running: the "start if none" key starts pipcam in PiP.
        try x.runChecked(["xdotool", "key", "super+shift+o"])
        let pip: XWindowID
        do { pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture") } catch {
            throw HarnessError("\(error)\ni3 stderr: \(i3.stderrText.suffix(1500))")
        }
        try waitUntil("PiP is active", timeout: .seconds(10)) { try x.pipcamStateAfterEarlierEvents() == "active" }

        // The toggle key stops PiP of the running pipcam, and starts it again.
        try x.runChecked(["xdotool", "key", "super+shift+p"])
        try waitUntil("the toggle key stops PiP") { try !x.isViewable(pip) }
        try waitUntil("PiP is idle", timeout: .seconds(10)) { try x.pipcamStateAfterEarlierEvents() == "idle" }
        try x.runChecked(["xdotool", "key", "super+shift+p"])
        try waitUntil("the toggle key starts PiP") { try x.isViewable(pip) }
        try waitUntil("PiP is active again", timeout: .seconds(10)) { try x.pipcamStateAfterEarlierEvents() == "active" }

        // With one running, the "start if none" key toggles it too, and starts no second pipcam.
        try x.runChecked(["xdotool", "key", "super+shift+o"])
        try waitUntil("the start-if-none key stops PiP", timeout: .seconds(10)) {
            try x.pipcamStateAfterEarlierEvents() == "idle"
        }
        #expect(try x.windows(className: "pipcam", role: "PictureInPicture").count == 1)

        let log = i3.stderrText
        #expect(!log.contains("ERROR") && !log.contains("Unterminated"), "i3 stderr: \(log.suffix(1500))")
    }
}
