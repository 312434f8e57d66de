import Foundation
import Glibc
import Synchronization
import TestSupport

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
            Spawner.forget(pid)
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

    /// Waits until stderr (or stdout) contains `text` and returns all of it so far; throws if
    /// the process ends first or `timeout` passes. For lines like `--stats` output.
    @discardableResult
    func waitForOutput(
        containing text: String, inStderr: Bool = true, timeout: Duration = .seconds(10)
    ) throws -> String {
        try poll(timeout: timeout, what: "\(self) to print '\(text)' (so far: \((inStderr ? stderrText : stdoutText).suffix(500)))") {
            let output = inStderr ? stderrText : stdoutText
            if output.contains(text) { return output }
            if let ended = termination {
                throw HarnessError("\(self) ended (\(ended)) without printing '\(text)': \(output.suffix(1000))")
            }
            return nil
        }
    }

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
            if known != nil { Spawner.forget(pid) }
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
