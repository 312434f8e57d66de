import Foundation
import Glibc
import Synchronization
import TestSupport
import PipWindow

/// One line a process wrote to stderr, with the guest uptime at which it came.
struct StampedLine: Sendable {
    let time: Double
    let text: String
    /// The line parsed as a `--stats` line, if it is one.
    let stats: StatsLine?
}

/// A child process whose stderr is read line by line as it comes and kept stamped with the guest
/// uptime, in memory and in `NAME.log` (a last line `exit=N` once it ended); its stdout goes to
/// `NAME.log.stdout`. The tier's times are read from these stamps, as the stats lines come once a
/// second.
final class StampedProcess: Sendable, CustomStringConvertible {
    let name: String
    let process: RunningProcess
    let logPath: String
    private let state = Mutex(State())

    private struct State {
        var lines: [StampedLine] = []
        var exit: (code: Int32, time: Double)?
    }

    var pid: pid_t { process.pid }
    var description: String { "\(name) (pid \(pid))" }

    /// Starts `command` with `environment`, its logs in `directory`.
    init(name: String, command: [String], environment: [String: String], directory: String) throws {
        let logPath = "\(directory)/\(name).log"
        self.name = name
        self.logPath = logPath
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let output = open("\(logPath).stdout", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw HarnessError("cannot create \(logPath).stdout: \(String(cString: strerror(errno)))") }
        defer { close(output) }
        let (readEnd, writeEnd) = try makeCloseOnExecPipe()
        do {
            process = try RunningProcess(command, environment: environment, extraDescriptors: [1: output, 2: writeEnd])
        } catch {
            close(readEnd)
            close(writeEnd)
            throw error
        }
        close(writeEnd)  // the child's copy is the only one: end of file when it (and its children) end
        Thread.detachNewThread { [self] in self.readStderr(readEnd) }
    }

    /// Reads the pipe to its end, stamping and logging each line, then records the exit.
    private func readStderr(_ fd: Int32) {
        let log = FileHandle(forWritingAtPath: logPath)
        defer {
            try? log?.close()
            close(fd)
        }
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        func add(_ line: Data) {
            let time = GuestClock.now()
            let text = String(decoding: line, as: UTF8.self)
            let stamped = StampedLine(time: time, text: text, stats: StatsLine(text))
            state.withLock { $0.lines.append(stamped) }
            log?.write(Data("\(GuestClock.format(time)) \(text)\n".utf8))
        }
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                add(pending[pending.startIndex..<newline])
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        if !pending.isEmpty { add(pending) }
        // Reaped here or by a test's check: either way the termination is known now or soon.
        let ended = (try? process.wait(timeout: .seconds(3600)))?.termination ?? .signaled(SIGKILL)
        let code: Int32 = switch ended {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
        let time = GuestClock.now()
        log?.write(Data("\(GuestClock.format(time)) exit=\(code)\n".utf8))
        state.withLock { $0.exit = (code, time) }
    }

    // MARK: What it wrote

    var lines: [StampedLine] { state.withLock { $0.lines } }
    /// The exit code (128 + N for signal N) once the process ended and its stderr was read to the end.
    var exitCode: Int32? { state.withLock { $0.exit?.code } }
    /// When the end was seen.
    var exitTime: Double? { state.withLock { $0.exit?.time } }
    var hasExited: Bool { exitCode != nil }
    var stdoutText: String { (try? String(contentsOfFile: "\(logPath).stdout", encoding: .utf8)) ?? "" }

    /// The first line stamped at or after `after` for which `matches` holds.
    func firstLine(after: Double = 0, where matches: (StampedLine) -> Bool) -> StampedLine? {
        state.withLock { $0.lines.first { $0.time >= after && matches($0) } }
    }
    func firstLine(after: Double = 0, containing text: String) -> StampedLine? {
        firstLine(after: after) { $0.text.contains(text) }
    }

    /// The first stats line stamped at or after `after` for which `matches` holds.
    func firstStats(after: Double = 0, where matches: (StatsLine) -> Bool = { _ in true }) -> (time: Double, stats: StatsLine)? {
        firstLine(after: after) { $0.stats.map(matches) ?? false }.map { ($0.time, $0.stats!) }
    }

    /// The last stats line and its stamp.
    var lastStampedStats: (time: Double, stats: StatsLine)? {
        state.withLock { $0.lines.last { $0.stats != nil } }.map { ($0.time, $0.stats!) }
    }
    var lastStats: StatsLine? { lastStampedStats?.stats }
    /// The last stats line as text, for failure messages.
    var lastStatsText: String { lastStats?.description ?? "" }

    /// The last line that is neither a stats line nor empty: what pipcam said last.
    var lastMessage: String {
        state.withLock { $0.lines.last { $0.stats == nil && !$0.text.trimmingCharacters(in: .whitespaces).isEmpty } }?.text ?? ""
    }

    /// Lines containing `text` stamped in (after, until].
    func count(_ text: String, after: Double, until: Double) -> Int {
        state.withLock { $0.lines.count(where: { $0.time > after && $0.time <= until && $0.text.contains(text) }) }
    }
}

extension StatsLine {
    /// Frames flow: `streaming`, or `interrupted:pressure` (throttled under load, frames still shown).
    var isLive: Bool { camera == .streaming || camera == .interrupted(.pressure) }
}

extension StampedProcess {
    /// A stats line (at or after `after`) with shown >= `count`.
    func shown(atLeast count: Int, after: Double = 0) -> Bool {
        firstStats(after: after) { $0.shown >= count } != nil
    }
    /// A live stats line (see `isLive`) at or after `after` with shown >= `count`.
    func streaming(shownAtLeast count: Int, after: Double) -> (time: Double, stats: StatsLine)? {
        firstStats(after: after) { $0.isLive && $0.shown >= count }
    }
}
