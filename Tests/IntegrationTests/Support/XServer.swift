import Foundation
import Glibc
import Synchronization
import TestSupport

/// A private Xvfb server, optionally with a window manager, for one test.
///
/// The display number comes from Xvfb itself (`-displayfd`), so any number of servers can
/// run side by side. Everything started through `start(_:)` runs in its own process group and
/// is killed, then the server, by `stop()`, which `deinit` also calls (so a failing test
/// cleans up as it unwinds).
///
///     let x = try XServer(windowManager: .openbox)
///     let pipcam = try x.startPipcam(["--pip", "--source", "test"])
///     let pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture")
final class XServer: Sendable {
    /// The display name, e.g. ":3".
    let display: String
    let width: Int
    let height: Int
    /// The window manager running now (`replaceWindowManager(with:)` changes it).
    var windowManager: WindowManager { currentWindowManager.withLock { $0 } }
    /// A private temporary directory (also the children's XDG_RUNTIME_DIR, and the parent of their
    /// XDG_STATE_HOME and XDG_CONFIG_HOME), removed on stop.
    let directory: String
    /// The environment for X clients of this server: the test's own, with DISPLAY and
    /// XDG_RUNTIME_DIR pointing here and no Wayland or session-bus variables.
    let environment: [String: String]

    private let xvfb: RunningProcess
    private let children = Mutex<[RunningProcess]>([])
    let windowManagerProcess = Mutex<RunningProcess?>(nil)
    let currentWindowManager: Mutex<WindowManager>

    /// Starts Xvfb with a `width`x`height`x24 screen and waits until it accepts clients,
    /// then starts `windowManager` and waits until it manages the screen.
    /// `i3Config` lines are appended to the minimal i3 configuration. `monitors` (RandR 1.5
    /// monitors, which the server's Xinerama reports too; the first is the primary) split the
    /// screen before the window manager starts: Xvfb has one monitor otherwise. `dpi` sets the
    /// screen's size in millimetres (192: a high-DPI screen). `serverArguments` go to Xvfb as well
    /// (`-extension MIT-SHM`: a server without shared memory).
    init(
        width: Int = 1280, height: Int = 720, monitors: [XRect] = [], windowManager: WindowManager = .none,
        i3Config: String = "", dpi: Int? = nil, serverArguments: [String] = [], timeout: Duration = .seconds(10)
    ) throws {
        self.width = width
        self.height = height
        currentWindowManager = Mutex(windowManager)
        directory = try Scratch.makeDirectory("xserver")
        chmod(directory, 0o700)

        let (readEnd, writeEnd) = try makeCloseOnExecPipe()
        defer { close(readEnd) }
        let command = [
            "Xvfb", "-displayfd", "3", "-screen", "0", "\(width)x\(height)x24",
            "-nolisten", "tcp", "-noreset",
        ] + (dpi.map { ["-dpi", "\($0)"] } ?? []) + serverArguments
        do {
            xvfb = try RunningProcess(command, extraDescriptors: [3: writeEnd])
        } catch {
            close(writeEnd)
            throw error
        }
        close(writeEnd)  // only Xvfb holds it now: EOF if it dies before writing

        do {
            let number = try Self.readDisplayNumber(from: readEnd, timeout: timeout, xvfb: xvfb)
            display = ":\(number)"
        } catch {
            xvfb.terminate(grace: .milliseconds(200))
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }

        environment = Self.clientEnvironment(display: display, directory: directory)

        do {
            try setMonitors(monitors)
        } catch {
            stop()
            throw error
        }
        if windowManager != .none {
            do {
                try startWindowManager(windowManager, i3Config: i3Config, timeout: timeout)
            } catch {
                stop()
                throw error
            }
        }
    }

    /// An X server another process runs and owns — a Wayland compositor's Xwayland
    /// (`XWaylandSession.swift`): `server` is stopped last, as Xvfb is; `extraEnvironment` (e.g.
    /// `XAUTHORITY`) is added to what clients get.
    init(
        attachingTo display: String, ownedBy server: RunningProcess, directory: String,
        extraEnvironment: [String: String], width: Int, height: Int
    ) {
        self.width = width
        self.height = height
        self.display = display
        self.directory = directory
        currentWindowManager = Mutex(.none)
        xvfb = server
        environment = Self.clientEnvironment(display: display, directory: directory).merging(extraEnvironment) { $1 }
    }

    /// The test's environment for X clients of `display`: no Wayland or session-bus variables, and
    /// runtime, state and config directories of their own under `directory`.
    private static func clientEnvironment(display: String, directory: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY", "DESKTOP_STARTUP_ID"] {
            environment[name] = nil
        }
        environment["DISPLAY"] = display
        environment["XDG_RUNTIME_DIR"] = directory
        // pipcam remembers the PiP window's place and reads a config file: each server's clients get
        // their own, so tests never see each other's (or the user's) state.
        environment["XDG_STATE_HOME"] = directory + "/state"
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        return environment
    }

    deinit { stop() }

    /// Makes `monitors` the server's monitors: the first takes over the screen's one output (which
    /// ends the whole-screen monitor), the others have none. Kept because the server never resets.
    func setMonitors(_ monitors: [XRect]) throws {
        for (i, m) in monitors.enumerated() {
            // Millimetres at 96 dpi; RandR wants them, nothing here reads them.
            let geometry = "\(m.width)/\(m.width * 254 / 960)x\(m.height)/\(m.height * 254 / 960)+\(m.x)+\(m.y)"
            let result = try run(["xrandr", "--setmonitor", "M\(i)", geometry, i == 0 ? "screen" : "none"])
            guard result.succeeded else { throw HarnessError("xrandr --setmonitor M\(i) \(geometry): \(result.stderrText)") }
        }
    }

    /// Kills every process started on this server (SIGTERM, then SIGKILL), the window manager,
    /// then Xvfb, and removes the temporary directory. Safe to call more than once.
    func stop() {
        let started = children.withLock { list in
            defer { list.removeAll() }
            return list
        }
        for process in started.reversed() { process.terminate(grace: .seconds(2)) }
        windowManagerProcess.withLock { $0 }?.terminate(grace: .seconds(2))
        xvfb.terminate(grace: .seconds(2))
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A few lines on the server's state for failure messages: the WM and the top-level windows.
    func diagnostics() -> String {
        var lines = ["display \(display), Xvfb \(xvfb.isRunning ? "running" : "ended")"]
        if let manager = windowManagerProcess.withLock({ $0 }) {
            lines.append("\(windowManager): \(manager.termination.map { "ended, \($0)" } ?? "running")"
                + " stderr: \(manager.stderrText.suffix(500))")
        }
        if let tree = try? run(["xwininfo", "-root", "-children"], timeout: .seconds(3)) {
            lines.append(tree.stdoutText.split(whereSeparator: \.isNewline).suffix(20).joined(separator: "\n"))
        }
        return lines.joined(separator: "\n")
    }

    /// The process id of Xvfb.
    var serverPID: pid_t { xvfb.pid }

    /// Whether Xvfb is still running.
    var isRunning: Bool { xvfb.isRunning }

    /// Starts a long-running X client on this server; it is stopped with the server.
    /// `extraEnvironment` overrides variables of `environment`.
    func start(
        _ command: [String], extraEnvironment: [String: String] = [:], stdin: StandardInput = .null
    ) throws -> RunningProcess {
        let process = try RunningProcess(
            command, environment: environment.merging(extraEnvironment) { $1 }, stdin: stdin)
        children.withLock { $0.append(process) }
        return process
    }

    /// Runs a short X client command on this server to completion.
    func run(_ command: [String], timeout: Duration = .seconds(10)) throws -> ProcessResult {
        try IntegrationTests.run(command, environment: environment, timeout: timeout)
    }

    /// Like `run`, but a non-zero exit throws.
    @discardableResult
    func runChecked(_ command: [String], timeout: Duration = .seconds(10)) throws -> ProcessResult {
        try IntegrationTests.runChecked(command, environment: environment, timeout: timeout)
    }

    // MARK: Startup

    private static func readDisplayNumber(from fd: Int32, timeout: Duration, xvfb: RunningProcess) throws -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var text = ""
        while !text.contains("\n") {
            let left = deadline - clock.now
            guard left > .zero else {
                throw HarnessError.timedOut("Xvfb to report its display", after: timeout, detail: xvfb.stderrText)
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = Glibc.poll(&descriptor, 1, Int32(max(1, left.seconds * 1000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let ended = (try? xvfb.wait(timeout: .seconds(1)))?.termination.description ?? "still running"
                throw HarnessError("Xvfb closed -displayfd without a display number (\(ended)): \(xvfb.stderrText.suffix(1500))")
            }
            text += String(decoding: buffer[..<count], as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("Xvfb wrote '\(text)' to -displayfd, not a display number")
        }
        return number
    }
}
