import Foundation
import Glibc
import TestSupport

/// The Wayland compositors whose Xwayland the desktop tier runs pipcam under, as GNOME and KDE
/// Plasma run X11 applications in their Wayland sessions (docs/TESTING.md, "The desktop tier").
enum WaylandCompositor: String, Sendable, CaseIterable {
    case mutter, kwin
}

/// A headless `compositor` with its Xwayland, private to one test (own runtime directory, home and
/// session bus), as an `XServer` for X clients; stopping it ends the compositor and Xwayland.
///
/// The compositor starts a session script (mutter: its `-- COMMAND`; kwin: `--exit-with-session`)
/// with `DISPLAY` (and mutter's `XAUTHORITY`) set for Xwayland: the script writes them where the
/// harness reads them, so any number of sessions can run side by side.
func makeXWaylandServer(
    _ compositor: WaylandCompositor, width: Int = 1280, height: Int = 720, timeout: Duration = .seconds(30)
) throws -> XServer {
    let directory = try Scratch.makeDirectory("xwayland")
    chmod(directory, 0o700)
    let handshake = "\(directory)/session"
    let script = "\(directory)/session.sh"
    try """
        #!/bin/sh
        printf '%s\\n%s\\n' "$DISPLAY" "$XAUTHORITY" > '\(handshake).part' && mv '\(handshake).part' '\(handshake)'
        exec sleep 86400

        """.write(toFile: script, atomically: true, encoding: .utf8)
    chmod(script, 0o755)
    try FileManager.default.createDirectory(atPath: "\(directory)/home", withIntermediateDirectories: true)

    var environment = ProcessInfo.processInfo.environment
    for name in ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "QT_QPA_PLATFORM"] { environment[name] = nil }
    environment["HOME"] = "\(directory)/home"
    environment["XDG_RUNTIME_DIR"] = directory
    environment["GSETTINGS_BACKEND"] = "memory"
    environment["NO_AT_BRIDGE"] = "1"
    let command: [String]
    switch compositor {
    case .mutter:
        command = ["mutter", "--wayland", "--headless", "--virtual-monitor", "\(width)x\(height)",
                   "--wayland-display", "pipcam-wayland", "--", script]
    case .kwin:
        command = ["kwin_wayland", "--virtual", "--xwayland", "--width", "\(width)", "--height", "\(height)",
                   "--socket", "pipcam-wayland", "--exit-with-session", script]
    }
    let process = try RunningProcess(["dbus-run-session", "--"] + command, environment: environment)
    let lines: [String]
    do {
        lines = try poll(timeout: timeout, what: "\(compositor) to start its Xwayland") { () throws -> [String]? in
            if let ended = process.termination {
                throw HarnessError("\(compositor) ended (\(ended)) before its Xwayland was up: \(process.stderrText.suffix(1500))")
            }
            guard let text = try? String(contentsOfFile: handshake, encoding: .utf8) else { return nil }
            return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
    } catch {
        process.terminate(grace: .seconds(2))
        try? FileManager.default.removeItem(atPath: directory)
        throw error
    }
    let authority = lines.count > 1 ? lines[1] : ""
    let x = XServer(
        attachingTo: lines[0], ownedBy: process, directory: directory,
        extraEnvironment: authority.isEmpty ? [:] : ["XAUTHORITY": authority], width: width, height: height)
    // Up once it manages windows: a probe gets WM_STATE (Xwayland starts on the first client).
    let probe = try x.start(["xlogo", "-name", "pipcam-wm-probe", "-geometry", "40x40+0+0"])
    defer { probe.terminate(grace: .milliseconds(500)) }
    try waitUntil("\(compositor) to manage a probe window", timeout: .seconds(15)) {
        guard let window = try x.windows(className: "pipcam-wm-probe").first else { return false }
        return try x.property("WM_STATE", of: window) != nil
    }
    return x
}
