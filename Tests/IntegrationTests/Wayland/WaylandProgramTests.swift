import CVirtualPointer
import Foundation
import Glibc
import TestSupport
import Testing

/// The `pipcam` program with only `WAYLAND_DISPLAY` (no `DISPLAY`), on headless sway: PiP is an
/// overlay-layer surface above a fullscreen window, `status` names the route, the control
/// commands reach it through the socket, and stopping PiP or SIGTERM ends it with 0.
@Suite(.timeLimit(.minutes(1)))
struct WaylandProgramTests {
    static let missing = WaylandOverlayTests.missing

    /// The pipcam under test and the runtime directory its socket is in (its own: every headless
    /// sway's socket is `wayland-1`).
    struct Run {
        let process: RunningProcess
        let runtime: String
        let sway: HeadlessSway

        /// `pipcam arguments…` with this run's runtime directory, to its end.
        func command(_ arguments: [String]) throws -> ProcessResult {
            try sway.run(Self.pipcam(runtime: runtime) + arguments)
        }

        /// pipcam with `runtime` for its runtime, state and config directories: its own socket,
        /// remembered place and no config file.
        static func pipcam(runtime: String) throws -> [String] {
            ["env", "XDG_RUNTIME_DIR=\(runtime)", "XDG_STATE_HOME=\(runtime)/state", "XDG_CONFIG_HOME=\(runtime)/config", try Pipcam.binaryPath()]
        }

        func status() throws -> [String: Any] {
            let result = try command(["status"])
            guard result.succeeded, let object = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any] else {
                throw HarnessError("status: \(result)")
            }
            return object
        }
    }

    static func start(on sway: HeadlessSway, _ arguments: [String]) throws -> Run {
        let runtime = try Scratch.makeDirectory("wayland-pipcam")
        chmod(runtime, 0o700)
        let process = try sway.start(try Run.pipcam(runtime: runtime) + ["--source", "test"] + arguments)
        return Run(process: process, runtime: runtime, sway: sway)
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func pipShowsAboveAFullscreenWindowAnswersStatusAndEndsWithItsStop() throws {
        let sway = try HeadlessSway(width: 1280, height: 720)
        defer { sway.stop() }
        try sway.start(["swaybg", "--color", "#ff0000"])
        let behind = try WaylandOverlayTests.showBehind(on: sway)
        let run = try Self.start(on: sway, ["--size", "320x180", "--corner", "bottom-right"])
        defer { try? FileManager.default.removeItem(atPath: run.runtime) }

        let status = try poll(timeout: .seconds(10), what: "PiP active (\(run.process.stderrText.suffix(300)))") { () -> [String: Any]? in
            let status = try? run.status()
            return status?["state"] as? String == "active" && (status?["shown"] as? Int ?? 0) > 3 ? status : nil
        }
        #expect(status["window_system"] as? String == "wayland")
        #expect(status["pip_role"] as? String == "layer-shell")
        let pip = try #require(status["pip"] as? [String: Int])
        let frame = XRect(x: pip["x"]!, y: pip["y"]!, width: pip["width"]!, height: pip["height"]!)
        #expect(frame.width == 320 && frame.height == 180 && frame.x + frame.width <= 1280 && frame.x > 640 && frame.y > 360, "\(frame)")

        // The test pattern's bars: many colours where PiP is, what is behind just outside it.
        try waitUntil("the test pattern at PiP's frame \(frame)") {
            let shot = try sway.screenshot()
            let inside = shot.cropped(to: XRect(x: frame.x + 2, y: frame.y + 2, width: frame.width - 4, height: frame.height - 4))
            return WaylandOverlayTests.count(behind, in: inside) < frame.width * frame.height / 20
                && shot.meanColor(in: XRect(x: frame.x - 8, y: frame.y + frame.height / 2, width: 4, height: 4)).distance(to: behind) < 8
        }
        let bars = try sway.screenshot().cropped(to: XRect(x: frame.x, y: frame.y + frame.height / 2, width: frame.width, height: 4))
        var colours: [RGB] = []
        for x in stride(from: frame.width / 16, to: frame.width, by: frame.width / 8) {
            let colour = bars.pixel(x, 1)
            if !colours.contains(where: { $0.distance(to: colour) < 40 }) { colours.append(colour) }
        }
        #expect(colours.count >= 6, "the bars' colours differ across PiP: \(colours)")

        // Stopping PiP ends a pipcam that is PiP alone, as closing `--pip`'s only window does.
        let toggled = try run.command(["toggle"])
        #expect(toggled.succeeded, "\(toggled)")
        let ended = try run.process.wait(timeout: .seconds(5))
        #expect(ended.termination == .exited(0), "\(ended)")
        try waitUntil("PiP gone") {
            try sway.screenshot().meanColor(in: XRect(x: frame.x + 8, y: frame.y + 8, width: frame.width - 16, height: frame.height - 16))
                .distance(to: behind) < 8
        }
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aSecondInstanceIsRefusedAndSigtermEndsTheFirstWithZero() throws {
        let sway = try HeadlessSway(width: 800, height: 600)
        defer { sway.stop() }
        let run = try Self.start(on: sway, ["--stats"])
        defer { try? FileManager.default.removeItem(atPath: run.runtime) }
        _ = try run.process.waitForOutput(containing: "state=active")

        let second = try run.command(["--source", "test"])
        #expect(second.exitCode == 1)
        #expect(second.stderrText.contains("already running on wayland-1"), "\(second.stderrText)")

        run.process.send(SIGTERM)
        let ended = try run.process.wait(timeout: .seconds(5))
        #expect(ended.termination == .exited(0), "\(ended)")
        #expect(ended.stderrText.split(separator: "\n").last?.contains("state=active") == true, "the final stats line: \(ended.stderrText.suffix(200))")
    }

    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aDraggedPipIsWhereTheNextRunShowsIt() throws {
        let sway = try HeadlessSway(width: 1280, height: 720)
        defer { sway.stop() }
        let run = try Self.start(on: sway, ["--stats"])
        defer { try? FileManager.default.removeItem(atPath: run.runtime) }
        _ = try run.process.waitForOutput(containing: "state=active")
        let before = try Self.pipFrame(try run.status())

        var pointer: OpaquePointer?
        var error = [CChar](repeating: 0, count: 256)
        try #require(vpointer_open(sway.socket, &pointer, &error, Int32(error.count)) == 0, "a virtual pointer")
        defer { vpointer_close(pointer) }
        func move(_ x: Int, _ y: Int) {
            _ = vpointer_move(pointer, UInt32(x), UInt32(y), 1280, 720)
            usleep(50_000)
        }
        let (x, y) = (before.x + before.width / 2, before.y + before.height / 2)
        move(x, y)
        _ = vpointer_button(pointer, WaylandPointerTests.buttonLeft, 1)
        usleep(50_000)
        for step in 1...5 { move(x - 600 * step / 5, y - 300 * step / 5) }
        _ = vpointer_button(pointer, WaylandPointerTests.buttonLeft, 0)
        var last = before
        let moved = try poll(timeout: .seconds(10), what: "PiP dragged from \(before) by (-600, -300): at \(last)") { () -> XRect? in
            last = try Self.pipFrame(try run.status())
            return abs(last.x - (before.x - 600)) <= 3 && abs(last.y - (before.y - 300)) <= 3 ? last : nil
        }

        #expect(try run.command(["quit"]).succeeded)
        #expect(try run.process.wait(timeout: .seconds(5)).termination == .exited(0))
        let again = Run(
            process: try sway.start(try Run.pipcam(runtime: run.runtime) + ["--source", "test", "--stats"]),
            runtime: run.runtime, sway: sway)
        _ = try again.process.waitForOutput(containing: "state=active")
        #expect(try Self.pipFrame(try again.status()) == moved, "the place it was left at")
    }

    /// `pipcam stop` while the source still starts (a pipe nobody writes yet) ends a pipcam that
    /// is PiP alone once the source has started, instead of leaving it running with nothing shown.
    @Test(.enabled(if: missing == nil, Comment(rawValue: missing ?? "")))
    func aStopWhileTheSourceStartsEndsIt() throws {
        let sway = try HeadlessSway(width: 800, height: 600)
        defer { sway.stop() }
        let runtime = try Scratch.makeDirectory("wayland-pipcam")
        chmod(runtime, 0o700)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let fifo = runtime + "/unwritten.y4m"
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = Run(process: try sway.start(try Run.pipcam(runtime: runtime) + ["--source", "y4m:\(fifo)"]), runtime: runtime, sway: sway)
        let starting = try poll(timeout: .seconds(5), what: "status while the source starts") { try? run.status() }
        #expect(starting["state"] as? String == "starting" && starting["camera"] as? String == "waiting", "\(starting)")
        #expect(starting["window_system"] as? String == "wayland", "\(starting)")
        #expect(try run.command(["stop"]).succeeded)
        // The source starts once the pipe has a writer.
        let clip = try TestMedia.y4m(width: 160, height: 120, frames: 5)
        let writer = try RunningProcess(["sh", "-c", "cat \"$0\" > \"$1\"", clip, fifo])
        defer { _ = writer.terminate(grace: .seconds(1)) }
        let ended = try run.process.wait(timeout: .seconds(5))
        #expect(ended.termination == .exited(0), "\(ended)")
    }

    static func pipFrame(_ status: [String: Any]) throws -> XRect {
        let pip = try #require(status["pip"] as? [String: Int])
        return XRect(x: pip["x"] ?? 0, y: pip["y"] ?? 0, width: pip["width"] ?? 0, height: pip["height"] ?? 0)
    }

    @Test func aWindowSystemThatIsNotThereIsOneLineAndExit2() throws {
        let directory = try Scratch.makeDirectory("wayland-none")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["XDG_RUNTIME_DIR"] = directory
        environment["XDG_CONFIG_HOME"] = directory
        let binary = try Pipcam.binaryPath()
        let cases: [([String], [String: String], String)] = [
            (["--window-system", "wayland"], [:], "pipcam: window system wayland: WAYLAND_DISPLAY is not set"),
            (["--window-system", "x11"], ["WAYLAND_DISPLAY": "wayland-9"], "pipcam: window system x11: DISPLAY is not set"),
            ([], ["WAYLAND_DISPLAY": "wayland-9"], "pipcam: no Wayland compositor at wayland-9"),
            (["--window-system", "mir"], [:], "pipcam: --window-system: unknown window system 'mir' (expected auto, x11 or wayland)"),
            (["--follow-window", "0x400001"], ["WAYLAND_DISPLAY": "wayland-9"], "pipcam: --follow-window needs X11, and DISPLAY is not set"),
            (["--wid", "0x400001", "--window-system", "wayland"], ["WAYLAND_DISPLAY": "wayland-9"], "pipcam: --wid needs X11, not window system wayland"),
        ]
        for (arguments, extra, line) in cases {
            let result = try run([binary, "--source", "test"] + arguments, environment: environment.merging(extra) { $1 })
            #expect(result.exitCode == 2, "\(arguments): \(result)")
            let lines = result.stderrText.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix(line), "\(arguments): \(result.stderrText)")
        }
    }
}

/// The `pipcam` program on headless kwin_wayland (KWin 5.27: layer-shell, no screenshot): PiP
/// comes up on the overlay layer, frames keep being shown at the compositor's pace, and SIGTERM
/// ends it with 0.
@Suite(.timeLimit(.minutes(1)))
struct WaylandProgramKWinTests {
    @Test(.enabled(if: HeadlessKWin.missing == nil, Comment(rawValue: HeadlessKWin.missing ?? "")))
    func pipShowsFramesOnKWinsOverlayLayerAndSigtermEndsIt() throws {
        let kwin = try HeadlessKWin()
        defer { kwin.stop() }
        let runtime = try Scratch.makeDirectory("kwin-pipcam")
        chmod(runtime, 0o700)
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = kwin.socket
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_STATE_HOME"] = runtime
        environment["XDG_CONFIG_HOME"] = runtime
        let binary = try Pipcam.binaryPath()
        let pipcam = try RunningProcess([binary, "--source", "test", "--stats"], environment: environment)
        defer { _ = pipcam.terminate(grace: .seconds(1)) }

        func status() throws -> [String: Any]? {
            let result = try run([binary, "status"], environment: environment)
            guard result.succeeded else { return nil }
            return try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        }
        let first = try poll(timeout: .seconds(15), what: "PiP active on kwin (\(pipcam.stderrText.suffix(300)))") { () -> [String: Any]? in
            let s = try status()
            return s?["state"] as? String == "active" && (s?["shown"] as? Int ?? 0) >= 5 ? s : nil
        }
        #expect(first["window_system"] as? String == "wayland" && first["pip_role"] as? String == "layer-shell", "\(first)")
        let pip = try #require(first["pip"] as? [String: Int])
        #expect(pip["x"]! + pip["width"]! <= 640 && pip["y"]! + pip["height"]! <= 360 && pip["x"]! > 320, "bottom-right on the 640x360 output: \(pip)")
        // The compositor keeps asking for frames: the count goes on.
        let shown = first["shown"] as? Int ?? 0
        try waitUntil("frames shown after \(shown)") { (try status()?["shown"] as? Int ?? 0) >= shown + 10 }

        pipcam.send(SIGTERM)
        let ended = try pipcam.wait(timeout: .seconds(5))
        #expect(ended.termination == .exited(0), "\(ended)")
    }
}

/// A compositor without the overlay layer (weston, as GNOME): pipcam says once that PiP goes
/// through X11 and runs there; without `DISPLAY` it says what is missing and exits 2.
@Suite(.timeLimit(.minutes(1)))
struct WaylandFallbackTests {
    @Test(.enabled(if: HeadlessWeston.missing == nil, Comment(rawValue: HeadlessWeston.missing ?? "")))
    func withoutTheOverlayLayerPipGoesThroughX11SayingSoOnce() throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let x = try XServer()
        defer { x.stop() }
        let pipcam = try x.startPipcam(["--source", "test", "--pip", "--stats"], extraEnvironment: ["WAYLAND_DISPLAY": weston.socket])
        _ = try pipcam.waitForOutput(containing: "state=active")
        let status = try x.pipcamStatus().object
        #expect(status["window_system"] as? String == "x11" && status["pip_role"] as? String == "window", "\(status)")
        pipcam.send(SIGTERM)
        let ended = try pipcam.wait(timeout: .seconds(5))
        #expect(ended.termination == .exited(0), "\(ended)")
        let notes = ended.stderrText.split(separator: "\n").filter { !$0.hasPrefix("pipcam: state=") }
        #expect(notes == ["pipcam: the compositor at \(weston.socket) offers neither xx-pip nor layer-shell: PiP goes through XWayland"],
                "one line says why: \(ended.stderrText.suffix(500))")

        var environment = x.environment
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = weston.socket
        let alone = try run([try Pipcam.binaryPath(), "--source", "test"], environment: environment)
        #expect(alone.exitCode == 2)
        #expect(alone.stderrText == "pipcam: the compositor at \(weston.socket) offers neither xx-pip nor layer-shell, and DISPLAY is not set for XWayland\n",
                "\(alone.stderrText)")
    }
}
