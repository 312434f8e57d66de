import Foundation
import Glibc
import TestSupport

/// kwin_wayland on a virtual output, without Xwayland, on a session bus of its own; it runs as
/// root, so its runtime directory is the test process's.
final class HeadlessKWin {
    /// Why kwin_wayland cannot run here, if it cannot.
    static let missing: String? = {
        if let tool = ["kwin_wayland", "dbus-run-session"].first(where: { !HeadlessSway.onPath($0) }) {
            return "\(tool) is not installed (scripts/bootstrap desktops)"
        }
        // Its file capability makes exec fail where a container refuses it (scripts/bootstrap).
        if (try? run(["kwin_wayland", "--version"], timeout: .seconds(5)))?.succeeded != true {
            return "kwin_wayland cannot start here (as root: setcap -r $(command -v kwin_wayland))"
        }
        return nil
    }()

    let directory: String
    let socket: String
    let width: Int, height: Int
    private let process: RunningProcess

    /// `grantingEverything`: its restricted interfaces too (fake input, for a pointer to drive).
    /// `scale`: the virtual output's (kwin_wayland's `--scale`: "1.5").
    init(width: Int = 640, height: Int = 360, scale: String = "1", grantingEverything: Bool = false,
         timeout: Duration = .seconds(20)) throws {
        (self.width, self.height) = (width, height)
        directory = try Scratch.makeDirectory("kwin")
        chmod(directory, 0o700)
        try FileManager.default.createDirectory(atPath: "\(directory)/home", withIntermediateDirectories: true)
        socket = "\(directory)/pipcam-kwin"
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "QT_QPA_PLATFORM"] {
            environment[name] = nil
        }
        environment["HOME"] = "\(directory)/home"
        environment["XDG_RUNTIME_DIR"] = directory
        if grantingEverything { environment["KWIN_WAYLAND_NO_PERMISSION_CHECKS"] = "1" }
        process = try RunningProcess(
            ["dbus-run-session", "--", "kwin_wayland", "--virtual", "--width", "\(width)", "--height", "\(height)", "--scale", scale,
             "--socket", "pipcam-kwin"],
            environment: environment)
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
