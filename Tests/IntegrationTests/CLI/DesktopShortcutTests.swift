import Foundation
import TestSupport
import Testing

/// docs/USAGE.md's desktop-shortcut lines for Wayland sessions, run as written in a private home:
/// GNOME's against a private dconf (as far as gsettings goes), KDE's under Plasma 5.27's
/// kglobalaccel5 on Xvfb, where the key must then toggle a running pipcam.
@Suite struct DesktopShortcutTests {
    static let schema = "org.gnome.settings-daemon.plugins.media-keys"
    static let customPath = "/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings/"

    /// A private HOME, config, data and runtime folder under `root`, and no session bus: what the
    /// lines write cannot reach the developer's desktop.
    static func privateSession(in root: String) throws -> [String: String] {
        for sub in ["home", "config", "data", "runtime"] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(sub)", withIntermediateDirectories: true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: "\(root)/runtime")
        let binaries = (try Pipcam.binaryPath() as NSString).deletingLastPathComponent
        return [
            "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "HOME": "\(root)/home", "XDG_CONFIG_HOME": "\(root)/config", "XDG_DATA_HOME": "\(root)/data",
            "XDG_RUNTIME_DIR": "\(root)/runtime",
        ]
    }

    /// Runs `script` in `sh` on a session bus of its own (gsettings writes through dconf's service).
    static func inSession(_ script: String, _ environment: [String: String]) throws -> ProcessResult {
        let result = try run(
            ["dbus-run-session", "--", "sh", "-euc", script], environment: environment, timeout: .seconds(20))
        guard result.succeeded else { throw HarnessError("dbus-run-session sh: \(result)") }
        return result
    }

    static func gsettingsGet(_ keys: [(schema: String, key: String)], _ environment: [String: String]) throws -> [String] {
        let script = keys.map { "gsettings get \($0.schema) \($0.key)" }.joined(separator: "\n")
        return try inSession(script, environment).stdoutText.split(separator: "\n").map(String.init)
    }

    @Test(arguments: [false, true])
    func theGnomeLinesAddTheShortcutAndKeepTheUsersOwn(userHasOne: Bool) throws {
        let lines = try DocBlock.text("gnome-shortcut", in: "docs/USAGE.md")
        let root = try Scratch.makeDirectory("gnome-shortcut")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let environment = try Self.privateSession(in: root)
        let own = Self.customPath + "custom0/"
        if userHasOne {
            _ = try Self.inSession("""
                gsettings set \(Self.schema) custom-keybindings "['\(own)']"
                gsettings set \(Self.schema).custom-keybinding:\(own) command 'xterm'
                gsettings set \(Self.schema).custom-keybinding:\(own) binding '<Super>t'
                """, environment)
        }
        // Twice, each in a session of its own: the settings persist, and a second run adds nothing.
        _ = try Self.inSession(lines, environment)
        _ = try Self.inSession(lines, environment)

        let pipcam = "\(Self.schema).custom-keybinding:\(Self.customPath)pipcam/"
        let values = try Self.gsettingsGet([
            (Self.schema, "custom-keybindings"), (pipcam, "name"), (pipcam, "command"), (pipcam, "binding"),
            ("\(Self.schema).custom-keybinding:\(own)", "command"),
        ], environment)
        let list = (userHasOne ? ["'\(own)'"] : []) + ["'\(Self.customPath)pipcam/'"]
        #expect(values == [
            "[\(list.joined(separator: ", "))]", "'pipcam toggle'", "'pipcam toggle'", "'<Super><Shift>p'",
            userHasOne ? "'xterm'" : "''",
        ])
    }

    @Test func theKdeLinesMakeMetaShiftPTogglePipUnderKglobalaccel() throws {
        let lines = try DocBlock.text("kde-shortcut", in: "docs/USAGE.md")
        let x = try makeServer(.none)
        let environment = try Self.privateSession(in: "\(x.directory)/kde")
        _ = try runChecked(["sh", "-euc", lines], environment: environment)

        let desktop = try String(
            contentsOfFile: "\(environment["XDG_DATA_HOME"]!)/applications/pipcam-toggle.desktop", encoding: .utf8)
        #expect(desktop.contains("\nExec=pipcam toggle\n"))
        let shortcuts = try String(contentsOfFile: "\(environment["XDG_CONFIG_HOME"]!)/kglobalshortcutsrc", encoding: .utf8)
        #expect(shortcuts.contains("[pipcam-toggle.desktop]\n"), "\(shortcuts)")

        _ = try x.startPipcam(["--source", "test"])
        _ = try x.waitForWindow(className: "pipcam", role: "main")
        // The daemon answers D-Bus calls once it has loaded its file and grabbed the keys. Called
        // only once it owns its name: a call before would have the bus start a second one.
        let daemon = try x.start(["dbus-run-session", "--", "sh", "-c", """
            kglobalaccel5 & daemon=$!
            until gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus \
                -m org.freedesktop.DBus.NameHasOwner org.kde.kglobalaccel | grep -q true; do sleep 0.1; done
            components=$(gdbus call --session -d org.kde.kglobalaccel -o /kglobalaccel -m org.kde.KGlobalAccel.allComponents)
            echo "ready: $components"
            wait $daemon
            """], extraEnvironment: environment)
        let ready = try daemon.waitForOutput(containing: "ready:", inStderr: false, timeout: .seconds(20))
        #expect(ready.contains("pipcam"), "\(ready)")
        #expect(try x.pipcamStateAfterEarlierEvents() == "idle")

        for state in ["active", "idle"] {
            try x.runChecked(["xdotool", "key", "super+shift+p"])
            do {
                try waitUntil("Meta+Shift+P makes PiP \(state)", timeout: .seconds(10)) {
                    try x.pipcamStateAfterEarlierEvents() == state
                }
            } catch {
                throw HarnessError("\(error)\nkglobalaccel5: \(daemon.stderrText.suffix(1500))")
            }
        }
    }
}
