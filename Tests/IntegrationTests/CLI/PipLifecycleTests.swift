import Foundation
import Glibc
import PipWindow
import TestSupport
import Testing

extension PipTests {
    /// `--stats` lines (docs/BEHAVIOUR.md "Stats line") and ending by signal.
    @Suite struct Lifecycle {
        /// `PIPCAM_STATS_FIRST_FRAME=1` (what `make bench` reads) adds `first_frame_ms=` to the
        /// line at exit only: from the process's start to the first frame's completion, which
        /// must come after the process started and before it ended.
        @Test func theFirstFrameTimeEndsTheLastLineOnlyWhenAsked() throws {
            let x = try makeServer()
            let clock = ContinuousClock()
            let started = clock.now
            let result = try x.start(
                [Pipcam.binaryPath(), "--pip", "--source", "test", "--frames", "3", "--stats"],
                extraEnvironment: ["PIPCAM_STATS_FIRST_FRAME": "1"]
            ).wait(timeout: .seconds(10))
            let took = (clock.now - started).seconds * 1000
            #expect(result.exitCode == 0, "\(result)")
            let all = lines(of: result.stderrText)
            let last = try #require(all.last)
            let match = try #require(last.firstMatch(of: /\ first_frame_ms=([0-9]+\.[0-9]{2})$/), "\(last)")
            let ms = try #require(Double(match.output.1))
            #expect(ms > 0 && ms < took + 20, "first frame \(ms) ms in a run of \(took) ms")
            #expect(StatsLine(String(last[..<match.range.lowerBound])) != nil, "the contract's line comes first: \(last)")
            #expect(all.dropLast().allSatisfy { !$0.contains("first_frame_ms") })
            let plain = try x.runPipcam(["--pip", "--source", "test", "--frames", "3", "--stats"])
            #expect(!plain.stderrText.contains("first_frame_ms"), "\(plain.stderrText)")
        }

        @Test func statsLinesFollowTheFormat() throws {
            let x = try makeServer()
            let (pipcam, _) = try x.startPip(["--source", "test", "--stats"])
            // Two periodic lines (one a second), then SIGTERM for the final one.
            try waitUntil("two periodic stats lines", timeout: .seconds(6)) {
                lines(of: pipcam.stderrText).count >= 2
            }
            pipcam.send(SIGTERM)
            let result = try pipcam.wait(timeout: .seconds(3))
            #expect(result.termination == .exited(0), "\(result)")

            let all = lines(of: result.stderrText)
            #expect(all.count >= 3, "two periodic lines and one at exit; stderr:\n\(result.stderrText)")
            let parsed = all.compactMap { StatsLine($0) }
            for line in all where StatsLine(line) == nil {
                Issue.record("not a docs/BEHAVIOUR.md stats line: \(line)")
            }
            guard parsed.count == all.count, parsed.count >= 3 else { return }

            for line in parsed {
                #expect(line.state == "active", "\(line)")
                #expect(line.camera == .streaming, "\(line)")
                #expect(line.latencyP50 <= line.latencyP99, "p50 above p99: \(line)")
                #expect(line.latencyP99 < 1000, "latency p99 of a second or more: \(line)")
                #expect(line.cpuPerFrame > 0 && line.cpuPerFrame < 1000, "\(line)")
            }
            // The test pattern makes 30 frames a second: each one is counted, as shown or as
            // dropped, however fast the machine shows them (a busy one shows fewer); the rate is
            // that of the frames shown between two lines a second apart.
            for line in parsed.dropLast() {
                #expect(line.fps > 0 && line.fps < 40, "test pattern at 30 fps: \(line)")
                #expect(line.shown > 0, "\(line)")
            }
            for (earlier, later) in zip(parsed, parsed.dropFirst()) {
                #expect(later.shown >= earlier.shown, "shown went down: \(earlier) → \(later)")
            }
            let perSecond = parsed[1].shown - parsed[0].shown
            let made = perSecond + parsed[1].dropped - parsed[0].dropped
            // The stats tick comes a second after the last one ran (late on a busy machine, never
            // early), and counts what the display thread has taken so far (it may lag a little).
            #expect(made >= 20 && made <= 50, "frames made between two lines a second apart: \(parsed[0]) → \(parsed[1])")
            #expect(abs(Double(perSecond) - parsed[1].fps) <= max(6, parsed[1].fps * 0.3),
                    "fps=\(parsed[1].fps) but \(perSecond) frames were shown in that second")
        }

        @Test(arguments: [SIGTERM, SIGINT])
        func signalEndsCleanlyWithExitZero(_ signal: Int32) throws {
            let x = try makeServer(.openbox)
            let (pipcam, window) = try x.startPip(["--source", "test"])
            Thread.sleep(forTimeInterval: 0.3)  // running steadily, not just starting
            let clock = ContinuousClock()
            let sent = clock.now
            pipcam.send(signal)
            let result = try pipcam.wait(timeout: .seconds(5))
            let took = clock.now - sent
            #expect(result.termination == .exited(0), "\(result)")
            #expect(took < .seconds(2), "took \(took) to exit")
            #expect(result.stderrText.isEmpty, "stderr: \(result.stderrText)")
            try x.waitForNoWindow(className: PipIdentity.instance, role: PipIdentity.role, timeout: .seconds(2))
            #expect(try x.info(of: window) == nil, "the PiP window \(window) still exists")
            // Its shared-memory images are gone with it (marked for removal once attached).
            let segments = try run(["ipcs", "-m", "-p"]).stdoutText.split(whereSeparator: \.isNewline)
                .map { $0.split(separator: " ", omittingEmptySubsequences: true) }
                .filter { $0.count >= 3 && $0[2] == "\(pipcam.pid)" }
            #expect(segments.isEmpty, "shared memory made by pipcam left behind: \(segments)")
        }

        /// A pipe whose writer stalls (its frames sent, never closed) does not keep pipcam from
        /// ending on a signal: the capture thread, stuck in `read`, is left behind.
        @Test func aStalledPipeDoesNotHoldUpTheExit() throws {
            let x = try makeServer()
            let clip = try TestMedia.y4m(subsampling: 420, width: 160, height: 120, frames: 10, rate: 30)
            let fifo = x.directory + "/stalled.y4m"
            #expect(mkfifo(fifo, 0o600) == 0)
            try x.startStalledWriter(into: fifo, from: clip)
            let (pipcam, _) = try x.startPip(["--source", "y4m:\(fifo)"])
            Thread.sleep(forTimeInterval: 0.8)  // its ten frames read, the next read waits
            let clock = ContinuousClock()
            let sent = clock.now
            pipcam.send(SIGTERM)
            let result = try pipcam.wait(timeout: .seconds(6))
            #expect(result.termination == .exited(0), "\(result)")
            #expect(clock.now - sent < .seconds(4), "took \(clock.now - sent)")
        }

        /// A signal while the source is still starting (a pipe nobody writes yet: opening it waits)
        /// ends pipcam with 0 as well, not by the signal.
        @Test(arguments: [SIGTERM, SIGINT])
        func aSignalWhileTheSourceStartsExitsZero(_ signal: Int32) throws {
            let x = try makeServer()
            let fifo = x.directory + "/unwritten.y4m"
            #expect(mkfifo(fifo, 0o600) == 0)
            let pipcam = try x.startPipcam(["--pip", "--source", "y4m:\(fifo)"])
            Thread.sleep(forTimeInterval: 0.5)
            pipcam.send(signal)
            let result = try pipcam.wait(timeout: .seconds(5))
            #expect(result.termination == .exited(0), "\(result)")
            #expect(result.stderrText.isEmpty, "stderr: \(result.stderrText)")
        }

        /// `y4m:-` typed at a shell with nothing piped in is refused at once (exit 2, one line)
        /// instead of waiting silently for the keyboard: `script` gives pipcam a terminal as stdin.
        @Test func aTerminalAsStandardInputIsRefused() throws {
            let x = try makeServer()
            let command = "\(try Pipcam.binaryPath()) --pip --source y4m:-"
            let result = try x.run(["script", "-qec", command, "/dev/null"], timeout: .seconds(10))
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stdoutText.contains("pipcam: stdin: is a terminal (pipe a stream into pipcam)"), "\(result)")
        }

        /// Started with standard input closed, `y4m:-` reads nothing (/dev/null in its place), not the
        /// X connection that would otherwise get descriptor 0: one line, exit 2.
        @Test func aClosedStandardInputIsAnEmptyStream() throws {
            let x = try makeServer()
            let result = try x.run(["sh", "-c", "exec \"$0\" --pip --source y4m:- <&-", try Pipcam.binaryPath()], timeout: .seconds(10))
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stderrText == "pipcam: stdin: empty file\n", "\(result)")
        }

        /// Another program destroying the PiP window (`XDestroyWindow`, as `xdotool windowclose`
        /// does) ends pipcam with 0, as destroying its main window does; it used to wait for put
        /// completions that never came, showing nothing and never ending.
        @Test(arguments: [true, false])
        func anotherProgramDestroyingThePipWindowEndsPipcam(startInPip: Bool) throws {
            let x = try makeServer()
            let pipcam: RunningProcess, pip: XWindowID
            if startInPip {
                (pipcam, pip) = try x.startPip(["--source", "test"])
            } else {
                pipcam = try x.startPipcam(["--source", "test"])
                pip = try x.waitForWindow(className: "pipcam", role: "PictureInPicture", viewable: false)
            }
            try waitUntil("frames shown", timeout: .seconds(5)) { try x.pipcamStatus().object["shown"] as? Int ?? 0 > 3 }
            let other = try XDisplay(name: x.display)
            other.destroy(WindowID(UInt(pip.raw)))
            other.sync()
            other.close()
            let result = try pipcam.wait(timeout: .seconds(5))
            #expect(result.termination == .exited(0) && result.stderrText.isEmpty, "\(result)")
        }

        /// The X server going away is a runtime failure: one line, exit 1, no crash trace.
        @Test func losingTheXServerExitsOneWithOneLine() throws {
            let x = try makeServer()
            let (pipcam, _) = try x.startPip(["--source", "test"])
            Thread.sleep(forTimeInterval: 0.3)
            kill(x.serverPID, SIGKILL)
            let result = try pipcam.wait(timeout: .seconds(5))
            #expect(result.termination == .exited(1), "\(result)")
            #expect(result.stderrText == "pipcam: lost the connection to the X server\n", "stderr: \(result.stderrText)")
        }

        /// With `--stats`, the line at exit comes after that one: what was shown until then.
        @Test func theStatsLineComesAlsoWhenTheXServerDies() throws {
            let x = try makeServer()
            let (pipcam, _) = try x.startPip(["--source", "test", "--stats"])
            try waitUntil("frames shown", timeout: .seconds(5)) { try x.pipcamStatus().object["shown"] as? Int ?? 0 > 3 }
            kill(x.serverPID, SIGKILL)
            let result = try pipcam.wait(timeout: .seconds(5))
            #expect(result.termination == .exited(1), "\(result)")
            let lines = result.stderrText.split(separator: "\n").map(String.init)
            let lost = try #require(lines.firstIndex(of: "pipcam: lost the connection to the X server"), "\(lines)")
            let last = try #require(lines.last)
            #expect(lost == lines.count - 2 && last.hasPrefix("pipcam: state=active camera=streaming fps="), "\(lines)")
            let shown = last.firstMatch(of: /shown=(\d+)/).flatMap { Int($0.1) } ?? 0
            #expect(shown > 3, "\(last)")
        }

        /// No display to talk to is a usage error for pipcam, and for its control commands when
        /// there is no runtime directory to find a pipcam in either; with one, they find none (3).
        @Test(arguments: [[], ["status"], ["toggle"]])
        func noDisplayExitsTwoWithOneLine(_ arguments: [String]) throws {
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = nil
            environment["WAYLAND_DISPLAY"] = nil
            environment["XDG_RUNTIME_DIR"] = nil
            let result = try run([Pipcam.binaryPath()] + arguments, environment: environment)
            #expect(result.exitCode == 2, "\(result)")
            let line = arguments.isEmpty
                ? "pipcam: no display: neither WAYLAND_DISPLAY nor DISPLAY is set\n"
                : "pipcam: no X display ($DISPLAY is not set) and no $XDG_RUNTIME_DIR to find pipcam in\n"
            #expect(result.stderrText == line, "\(result)")
            guard !arguments.isEmpty else { return }
            environment["XDG_RUNTIME_DIR"] = try Scratch.makeDirectory("runtime")
            let none = try run([Pipcam.binaryPath()] + arguments, environment: environment)
            #expect(none.exitCode == 3 && none.stderrText.hasPrefix("pipcam: no pipcam is running (DISPLAY is not set; looked in "), "\(none)")
        }

        /// A display no server answers on: one line that names it and says why, exit 2.
        @Test(arguments: [[], ["status"]])
        func anUnreachableDisplayExitsTwoWithOneLine(_ arguments: [String]) throws {
            var environment = ProcessInfo.processInfo.environment
            environment["DISPLAY"] = ":987"
            let result = try run([Pipcam.binaryPath()] + arguments, environment: environment)
            #expect(result.exitCode == 2, "\(result)")
            #expect(result.stderrText == "pipcam: cannot open display ':987': no X server answers there, or it refused the connection\n",
                    "\(result)")
        }
    }
}
