import Foundation
import Glibc
import TestSupport

/// weston on its headless backend, in a runtime directory of its own: a compositor with xdg-shell
/// and no overlay layer (as GNOME's), for the fallback to X11. `socket` is its absolute path.
final class HeadlessWeston {
    /// Why weston cannot run here, if it cannot.
    static let missing: String? = HeadlessSway.onPath("weston") ? nil : "weston is not installed (scripts/bootstrap wayland)"

    let directory: String
    let socket: String
    private let process: RunningProcess

    init(timeout: Duration = .seconds(10)) throws {
        directory = try Scratch.makeDirectory("weston")
        chmod(directory, 0o700)
        socket = "\(directory)/pipcam-weston"
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"] { environment[name] = nil }
        environment["XDG_RUNTIME_DIR"] = directory
        process = try RunningProcess(
            ["weston", "--backend=headless-backend.so", "--socket=pipcam-weston", "--idle-time=0"], environment: environment)
        do {
            try process.waitForSocket(socket, timeout: timeout)
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    func stop() {
        process.terminate(grace: .seconds(2))
        try? FileManager.default.removeItem(atPath: directory)
    }
}

extension RunningProcess {
    /// Waits until this compositor's socket `path` is there; throws with its log when it ends first.
    func waitForSocket(_ path: String, timeout: Duration) throws {
        try waitUntil("\(command[0])'s socket \(path)", timeout: timeout) {
            if let ended = termination {
                throw HarnessError("\(command.joined(separator: " ")) ended (\(ended)) before its socket appeared: \(stderrText.suffix(1500))")
            }
            return FileManager.default.fileExists(atPath: path)
        }
    }
}
