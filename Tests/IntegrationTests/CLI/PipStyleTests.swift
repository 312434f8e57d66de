import Foundation
import TestSupport
import Testing

/// `--shape`, `--opacity`, `--click-through` and the config file.
@Suite(.serialized, .timeLimit(.minutes(2))) struct PipStyleTests {
    @Test(arguments: ["circle", "rounded"])
    func shapeCutsTheCornersOut(shape: String) throws {
        let x = try makeServer(.openbox)
        let (_, pip) = try x.startPip(["--source", "test", "--size", "480x270", "--shape", shape])
        let r = try x.settledGeometry(of: pip)
        try waitUntil("the picture is drawn", timeout: .seconds(3)) {
            try x.screenshot(XRect(x: r.x + 200, y: r.y + 100, width: 80, height: 70)).distinctColorCount > 2
        }
        // The root window (black on Xvfb) shows through the cut-out corner; the test pattern's
        // left edge is a coloured bar, so an unshaped window would not be black there.
        let corner = try x.screenshot(XRect(x: r.x, y: r.y + r.height - 3, width: 3, height: 3)).meanColor()
        #expect(corner.red < 10 && corner.green < 10 && corner.blue < 10, "\(corner)")
        let edge = try x.screenshot(XRect(x: r.x, y: r.y + r.height / 2, width: 3, height: 3)).meanColor()
        #expect(edge.red + edge.green + edge.blue > 60, "the left edge's middle is inside the outline: \(edge)")
    }

    @Test func opacityIsSetAsTheEWMHProperty() throws {
        let x = try makeServer(.openbox)
        let (_, pip) = try x.startPip(["--source", "test", "--opacity", "0.5"])
        let value = try x.property("_NET_WM_WINDOW_OPACITY", of: pip)?.integers.first
        #expect(value == 0x7FFF_FFFF)
    }

    @Test(arguments: [false, true])
    func clickThroughLetsClicksPass(clickThrough: Bool) throws {
        let x = try makeServer(.openbox)
        let (_, pip) = try x.startPip(["--source", "test", "--size", "320x180"] + (clickThrough ? ["--click-through"] : []))
        let r = try x.settledGeometry(of: pip)
        try x.click(at: r.center, count: 2)  // double-click: back to the main window, unless clicks pass through
        if clickThrough {
            // Had the clicks reached pipcam, PiP would be stopping by the time it answers.
            #expect(try x.pipcamStateAfterEarlierEvents() == "active")
            #expect(try x.isViewable(pip))
        } else {
            try waitUntil("the double-click to stop PiP") { try !x.isViewable(pip) }
        }
    }

    /// Writes `text` as the config file of the server's clients (XDG_CONFIG_HOME is private to it).
    func writeConfig(_ x: XServer, _ text: String) throws {
        let dir = x.directory + "/config/pipcam"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try text.write(toFile: dir + "/config", atomically: true, encoding: .utf8)
    }

    @Test func configFileSetsOptionsAndTheCommandLineWins() throws {
        let x = try makeServer(.none)
        try writeConfig(x, "# my settings\nsize = 400x225\ncorner = top-left\n")
        var (process, pip) = try x.startPip(["--source", "test"])
        var g = try x.settledGeometry(of: pip)
        #expect(g.width == 400 && g.height == 225 && g.x == 24 && g.y == 24, "\(g)")
        process.send(SIGTERM)
        _ = try process.wait(timeout: .seconds(5))
        (process, pip) = try x.startPip(["--source", "test", "--size", "320x180"])
        g = try x.settledGeometry(of: pip)
        #expect(g.width == 320 && g.height == 180 && g.x == 24, "\(g)")
        process.send(SIGTERM)
        _ = try process.wait(timeout: .seconds(5))
        // `auto` undoes the config's size and corner: a quarter of the work area wide, bottom right.
        (process, pip) = try x.startPip(["--source", "test", "--size", "auto", "--corner", "auto"])
        g = try x.settledGeometry(of: pip)
        let area = try x.workArea()
        #expect(abs(g.width - area.width / 4) <= 2 && abs(g.maxX - (area.maxX - 24)) <= 2 && abs(g.maxY - (area.maxY - 24)) <= 2,
                "\(g) in \(area)")
    }

    /// `name = cam` in the config names the instance its control commands talk to, unless they
    /// name another.
    @Test func theConfigsNameIsTheOneControlCommandsMean() throws {
        let x = try makeServer(.none)
        try writeConfig(x, "name = cam\n")
        _ = try x.startPip(["--source", "test"])
        try waitUntil("cam answers", timeout: .seconds(5)) { try x.runPipcam(["status"]).succeeded }
        let status = try x.runPipcam(["status"])
        #expect(status.stdoutText.contains("\"state\":\"active\""), "\(status)")
        #expect(try x.runPipcam(["status", "--name", "other"]).exitCode == 3, "--name on the command line wins")
        #expect(try x.runPipcam(["stop"]).succeeded)
        #expect(try x.runPipcam(["help"]).succeeded, "help is not given the name")
    }

    /// `--name none` runs and controls the unnamed instance over the config's `name`.
    @Test func nameNoneUndoesTheConfigsName() throws {
        let x = try makeServer(.none)
        try writeConfig(x, "name = cam\n")
        _ = try x.startPip(["--source", "test", "--name", "none"])
        try waitUntil("the unnamed one answers", timeout: .seconds(5)) { try x.runPipcam(["status", "--name", "none"]).succeeded }
        #expect(try x.runPipcam(["status"]).exitCode == 3, "no instance called cam runs")
        // With no config the plain command means the unnamed instance: it is the one running.
        try writeConfig(x, "")
        let status = try x.runPipcam(["status"])
        #expect(status.stdoutText.contains("\"state\":\"active\""), "\(status)")
        try writeConfig(x, "name = cam\n")
        #expect(try x.runPipcam(["--name", "none", "quit"]).succeeded)
    }

    /// Control commands read only `name` from the config, with `--name` before them as well, and
    /// help comes up whatever the config says.
    @Test func controlCommandsAndHelpIgnoreTheRestOfTheConfig() throws {
        let x = try makeServer(.none)
        try writeConfig(x, "shape = star\n")
        let named = try x.runPipcam(["--name", "b", "status"])
        #expect(named.exitCode == 3 && named.stderrText.contains("no pipcam"), "\(named)")
        let help = try x.runPipcam(["--help"])
        #expect(help.exitCode == 0 && help.stdoutText.contains("--source"), "\(help)")
    }

    /// Flags the config turns on can be turned off on the command line.
    @Test func theCommandLineTurnsOffAConfigFlag() throws {
        let x = try makeServer(.none)
        try writeConfig(x, "stats = true\npip = true\n")
        let result = try x.runPipcam(["--no-stats", "--no-pip", "--source", "test", "--frames", "3"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(!result.stderrText.contains("state="), "stats lines: \(result.stderrText)")
    }

    /// The config's source and hotkey are undone with `--source auto` (the first camera, here
    /// none: the test pattern) and `--hotkey none`.
    @Test func theCommandLineUndoesAConfigSourceAndHotkey() throws {
        let x = try makeServer(.none)
        try writeConfig(x, "source = /dev/video77\nhotkey = super+shift+p\n")
        let configured = try x.runPipcam(["--frames", "3"])
        #expect(configured.exitCode == 2 && configured.stderrText.contains("/dev/video77"), "\(configured)")
        let undone = try x.runPipcam(["--source", "auto", "--hotkey", "none", "--frames", "3"])
        #expect(undone.exitCode == 0, "\(undone)")
        #expect(undone.stderrText.contains("no camera found"), "\(undone.stderrText)")
        // The config's key toggles PiP; with `--hotkey none` it does nothing (a ping round trip
        // after the press: pipcam has read it by then).
        for (arguments, toggles) in [([String](), true), (["--hotkey", "none"], false)] {
            let p = try x.startPipcam(["--source", "auto"] + arguments)
            let main = try x.waitForWindow(className: "pipcam", role: "main")
            try waitUntil("the main window shows", timeout: .seconds(5)) { try x.isViewable(main) }
            try x.runChecked(["xdotool", "key", "super+shift+p"])
            if toggles {
                try waitUntil("the config's hotkey starts PiP", timeout: .seconds(5)) {
                    try x.pipcamStatus().object["state"] as? String != "idle"
                }
            } else {
                try x.waitForPipcamToCatchUp(main)
                #expect(try x.pipcamStatus().object["state"] as? String == "idle", "--hotkey none left the key grabbed")
            }
            p.send(SIGTERM)
            #expect(try p.wait(timeout: .seconds(5)).termination == .exited(0))
        }
    }

    /// A config file that cannot be read (a directory where it should be) is one error, not
    /// silently no config.
    @Test func anUnreadableConfigIsOneError() throws {
        let x = try makeServer(.none)
        try FileManager.default.createDirectory(atPath: x.directory + "/config/pipcam/config", withIntermediateDirectories: true)
        let result = try x.runPipcam(["--source", "test", "--frames", "3"])
        #expect(result.exitCode == 2 && result.stderrText == "pipcam: \(x.directory)/config/pipcam/config: is a directory\n", "\(result)")
    }

    @Test func aBadConfigLineIsOneErrorWithItsLineNumber() throws {
        let x = try makeServer(.none)
        try writeConfig(x, "size = 400x225\n\nshape = star\n")
        let result = try x.runPipcam(["--pip", "--source", "test"])
        #expect(result.exitCode == 2)
        let lines = result.stderrText.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("pipcam: ") && lines[0].contains("line 3: --shape: unknown shape 'star'"), "\(result.stderrText)")
        try writeConfig(x, "size = 400x225\nbogus = 1\n")
        let bad = try x.runPipcam(["--pip", "--source", "test"])
        #expect(bad.exitCode == 2 && bad.stderrText.contains("line 2: unknown option 'bogus'"), "\(bad.stderrText)")
        // A source spec too is checked at its line (it was reported later, naming neither).
        try writeConfig(x, "size = 400x225\r\nsource = bogus\r\n")
        let source = try x.runPipcam(["--pip"])
        #expect(source.exitCode == 2 && source.stderrText.hasSuffix("/config: line 2: bogus: unknown source (expected /dev/videoN, pipewire[:NAME], test, y4m:PATH, raw:PATH:WxH:FMT[@FPS] or mjpeg:PATH[@FPS])\n"),
                "\(source.stderrText)")
    }
}
