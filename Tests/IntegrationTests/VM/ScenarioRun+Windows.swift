import Foundation
import TestSupport

/// pipcam's windows on the guest's Xvfb (no window manager runs there).
extension ScenarioRun {
    /// The viewable pipcam windows (one xdotool run: spawning is slow under TCG).
    func visiblePipcamWindows() -> [XWindowID] {
        let result = try? run(["xdotool", "search", "--onlyvisible", "--classname", "^pipcam$"], timeout: 10)
        return result?.stdoutText.split(whereSeparator: \.isNewline).compactMap { XWindowID($0) } ?? []
    }

    /// Whether a pipcam window comes up within 10 s (under TCG, mapping and the PiP animation are
    /// slow); if not, the windows there are go to `windows.txt`.
    func windowUp() throws -> Bool {
        if try wait(10, until: { !visiblePipcamWindows().isEmpty }) { return true }
        write("windows.txt", windowsReport().joined(separator: "\n") + "\n")
        return false
    }

    /// Fails unless a pipcam window comes up (`what`: the situation).
    func requireWindow(_ what: String) throws {
        guard try windowUp() else {
            throw HarnessError("\(what): no visible pipcam window (pipcam windows: \(windowsReport().joined(separator: ";")))")
        }
    }

    /// "id role map-state geometry" of every pipcam window, for failure messages.
    func windowsReport() -> [String] {
        let windows = (try? x.windows(className: "pipcam")) ?? []
        return windows.map { window in
            let role = (try? x.property("WM_WINDOW_ROLE", of: window))?.strings.first ?? "-"
            let info = try? x.info(of: window)
            return "\(window) \(role) \(info.map { "\($0.mapState) \($0.frame)" } ?? "gone")"
        }
    }

    /// pipcam's main window (role `main`); fails if there is none.
    func mainWindow() throws -> XWindowID {
        guard let main = try x.windows(className: "pipcam", role: "main").first else {
            throw HarnessError("no pipcam window with the role 'main' (\(windowsReport().joined(separator: ";")))")
        }
        return main
    }

    /// `xdotool ARGUMENTS`; fails if it fails.
    func xdotool(_ arguments: [String]) throws {
        guard try run(["xdotool"] + arguments).succeeded else { throw HarnessError("xdotool \(arguments[0]) failed") }
    }
}
