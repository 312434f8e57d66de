import Foundation
import Glibc
import TestSupport
import Testing
import PipWindow

/// The parent of every pipcam X integration suite (files `Pip*Tests.swift`). Serialized: each
/// test runs its own Xvfb (and WM) and pipcam, and on 2 cores screenshots, drags and frame
/// timing stay trustworthy only when tests do not compete for the CPU.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PipTests {}

// MARK: Starting pipcam

/// The PiP window's identity (docs/BEHAVIOUR.md "Window identity").
enum PipIdentity {
    static let instance = "pipcam"
    static let className = "Pipcam"
    static let role = "PictureInPicture"
    static let title = "Picture in Picture"
}

extension XServer {
    /// Starts `pipcam --pip arguments…` and waits until its PiP window is viewable.
    /// Fails fast (with pipcam's stderr) if pipcam exits first.
    func startPip(
        _ arguments: [String], extraEnvironment: [String: String] = [:], timeout: Duration = .seconds(10)
    ) throws -> (process: RunningProcess, window: XWindowID) {
        let process = try startPipcam(["--pip"] + arguments, extraEnvironment: extraEnvironment)
        var seen: [String] = []
        do {
            let window = try poll(timeout: timeout, what: "the PiP window of `pipcam --pip \(arguments.joined(separator: " "))`") {
                () throws -> XWindowID? in
                if let ended = process.termination {
                    throw HarnessError("pipcam ended (\(ended)) before showing its PiP window; stderr:\n\(process.stderrText.suffix(1500))")
                }
                let candidates = try windows(className: PipIdentity.instance, role: PipIdentity.role)
                let states = try candidates.map { ($0, try info(of: $0)?.mapState ?? "gone") }
                seen = states.map { "\($0.0) \($0.1)" }
                let viewable = states.filter { $0.1 == "IsViewable" }.map(\.0)
                return viewable.count == 1 ? viewable[0] : nil
            }
            return (process, window)
        } catch let error as HarnessError {
            throw HarnessError("\(error); PiP windows at the deadline: \(seen); pipcam \(process.isRunning ? "running" : "ended"), stderr: \(process.stderrText.suffix(1000))")
        }
    }

    /// The geometry of pipcam's `window` once pipcam has handled every event sent before (a
    /// drag's motions and release, however busy the machine) and it has not changed for `quiet`
    /// (a window manager's move or placement settling).
    func settledGeometry(
        of window: XWindowID, quiet: Duration = .milliseconds(250), timeout: Duration = .seconds(5)
    ) throws -> XRect {
        try waitForPipcamToCatchUp(window, timeout: timeout)
        return try waitForStableGeometry(of: window, quietPeriod: quiet, timeout: timeout)
    }

    /// Pings pipcam's `window` as a window manager does (EWMH `_NET_WM_PING`) and waits for the
    /// answer: pipcam handles X events in order, so everything sent to it before has been handled.
    func waitForPipcamToCatchUp(_ window: XWindowID, timeout: Duration = .seconds(5)) throws {
        let result = try run(["python3", Self.pingScript, "\(window)", "\(timeout.seconds)"], timeout: timeout + .seconds(2))
        guard result.succeeded else {
            throw HarnessError("pipcam did not answer a _NET_WM_PING on \(window) within \(timeout): \(result.stderrText)")
        }
    }

    static let pingScript = Pipcam.packageRoot + "/Tests/Embedders/x-ping.py"

    /// Reads a 32-bit property as raw integers (xprop's own formatting of e.g. WM_SIZE_HINTS
    /// is multi-line prose); nil when the window does not have it.
    func rawIntegers(_ name: String, of window: XWindowID) throws -> [Int]? {
        let result = try run(["xprop", "-id", "\(window)", "-f", name, "32i", "=$0+", name])
        guard result.succeeded else { throw HarnessError("xprop on \(window): \(result.stderrText)") }
        let text = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let equals = text.firstIndex(of: "="), !text.contains("not found") else { return nil }
        return text[text.index(after: equals)...].split(separator: ",").compactMap {
            Int($0.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Watches the root window for any top-level window being mapped (xev on the root's
    /// substructure), from before `body` runs until after it returns. Returns the xev lines
    /// reporting a MapNotify, and `body`'s result.
    func watchingForMappedWindows<T>(_ body: () throws -> T) throws -> (mapped: [String], result: T) {
        let xev = try start(["stdbuf", "-oL", "xev", "-root", "-event", "substructure", "-event", "property"])
        defer { xev.terminate(grace: .milliseconds(200)) }
        // Prove xev is listening: change a root property until xev reports it.
        try waitUntil("xev to listen on the root window", timeout: .seconds(5)) {
            try runChecked(["xprop", "-root", "-f", "_PIPCAM_TEST_SENTINEL", "8s", "-set", "_PIPCAM_TEST_SENTINEL", "x"])
            return xev.stdoutText.contains("PropertyNotify")
        }
        let result = try body()
        Thread.sleep(forTimeInterval: 0.1)
        let mapped = xev.stdoutText.split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("MapNotify") || $0.hasPrefix("MapRequest") }.map(String.init)
        return (mapped, result)
    }
}

// MARK: WM_NORMAL_HINTS

/// WM_NORMAL_HINTS (ICCCM 4.1.2.3): 18 CARD32 values.
struct SizeHints: CustomStringConvertible {
    static let pMinSize = 1 << 4, pAspect = 1 << 7, pBaseSize = 1 << 8
    let values: [Int]
    init?(_ values: [Int]) {
        guard values.count >= 15 else { return nil }
        self.values = values
    }
    var flags: Int { values[0] }
    var minSize: (width: Int, height: Int) { (values[5], values[6]) }
    var minAspect: (Int, Int) { (values[11], values[12]) }
    var maxAspect: (Int, Int) { (values[13], values[14]) }
    var baseSize: (width: Int, height: Int)? { values.count >= 17 ? (values[15], values[16]) : nil }
    func has(_ flag: Int) -> Bool { flags & flag != 0 }
    var description: String { "WM_NORMAL_HINTS \(values)" }
}

// MARK: Stats lines

// `--stats` lines are read with PipWindow's `StatsLine`, the type pipcam writes them with.

/// The non-empty lines of `text`.
func lines(of text: String) -> [String] {
    text.split(whereSeparator: \.isNewline).map(String.init)
}

extension XServer {
    /// Writes `clip` into the FIFO at `fifo` and then keeps it open without writing more: a writer
    /// that stalls after its frames.
    @discardableResult
    func startStalledWriter(into fifo: String, from clip: String) throws -> RunningProcess {
        try start(["sh", "-c", "exec > \"$1\"; cat \"$2\"; exec sleep 600", "sh", fifo, clip])
    }
}

/// Waits until a thread of `process` waits in `open` for a FIFO's writer (its source starts:
/// everything before, such as checking the windows it was given and claiming its name, is done).
/// Where the kernel hides what threads wait in (every channel reads "0"), waits a second instead.
func waitUntilWaitingForAWriter(_ process: RunningProcess) throws {
    let clock = ContinuousClock(), started = clock.now
    var channelsShown = false
    try waitUntil("pipcam to open the FIFO", timeout: .seconds(10)) {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")) ?? []
        let channels = threads.compactMap { try? String(contentsOfFile: "/proc/\(process.pid)/task/\($0)/wchan", encoding: .utf8) }
        if channels.contains("wait_for_partner") { return true }
        // A running thread reads "0" too: only a second of nothing else means the kernel hides them.
        if channels.contains(where: { $0 != "0" && !$0.isEmpty }) { channelsShown = true }
        return !channelsShown && clock.now - started > .seconds(1)
    }
}
