import Foundation
import Glibc
import Synchronization
import TestSupport

/// A headless sway (wlroots, drawing in software) private to one test: its own runtime directory
/// and config (no Xwayland, no background of its own), its socket's absolute path in `socket`.
/// `stop()` or `deinit` ends every client started with `start(_:)`, then sway.
///
/// sway refuses to run as root. Where the tests run as root (CI), sway runs as an unprivileged
/// account through setpriv: `PIPCAM_TEST_USER`, else `nobody`, which every Debian has (nothing
/// to create on a fresh machine). Its runtime directory is that account's, mode 0700, as Wayland
/// wants it. The test process and the clients it starts (swaybg, grim) stay root and reach the
/// socket by its absolute path through root's permission override (CAP_DAC_OVERRIDE): the
/// directory stays 0700, and the probe runs in the test process itself, as pipcam's will.
final class HeadlessSway: Sendable {
    /// Why sway cannot be started here, or nil when it can.
    static let missing: String? = {
        if !onPath("sway") { return "sway is not installed (scripts/bootstrap wayland)" }
        if getuid() == 0 && !onPath("setpriv") { return "setpriv is not installed (util-linux): sway refuses to run as root" }
        return nil
    }()

    /// Whether `command` is an executable in a directory of PATH.
    static func onPath(_ command: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(command)") }
    }

    /// The scratch directory holding sway's runtime directory and config.
    let directory: String
    /// sway's `XDG_RUNTIME_DIR`.
    let runtimeDirectory: String
    /// The Wayland socket, as an absolute path (what `WAYLAND_DISPLAY` may name).
    let socket: String
    let width: Int, height: Int
    private let compositor: RunningProcess
    private let clients = Mutex<[RunningProcess]>([])

    /// Starts sway with one `width`×`height` output (in pixels) at `scale` (sway's `output scale`:
    /// "2", "1.5"; its logical size is the pixels over it) and waits until its socket is there.
    init(width: Int = 640, height: Int = 360, scale: String = "1", timeout: Duration = .seconds(10)) throws {
        if let missing = Self.missing { throw HarnessError(missing) }
        self.width = width
        self.height = height
        directory = try Scratch.makeDirectory("sway")
        runtimeDirectory = "\(directory)/run"
        let config = "\(directory)/config"
        try """
            xwayland disable
            swaybg_command -
            output * resolution \(width)x\(height) position 0 0 scale \(scale)

            """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o644)
        guard mkdir(runtimeDirectory, 0o700) == 0 else {
            throw HarnessError("mkdir \(runtimeDirectory): \(String(cString: strerror(errno)))")
        }

        var command = ["sway", "--config", config]
        if getuid() == 0 {
            let account = try Self.unprivilegedAccount()
            guard chown(runtimeDirectory, account.uid, account.gid) == 0 else {
                throw HarnessError("chown \(runtimeDirectory) to \(account.name): \(String(cString: strerror(errno)))")
            }
            // sway reaches its config and runtime directory through these: searchable by others
            // (a umask of 077 would have made them 0700).
            for path in [Scratch.directory, directory] { Self.allowSearch(path) }
            command = ["setpriv", "--reuid=\(account.uid)", "--regid=\(account.gid)", "--clear-groups", "--"] + command
        }
        let parent = ProcessInfo.processInfo.environment
        let environment = [
            "PATH": parent["PATH"] ?? "/usr/bin:/bin", "HOME": runtimeDirectory, "XDG_RUNTIME_DIR": runtimeDirectory,
            "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
        ]
        let compositor = try RunningProcess(command, environment: environment)
        let runtime = runtimeDirectory
        do {
            let name = try poll(timeout: timeout, what: "sway's Wayland socket in \(runtime)") { () throws -> String? in
                if let ended = compositor.termination {
                    throw HarnessError("sway ended (\(ended)) before its socket appeared: \(compositor.stderrText.suffix(1500))")
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
                // The file is there from bind(), a moment before sway listens on it.
                return names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") && Self.accepts("\(runtime)/\($0)") }
            }
            socket = "\(runtime)/\(name)"
        } catch {
            compositor.terminate(grace: .seconds(2))
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
        self.compositor = compositor
    }

    deinit { stop() }

    /// Starts a Wayland client of this sway (as the test process's user), ended by `stop()`.
    @discardableResult
    func start(_ command: [String]) throws -> RunningProcess {
        let process = try RunningProcess(command, environment: clientEnvironment)
        clients.withLock { $0.append(process) }
        return process
    }

    /// Runs a client to its end.
    func run(_ command: [String], timeout: Duration = .seconds(10)) throws -> ProcessResult {
        try IntegrationTests.run(command, environment: clientEnvironment, timeout: timeout)
    }

    /// Runs a sway command through its IPC socket (swaymsg), e.g. `output * scale 1`.
    func command(_ words: [String]) throws {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
        guard let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) else {
            throw HarnessError("no sway IPC socket in \(runtimeDirectory)")
        }
        try runChecked(["swaymsg", "-s", "\(runtimeDirectory)/\(ipc)"] + words, environment: clientEnvironment)
    }

    /// What the output shows, through grim (wlr-screencopy).
    func screenshot() throws -> Screenshot {
        let path = "\(directory)/shot-\(UUID().uuidString.prefix(8)).ppm"
        defer { unlink(path) }
        try runChecked(["grim", "-t", "ppm", path], environment: clientEnvironment)
        return try Self.readPPM(Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Ends every client, then sway; waits for each.
    func stop() {
        let started = clients.withLock { list in defer { list.removeAll() }; return list }
        for client in started.reversed() { client.terminate(grace: .seconds(1)) }
        compositor.terminate(grace: .seconds(2))
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Sends `signal` to sway (SIGSTOP: a compositor that hangs; SIGCONT to undo it).
    func send(_ signal: Int32) { compositor.send(signal) }

    /// sway's log so far (for failure messages).
    var log: String { compositor.stderrText }

    private var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_SOCKET", "SWAYSOCK"] { environment[name] = nil }
        environment["WAYLAND_DISPLAY"] = socket
        return environment
    }

    /// Whether a Unix socket at `path` takes a connection.
    private static func accepts(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// The account sway runs as when the tests run as root.
    private static func unprivilegedAccount() throws -> (name: String, uid: uid_t, gid: gid_t) {
        let name = ProcessInfo.processInfo.environment["PIPCAM_TEST_USER"] ?? "nobody"
        guard let entry = getpwnam(name) else {
            throw HarnessError("no account '\(name)' to run sway as (it refuses root); set PIPCAM_TEST_USER to an unprivileged one")
        }
        guard entry.pointee.pw_uid != 0 else { throw HarnessError("PIPCAM_TEST_USER=\(name) is root; sway refuses root") }
        return (name, entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    private static func allowSearch(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        let mode = info.st_mode & 0o7777
        if mode & 0o011 != 0o011 { chmod(path, mode | 0o011) }
    }

    /// A binary PPM (P6, maxval 255) as a `Screenshot`.
    static func readPPM(_ data: Data) throws -> Screenshot {
        let bytes = [UInt8](data)
        var fields = [String](), index = 0
        while fields.count < 4 && index < bytes.count {
            while index < bytes.count, bytes[index] == UInt8(ascii: "#") || isspace(Int32(bytes[index])) != 0 {
                if bytes[index] == UInt8(ascii: "#") { while index < bytes.count && bytes[index] != 10 { index += 1 } }
                index += 1
            }
            let start = index
            while index < bytes.count && isspace(Int32(bytes[index])) == 0 { index += 1 }
            fields.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        index += 1  // the one whitespace byte before the pixels
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]), fields[3] == "255",
              bytes.count - index >= width * height * 3
        else { throw HarnessError("not a 8-bit binary PPM: \(fields), \(bytes.count) bytes") }
        return Screenshot(width: width, height: height, rgb: Array(bytes[index..<index + width * height * 3]))
    }
}
