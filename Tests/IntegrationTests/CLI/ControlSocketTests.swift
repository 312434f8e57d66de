import Foundation
import Glibc
import TestSupport
import Testing

/// The control socket in the runtime directory: commands without an X display, and what a client
/// of the socket can and cannot do to the instance (docs/BEHAVIOUR.md, "Control channel").
@Suite struct ControlSocketTests {
    /// The environment of a command run with no X display at all (a Wayland shortcut, a service).
    static func withoutDisplay(_ x: XServer) -> [String: String] {
        var environment = x.environment
        environment["DISPLAY"] = nil
        return environment
    }

    static func pipcam(_ arguments: [String], _ environment: [String: String], timeout: Duration = .seconds(10)) throws -> ProcessResult {
        try run([Pipcam.binaryPath()] + arguments, environment: environment, timeout: timeout)
    }

    static func socketPath(_ x: XServer, name: String? = nil) -> String {
        x.directory + "/pipcam/" + x.display + (name.map { "@" + $0 } ?? "") + ".sock"
    }

    /// Runs a small Python client of the socket at `path`; its standard output, trimmed.
    static func client(_ script: String, _ path: String, as user: String? = nil, timeout: Duration = .seconds(30)) throws -> String {
        let command = (user.map { ["runuser", "-u", $0, "--"] } ?? []) + ["python3", "-c", "import socket, sys, time\npath = sys.argv[1]\n" + script, path]
        return try runChecked(command, timeout: timeout).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One request as a client writes it: the bytes, then the end of writing; the answer with its
    /// newlines as `|`.
    static let ask = """
        s = socket.socket(socket.AF_UNIX); s.connect(path); s.sendall(eval(sys.argv[2])); s.shutdown(socket.SHUT_WR)
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk: break
            answer += chunk
        print(answer.decode(errors="replace").replace("\\n", "|"))
        """

    static func ask(_ bytes: String, _ path: String) throws -> String {
        let command = ["python3", "-c", "import socket, sys\npath = sys.argv[1]\n" + ask, path, bytes]
        return try runChecked(command, timeout: .seconds(30)).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func commandsReachTheInstanceWithNoDisplay() throws {
        let x = try XServer(windowManager: .openbox)
        let p = try x.startPipcam(["--source", "test"])
        let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
        let bare = Self.withoutDisplay(x)
        let status = try Self.pipcam(["status"], bare)
        #expect(status.succeeded && status.stdoutText.hasPrefix("{\"state\":\"idle\",\"source\":\"test\""), "\(status)")
        #expect(try Self.pipcam(["toggle"], bare).succeeded)
        try waitUntil("PiP is up", timeout: .seconds(5)) { try x.isViewable(pip) }
        let set = try Self.pipcam(["set", "brightness=3"], bare)
        #expect(set.exitCode == 1 && set.stderrText.hasPrefix("pipcam: "), "a test pattern has no controls: \(set)")
        let quit = try Self.pipcam(["quit"], bare)
        #expect(quit.succeeded && quit.stderrText.isEmpty, "\(quit)")
        #expect(!p.isRunning, "quit returns once pipcam has exited")
        let none = try Self.pipcam(["status"], bare)
        #expect(none.exitCode == 3 && none.stderrText.hasPrefix("pipcam: no pipcam is running (DISPLAY is not set; looked in "), "\(none)")
    }

    @Test func withSeveralInstancesAndNoDisplayANameChooses() throws {
        let x = try XServer()
        _ = try x.startPipcam(["--source", "test"])
        _ = try x.startPipcam(["--source", "test", "--name", "cam"])
        let bare = Self.withoutDisplay(x)
        try waitUntil("both listen", timeout: .seconds(10)) { try Self.pipcam(["status", "--name", "cam"], bare).succeeded }
        let either = try Self.pipcam(["status"], bare)
        #expect(either.exitCode == 2, "\(either)")
        #expect(either.stderrText == "pipcam: 2 pipcams are running, on \(x.display), \(x.display) (name 'cam'): set DISPLAY or give --name NAME\n")
        #expect(try Self.pipcam(["status", "--name", "other"], bare).exitCode == 3)
        #expect(try x.runPipcam(["status"]).succeeded, "with DISPLAY, the display's unnamed one")
    }

    @Test func withoutARuntimeDirectoryCommandsGoThroughX() throws {
        let x = try XServer()
        var environment = x.environment
        environment["XDG_RUNTIME_DIR"] = nil
        let p = try x.start([Pipcam.binaryPath(), "--source", "test"], extraEnvironment: ["XDG_RUNTIME_DIR": ""])
        try waitUntil("it answers through X", timeout: .seconds(10)) { try x.runPipcamOverX(["status"]).succeeded }
        #expect(!FileManager.default.fileExists(atPath: Self.socketPath(x)))
        #expect(try x.runPipcam(["toggle"]).succeeded, "a client with a runtime directory finds no socket and asks through X")
        var bare = environment
        bare["DISPLAY"] = nil
        let nowhere = try Self.pipcam(["status"], bare)
        #expect(nowhere.exitCode == 2 && nowhere.stderrText.contains("$DISPLAY is not set"), "\(nowhere)")
        #expect(p.stderrText.isEmpty, "\(p.stderrText)")
    }

    /// Garbage, half requests and a thousand connections: each told why, none costing the
    /// instance what it keeps (descriptors back where they were), and a command right after works.
    @Test func clientsThatMisbehaveAreToldWhyAndCostNothing() throws {
        let x = try XServer()
        let p = try x.startPipcam(["--source", "test"])
        let path = Self.socketPath(x)
        try waitUntil("pipcam listens", timeout: .seconds(10)) { try x.runPipcam(["status"]).succeeded }
        let descriptors = { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(p.pid)/fd").count) ?? -1 }
        let before = descriptors()
        #expect(try Self.ask("b'\\xff\\xfe\\x00'", path) == "failed|pipcam: not a request pipcam knows")
        #expect(try Self.ask("b'toggle\\nnow'", path) == "failed|pipcam: not a request pipcam knows")
        #expect(try Self.ask("b'x' * 5000", path) == "failed|pipcam: the request is longer than 4096 bytes, the most pipcam reads")
        #expect(try Self.ask("b'status'", path).hasPrefix("done|{\"state\""))
        let stalled = try Self.client("""
            s = socket.socket(socket.AF_UNIX); s.connect(path); s.sendall(b"tog"); start = time.monotonic()
            answer = s.recv(4096); print(answer.decode().replace("\\n", "|"), round(time.monotonic() - start))
            """, path)
        #expect(stalled == "failed|pipcam: the request did not arrive whole within 2000 ms 2", "\(stalled)")
        // Each connection is answered: told to try again at once past 64 open, else told after 2 s
        // that no request came (the first 64, and any let in as those closed).
        let flood = try Self.client("""
            import resource, select
            resource.setrlimit(resource.RLIMIT_NOFILE, (2048, 2048))
            held, told, stalled = [], 0, 0
            for i in range(1000):
                s = socket.socket(socket.AF_UNIX); s.connect(path); held.append(s)
            for s in held:
                if not select.select([s], [], [], 10)[0]: continue
                answer = s.recv(4096)
                if answer.startswith(b"failed\\npipcam: 64 control connections are open already; try again"): told += 1
                elif answer.startswith(b"failed\\npipcam: the request did not arrive whole"): stalled += 1
            print(told + stalled, told >= 1000 - 64 * 4)
            """, path, timeout: .seconds(60))
        #expect(flood == "1000 True", "every connection is told why, most at once: \(flood)")
        try waitUntil("a command works again", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        try waitUntil("pipcam holds no descriptor more than before", timeout: .seconds(5)) { descriptors() == before }
        #expect(p.stderrText.isEmpty, "\(p.stderrText)")
        #expect(try x.runPipcam(["quit"]).succeeded)
    }

    /// Only the instance's own user: another user's connection is told no, even with the socket
    /// and its directory opened to everyone.
    @Test func anotherUsersConnectionIsRefused() throws {
        // Connecting as another user takes root to become one (CI runs as root).
        guard getuid() == 0 else { return }
        let x = try XServer()
        _ = try x.startPipcam(["--source", "test"])
        let path = Self.socketPath(x)
        try waitUntil("pipcam listens", timeout: .seconds(10)) { try x.runPipcam(["status"]).succeeded }
        for (item, mode) in [(x.directory, 0o711), (x.directory + "/pipcam", 0o711), (path, 0o666)] { chmod(item, mode_t(mode)) }
        let answer = try Self.client(Self.ask.replacingOccurrences(of: "eval(sys.argv[2])", with: "b'quit'"), path, as: "nobody")
        #expect(answer == "failed|pipcam: refused: this pipcam answers only its own user")
        #expect(try x.runPipcam(["status"]).succeeded, "still running")
    }

    /// The socket file removed, or replaced by another file: made again within a second or so,
    /// said once; a second pipcam for the same display is still refused meanwhile.
    @Test(arguments: ["remove", "replace"])
    func theSocketFileComesBackWhenRemovedOrReplaced(how: String) throws {
        let x = try XServer()
        let p = try x.startPipcam(["--source", "test"])
        let path = Self.socketPath(x)
        let bare = Self.withoutDisplay(x)
        try waitUntil("pipcam listens", timeout: .seconds(10)) { try Self.pipcam(["status"], bare).succeeded }
        unlink(path)
        if how == "replace" { FileManager.default.createFile(atPath: path, contents: Data("not a socket".utf8)) }
        #expect(try x.runPipcam(["--source", "test"]).exitCode == 1, "a second pipcam is still refused")
        try waitUntil("commands without a display work again", timeout: .seconds(5)) { try Self.pipcam(["status"], bare).succeeded }
        let said = how == "remove" ? "was removed" : "was replaced by another file"
        #expect(p.stderrText == "pipcam: the control socket \(path) \(said); listening there again\n", "\(p.stderrText)")
        #expect(try Self.pipcam(["quit"], bare).succeeded)
    }
}
