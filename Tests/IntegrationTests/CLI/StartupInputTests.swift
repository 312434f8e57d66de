import Foundation
import Glibc
import TestSupport
import Testing

/// What pipcam does with its surroundings at start: the config file, the display, the X server's
/// extensions, standard output and a long command line (docs/BEHAVIOUR.md).
@Suite struct StartupInputTests {
    /// The binary with `environment` (the test's own with DISPLAY unset when nil), to completion.
    func runPipcam(_ arguments: [String], display: String?, timeout: Duration = .seconds(10)) throws -> ProcessResult {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["WAYLAND_DISPLAY"] = nil
        return try run([Pipcam.binaryPath()] + arguments, environment: environment, timeout: timeout)
    }

    func expectOneErrorLine(_ result: ProcessResult, naming text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.stderrText.hasPrefix("pipcam: ") && result.stderrText.filter { $0 == "\n" }.count == 1,
                "\(result)", sourceLocation: sourceLocation)
        #expect(result.stderrText.contains(text), "'\(result.stderrText)' does not name '\(text)'", sourceLocation: sourceLocation)
    }

    // MARK: the config file

    /// A FIFO (or a directory) where the config file should be is refused at once, not opened
    /// for reading (which waits for a writer for good).
    @Test(arguments: [("fifo", "not a regular file"), ("directory", "is a directory")])
    func aConfigThatIsNoRegularFileIsRefused(kind: String, why: String) throws {
        let x = try XServer()
        let folder = x.directory + "/config/pipcam"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/config"
        if kind == "fifo" { #expect(mkfifo(path, 0o600) == 0) } else { #expect(mkdir(path, 0o700) == 0) }
        let result = try x.runPipcam(["--source", "test"], timeout: .seconds(5))
        #expect(result.exitCode == 2, "\(result)")
        expectOneErrorLine(result, naming: "\(path): \(why)")
        // A control command reads the config only for its name: it goes on without it.
        let status = try x.runPipcam(["status"], timeout: .seconds(5))
        #expect(status.exitCode == 3, "\(status)")
    }

    /// A config linked to /dev/null (how a user switches it off) reads as an empty one.
    @Test func aConfigLinkedToDevNullIsEmpty() throws {
        let x = try XServer()
        let folder = x.directory + "/config/pipcam"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(symlink("/dev/null", folder + "/config") == 0)
        let result = try x.runPipcam(["--source", "test", "--frames", "3"], timeout: .seconds(10))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderrText.isEmpty, "\(result)")
    }

    // MARK: the display

    /// A display number nothing listens on.
    static func unusedDisplay() -> String {
        let n = (150..<400).first { access("/tmp/.X11-unix/X\($0)", F_OK) != 0 } ?? 399
        return ":\(n)"
    }

    /// No display, or one with no server, is a usage or input error (2) for every command.
    @Test(arguments: [["--source", "test"], ["status"], ["toggle"], ["quit"]])
    func noDisplayExitsTwo(arguments: [String]) throws {
        let unset = try runPipcam(arguments, display: nil)
        #expect(unset.exitCode == 2, "\(unset)")
        // pipcam itself looks for either window system; the commands for an X display to ask.
        expectOneErrorLine(unset, naming: arguments[0] == "--source" ? "neither WAYLAND_DISPLAY nor DISPLAY is set" : "$DISPLAY is not set")
        let display = Self.unusedDisplay()
        let nobody = try runPipcam(arguments, display: display)
        #expect(nobody.exitCode == 2, "\(nobody)")
        expectOneErrorLine(nobody, naming: "cannot open display '\(display)'")
    }

    /// On a server without MIT-SHM pipcam draws with plain XPutImage, and stderr has no line from
    /// Xlib about the missing extension.
    @Test func aServerWithoutSharedMemoryGivesNoXlibLine() throws {
        let x = try XServer(serverArguments: ["-extension", "MIT-SHM"])
        let result = try x.runPipcam(["--pip", "--source", "test", "--frames", "5"], timeout: .seconds(20))
        #expect(result.termination == .exited(0), "\(result)")
        #expect(result.stderrText.isEmpty, "\(result.stderrText)")
    }

    // MARK: standard output

    /// An answer that cannot be written (a full disk here) is a failure: exit 1 and one line.
    @Test(arguments: [["status"], ["--help"], ["help", "toggle"], ["--list-cameras"]])
    func outputThatCannotBeWrittenExitsOne(arguments: [String]) throws {
        let x = try XServer()
        if arguments == ["status"] {
            _ = try x.startPipcam(["--source", "test"])
            try waitUntil("pipcam answers", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        }
        let result = try x.run(["sh", "-c", #"exec "$0" "$@" >/dev/full"#, try Pipcam.binaryPath()] + arguments)
        #expect(result.exitCode == 1, "\(result)")
        expectOneErrorLine(result, naming: "pipcam: standard output: no space left on device")
    }

    // MARK: the command line

    /// 10,000 arguments take well under a second to parse or refuse (each repeated option took
    /// time in proportion to all before it: 10,000 took minutes in a debug build).
    @Test(arguments: [
        (Array(repeating: "--stats", count: 10_000) + ["--frobnicate"], "unknown option '--frobnicate'"),
        (Array(repeating: ["--mirror", "--no-mirror", "--source", "test"], count: 2_500).flatMap { $0 }, "neither WAYLAND_DISPLAY nor DISPLAY is set"),
        (Array(repeating: ["--rotate", "90", "--size", "480x270"], count: 2_500).flatMap { $0 } + ["--rotate", "45"], "--rotate: 45"),
        (["status"] + Array(repeating: ["--name", "cam"], count: 5_000).flatMap { $0 }, "$DISPLAY is not set"),
    ])
    func manyArgumentsAreParsedQuickly(arguments: [String], answer: String) throws {
        let clock = ContinuousClock()
        let started = clock.now
        let result = try runPipcam(arguments, display: nil, timeout: .seconds(60))
        let took = clock.now - started
        print("pipcam with \(arguments.count) arguments: \(took)")
        #expect(result.exitCode == 2, "\(result)")
        expectOneErrorLine(result, naming: answer)
        #expect(took < .seconds(2), "\(took)")
    }
}
