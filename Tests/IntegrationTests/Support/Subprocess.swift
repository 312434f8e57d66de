import Foundation
import Glibc
import Synchronization

/// How a child process ended.
enum Termination: Sendable, Equatable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)

    var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signaled(let signal): "signal \(signal) (\(String(cString: strsignal(signal))))"
        }
    }
}

/// The outcome of a finished child process.
struct ProcessResult: Sendable, CustomStringConvertible {
    let command: [String]
    let termination: Termination
    let stdout: Data
    let stderr: Data

    /// The exit code, or nil when a signal ended the process.
    var exitCode: Int32? {
        if case .exited(let code) = termination { return code }
        return nil
    }
    var succeeded: Bool { termination == .exited(0) }
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    var description: String {
        "`\(command.joined(separator: " "))` ended with \(termination)"
            + (stderr.isEmpty ? "" : "; stderr:\n\(stderrText.suffix(2000))")
    }
}

/// What a harness helper reports when something it waited for did not happen.
struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    static func timedOut(_ what: String, after timeout: Duration, detail: String = "") -> HarnessError {
        HarnessError("timed out after \(timeout) waiting for \(what)" + (detail.isEmpty ? "" : ": \(detail)"))
    }
}

/// Where a child's standard input comes from.
enum StandardInput: Sendable {
    case null
    case file(String)
    /// Written to a temporary file first, so the child reads it at its own pace.
    case data(Data)
}

/// A child process started in its own process group, with stdout and stderr captured to
/// temporary files (no pipes, so a chatty child never blocks and a reader never deadlocks).
///
/// The process (and its whole group) is killed when the object goes away without having
/// been waited for, so a failing test never leaves it behind.
final class RunningProcess: Sendable, CustomStringConvertible {
    let pid: pid_t
    let command: [String]
    private let stdoutPath: String
    private let stderrPath: String
    private let stdinPath: String?
    private let state = Mutex<Termination?>(nil)

    var description: String { "\(command.first ?? "?") (pid \(pid))" }

    /// Starts `command` (looked up on PATH) with exactly `environment`
    /// (the test process's own when nil).
    /// `extraDescriptors` maps a child fd number to a parent fd to dup into it.
    init(
        _ command: [String], environment: [String: String]? = nil, stdin: StandardInput = .null,
        extraDescriptors: [Int32: Int32] = [:]
    ) throws {
        precondition(!command.isEmpty, "empty command")
        self.command = command
        let directory = Scratch.directory
        let stem = "\(directory)/\(UUID().uuidString.prefix(8))-\((command[0] as NSString).lastPathComponent)"
        stdoutPath = stem + ".out"
        stderrPath = stem + ".err"
        var input = "/dev/null"
        switch stdin {
        case .null: stdinPath = nil
        case .file(let path): stdinPath = nil; input = path
        case .data(let data):
            stdinPath = stem + ".in"
            input = stem + ".in"
            try data.write(to: URL(fileURLWithPath: input))
        }
        pid = try Spawner.spawn(
            command, environment: environment ?? ProcessInfo.processInfo.environment,
            stdin: input, stdout: stdoutPath, stderr: stderrPath, extraDescriptors: extraDescriptors)
    }

    deinit {
        if state.withLock({ $0 == nil }) {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
        for path in [stdoutPath, stderrPath, stdinPath].compactMap({ $0 }) {
            unlink(path)
        }
    }

    /// What the process wrote to stdout so far (also while it is running).
    var stdout: Data { (try? Data(contentsOf: URL(fileURLWithPath: stdoutPath))) ?? Data() }
    var stderr: Data { (try? Data(contentsOf: URL(fileURLWithPath: stderrPath))) ?? Data() }
    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    /// The termination, if the process has ended (reaps it without blocking).
    var termination: Termination? {
        state.withLock { known in
            if let known { return known }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                known = Self.decode(status)
            } else if reaped == -1 && errno == ECHILD {
                known = .exited(-1)  // reaped elsewhere; nothing more to learn
            }
            return known
        }
    }
    var isRunning: Bool { termination == nil }

    /// Sends `signal` to the process (or to its whole process group).
    func send(_ signal: Int32, toGroup: Bool = false) {
        guard isRunning else { return }
        kill(toGroup ? -pid : pid, signal)
    }

    /// Waits for the process to end; throws (leaving it running) if it does not within `timeout`.
    @discardableResult
    func wait(timeout: Duration) throws -> ProcessResult {
        let ended = try poll(timeout: timeout, what: "\(self) to exit") { self.termination }
        return ProcessResult(command: command, termination: ended, stdout: stdout, stderr: stderr)
    }

    /// SIGTERM to the process group, then SIGKILL if it has not ended after `grace`.
    @discardableResult
    func terminate(grace: Duration = .seconds(2)) -> ProcessResult {
        if isRunning {
            kill(-pid, SIGTERM)
            if let result = try? wait(timeout: grace) { return result }
            kill(-pid, SIGKILL)
        }
        // SIGKILL cannot be ignored; the bound only guards against a stuck kernel (D state).
        if let result = try? wait(timeout: .seconds(10)) { return result }
        return ProcessResult(command: command, termination: .signaled(SIGKILL), stdout: stdout, stderr: stderr)
    }

    private static func decode(_ status: Int32) -> Termination {
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}

/// Runs `command` to completion and captures its output. Throws if it does not end within
/// `timeout` (it is killed first); a non-zero exit is reported in the result, not thrown.
func run(
    _ command: [String], environment: [String: String]? = nil, stdin: StandardInput = .null,
    timeout: Duration = .seconds(10)
) throws -> ProcessResult {
    let process = try RunningProcess(command, environment: environment, stdin: stdin)
    do {
        return try process.wait(timeout: timeout)
    } catch {
        let partial = process.terminate(grace: .milliseconds(200))
        throw HarnessError.timedOut(
            "`\(command.joined(separator: " "))`", after: timeout,
            detail: "stdout: \(partial.stdoutText.suffix(500)) stderr: \(partial.stderrText.suffix(500))")
    }
}

/// Like `run`, but a non-zero exit throws, with the command's stderr in the message.
@discardableResult
func runChecked(
    _ command: [String], environment: [String: String]? = nil, stdin: StandardInput = .null,
    timeout: Duration = .seconds(10)
) throws -> ProcessResult {
    let result = try run(command, environment: environment, stdin: stdin, timeout: timeout)
    guard result.succeeded else { throw HarnessError("\(result)") }
    return result
}

/// Per-test-process scratch directory for captured output and generated files.
enum Scratch {
    static let directory: String = {
        let path = NSTemporaryDirectory() + "pipcam-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.directory) }
        return path
    }()

    /// A new empty directory under the scratch directory.
    static func makeDirectory(_ prefix: String) throws -> String {
        let path = "\(directory)/\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// posix_spawn with a new process group, default signal dispositions and an empty mask.
private enum Spawner {
    /// Serialises spawns and descriptor creation: glibc as seen from Swift has no pipe2 or
    /// closefrom, so a descriptor is briefly inheritable before FD_CLOEXEC is set on it.
    static let lock = Mutex(())

    static func spawn(
        _ command: [String], environment: [String: String], stdin: String, stdout: String,
        stderr: String, extraDescriptors: [Int32: Int32]
    ) throws -> pid_t {
        try lock.withLock { _ in
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            for (child, parent) in extraDescriptors {
                posix_spawn_file_actions_adddup2(&actions, parent, child)
            }

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
                sigaddset(&defaults, signal)
            }
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

            let argv = command.map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                argv.forEach { free($0) }
                envp.forEach { free($0) }
            }
            var pid: pid_t = 0
            let error = posix_spawnp(&pid, command[0], &actions, &attributes, argv, envp)
            guard error == 0 else {
                throw HarnessError("cannot start `\(command[0])`: \(String(cString: strerror(error)))"
                    + (error == ENOENT ? " (not on PATH; run scripts/bootstrap test)" : ""))
            }
            return pid
        }
    }

    /// A pipe whose ends are both close-on-exec (dup2 into a child clears it there).
    static func makePipe() throws -> (read: Int32, write: Int32) {
        try lock.withLock { _ in
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw HarnessError("pipe: \(String(cString: strerror(errno)))") }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return (fds[0], fds[1])
        }
    }
}

/// A close-on-exec pipe, for handing a descriptor such as Xvfb's `-displayfd` to a child.
func makeCloseOnExecPipe() throws -> (read: Int32, write: Int32) { try Spawner.makePipe() }
