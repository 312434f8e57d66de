import Foundation
import Glibc
import TestSupport
import PipWindow

/// One scenario while it runs: its folder `OUT/NAME` (logs stamped with the guest uptime,
/// `metrics`, `notes`), the processes it started (ended when it ends, whatever happened), and
/// its time limit, which cuts every wait and pause in it.
final class ScenarioRun {
    let scenario: VMScenario
    let directory: String
    let x: XServer
    /// The pipcam binary under test (the release one, `PIPCAM_BINARY`).
    let pipcam: String
    private let deadline: ContinuousClock.Instant
    private(set) var processes: [StampedProcess] = []
    private var lastNote = ""

    init(_ scenario: VMScenario, directory: String, x: XServer, pipcam: String) throws {
        self.scenario = scenario
        self.directory = directory
        self.x = x
        self.pipcam = pipcam
        deadline = ContinuousClock.now + .seconds(scenario.limitSeconds)
        _ = FileManager.default.createFile(atPath: "\(directory)/metrics", contents: nil)
    }

    // MARK: Records

    /// A line `name=value` in `metrics` (the host prints them under the scenario's result).
    func metric(_ name: String, _ value: some CustomStringConvertible) {
        append("metrics", "\(name)=\(value)")
    }
    func metric(_ name: String, seconds: Double) { metric(name, GuestClock.format(seconds)) }

    /// A stamped line in `notes`; the last one names the step a timed-out scenario was at.
    func note(_ text: String) {
        lastNote = text
        append("notes", "\(GuestClock.format(GuestClock.now())) \(text)")
    }

    /// Appends `line` to the scenario's file `name`.
    func append(_ name: String, _ line: String) { appendLine("\(directory)/\(name)", line) }

    /// Writes the scenario's file `name`.
    func write(_ name: String, _ text: String) {
        _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data(text.utf8))
    }

    // MARK: Processes

    /// Starts `command` on the guest's display (with `extra` in its environment), its stderr
    /// stamped into `NAME.log`.
    func start(_ name: String, _ command: [String], environment extra: [String: String] = [:]) throws -> StampedProcess {
        let environment = x.environment.merging(extra) { $1 }
        let process = try StampedProcess(name: name, command: command, environment: environment, directory: directory)
        processes.append(process)
        note("started \(name) pid \(process.pid): \(command.joined(separator: " "))")
        return process
    }

    /// Runs `command` to completion on the guest's display (with `extra` in its environment),
    /// within the scenario's limit.
    func run(_ command: [String], timeout seconds: Double = 30, environment extra: [String: String] = [:]) throws -> ProcessResult {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw limitExceeded() }
        do {
            let environment = x.environment.merging(extra) { $1 }
            return try IntegrationTests.run(command, environment: environment, timeout: min(.seconds(seconds), left))
        } catch {
            try checkLimit()
            throw error
        }
    }

    /// Ends every process the scenario started that still runs (SIGTERM, SIGKILL 3 s later) and
    /// waits for their logs to be complete.
    func stopAll() {
        for process in processes.reversed() where !process.hasExited {
            process.process.terminate(grace: .seconds(3))
            _ = eventually(timeout: .seconds(5)) { process.hasExited }
        }
    }

    // MARK: Time

    /// Polls `condition` for up to `seconds` (less when the scenario's limit comes first, which
    /// then throws): whether it came to hold. At most every 0.1 s: many conditions start a process
    /// (v4l2-ctl, xdotool, pipcam status), which under TCG takes CPU time the camera's path needs.
    func wait(_ seconds: Double, until condition: () -> Bool) throws -> Bool {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw limitExceeded() }
        var next = ContinuousClock.now
        let held = eventually(timeout: min(.seconds(seconds), left)) {
            let early = next - ContinuousClock.now
            if early > .zero { Thread.sleep(forTimeInterval: early.seconds) }
            next = ContinuousClock.now + .milliseconds(100)
            return condition()
        }
        if held { return true }
        try checkLimit()
        return false
    }

    /// Sleeps `seconds` (throws if the scenario's limit comes first).
    func pause(_ seconds: Double) throws {
        let left = deadline - ContinuousClock.now
        Thread.sleep(forTimeInterval: max(0, min(seconds, left.seconds)))
        try checkLimit()
    }

    private func checkLimit() throws {
        if ContinuousClock.now >= deadline { throw limitExceeded() }
    }

    private func limitExceeded() -> HarnessError {
        HarnessError("timed out after \(scenario.limitSeconds)s" + (lastNote.isEmpty ? "" : " (last step: \(lastNote))"))
    }

    // MARK: Checks

    /// Over every stats line pipcam printed: each one of the contract, and `shown` and `dropped`
    /// never going down.
    func checkCounters() throws {
        for process in processes where process.name == "pipcam" {
            var previous: StatsLine?
            for line in process.lines where line.text.hasPrefix("pipcam: state=") {
                guard let stats = line.stats else { throw HarnessError("stats: not a stats line of the contract: \(line.text)") }
                if let previous, stats.shown < previous.shown || stats.dropped < previous.dropped {
                    throw HarnessError(
                        "stats: counter went down (shown \(previous.shown) -> \(stats.shown), dropped \(previous.dropped) -> \(stats.dropped)): \(line.text)")
                }
                previous = stats
            }
        }
    }
}

/// Appends `line` (and a newline, unless it ends with one) to the file at `path`, creating it.
func appendLine(_ path: String, _ line: String) {
    if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    guard let file = FileHandle(forWritingAtPath: path) else { return }
    file.seekToEndOfFile()
    file.write(Data((line.hasSuffix("\n") ? line : line + "\n").utf8))
    try? file.close()
}
