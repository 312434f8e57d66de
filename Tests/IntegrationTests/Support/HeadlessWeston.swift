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
            try waitUntil("weston's socket \(socket)", timeout: timeout) {
                if let ended = process.termination {
                    throw HarnessError("weston ended (\(ended)) before its socket appeared: \(process.stderrText.suffix(1500))")
                }
                return FileManager.default.fileExists(atPath: socket)
            }
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
