import Foundation
import Glibc
import TestSupport
import Testing

/// Self-tests of the X test harness: if these fail, the pipcam integration tests mean nothing.
@Suite(.timeLimit(.minutes(1)))
struct HarnessTests {
    // MARK: Processes

    @Test func runCapturesOutputAndExitCode() throws {
        let result = try run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(result.exitCode == 3)
        #expect(result.stdoutText == "out\n")
        #expect(result.stderrText == "err\n")
    }

    @Test func runTimesOutInsteadOfHanging() throws {
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: HarnessError.self) { try run(["sleep", "30"], timeout: .milliseconds(300)) }
        #expect(clock.now - started < .seconds(3))
    }

    @Test func runningProcessReportsSignalsAndStdin() throws {
        let cat = try RunningProcess(["cat"], stdin: .data(Data("hello".utf8)))
        let catResult = try cat.wait(timeout: .seconds(5))
        #expect(catResult.stdoutText == "hello")

        let sleeper = try RunningProcess(["sleep", "30"])
        #expect(sleeper.isRunning)
        #expect(throws: HarnessError.self) { try sleeper.wait(timeout: .milliseconds(100)) }
        sleeper.send(SIGUSR1)
        let result = try sleeper.wait(timeout: .seconds(5))
        #expect(result.termination == .signaled(SIGUSR1))
        #expect(result.exitCode == nil)
    }

    @Test func waitsForOutputOfARunningProcess() throws {
        let process = try RunningProcess(["sh", "-c", "echo starting >&2; sleep 0.2; echo ready >&2; sleep 30"])
        let stderr = try process.waitForOutput(containing: "ready")
        #expect(stderr == "starting\nready\n")
        #expect(process.isRunning)
        #expect(process.terminate().termination == .signaled(SIGTERM))

        let quitter = try RunningProcess(["sh", "-c", "echo bye; exit 4"])
        #expect(throws: HarnessError.self) { try quitter.waitForOutput(containing: "never", inStderr: false) }
    }

    @Test func terminateKillsTheWholeProcessGroup() throws {
        // The shell's child `sleep` would outlive a plain kill of the shell.
        let shell = try RunningProcess(["sh", "-c", "sleep 60 & echo $!; wait"])
        let childPID = try poll(timeout: .seconds(5), what: "the child's pid") {
            pid_t(shell.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(kill(childPID, 0) == 0)
        shell.terminate(grace: .seconds(2))
        try waitUntil("sleep \(childPID) to die", timeout: .seconds(5)) { kill(childPID, 0) != 0 }
    }

    // MARK: Parsing

    @Test func parsesXpropOutput() throws {
        let wmClass = try #require(XProperty(xpropOutput: #"WM_CLASS(STRING) = "pipcam", "Pipcam""#))
        #expect(wmClass.type == "STRING")
        #expect(wmClass.strings == ["pipcam", "Pipcam"])

        let state = try #require(XProperty(xpropOutput: "_NET_WM_STATE(ATOM) = _NET_WM_STATE_ABOVE, _NET_WM_STATE_STICKY\n"))
        #expect(state.atoms == ["_NET_WM_STATE_ABOVE", "_NET_WM_STATE_STICKY"])
        #expect(XProperty(xpropOutput: "_NET_WM_STATE(ATOM) = ")?.atoms == [])

        let extents = try #require(XProperty(xpropOutput: "_NET_FRAME_EXTENTS(CARDINAL) = 1, 1, 20, 5"))
        #expect(extents.integers == [1, 1, 20, 5])

        let check = try #require(XProperty(xpropOutput: "_NET_SUPPORTING_WM_CHECK(WINDOW): window id # 0x20020b"))
        #expect(check.windows == [XWindowID(0x20020b)])

        let escaped = try #require(XProperty(xpropOutput: #"WM_NAME(UTF8_STRING) = "say \"hi\"""#))
        #expect(escaped.strings == [#"say "hi""#])

        #expect(XProperty(xpropOutput: "WM_WINDOW_ROLE:  not found.") == nil)
        #expect(XProperty(xpropOutput: "_NET_SUPPORTING_WM_CHECK:  no such atom on any window.") == nil)
    }

    // MARK: Xvfb

    @Test func xvfbReportsItsDisplayAndScreenSize() throws {
        let server = try XServer(width: 800, height: 600)
        #expect(server.display.wholeMatch(of: /:\d+/) != nil)
        #expect(server.environment["DISPLAY"] == server.display)
        let root = try server.geometry(of: server.rootWindow())
        #expect(root == XRect(x: 0, y: 0, width: 800, height: 600))
        #expect(try server.runningWindowManagerName() == nil)
    }

    @Test func serversRunSideBySide() throws {
        let first = try XServer(width: 320, height: 240)
        let second = try XServer(width: 640, height: 480)
        #expect(first.display != second.display)
        #expect(try first.geometry(of: first.rootWindow()).width == 320)
        #expect(try second.geometry(of: second.rootWindow()).width == 640)
    }

    @Test(arguments: [WindowManager.openbox, .i3])
    func windowManagerComesUpAndIsDetected(_ manager: WindowManager) throws {
        let server = try XServer(windowManager: manager)
        #expect(try server.runningWindowManagerName() == manager.advertisedName)
        // A managed client is reparented into a frame (openbox, i3) that is larger than it.
        let logo = try server.start(["xlogo", "-geometry", "200x150+100+100"])
        let window = try server.waitForWindow(className: "xlogo")
        let inner = try server.waitForStableGeometry(of: window)  // i3 tiles it after mapping
        let outer = try server.outerGeometry(of: window)
        #expect(outer.width >= inner.width && outer.height > inner.height, "frame \(outer), client \(inner)")
        #expect(outer.intersection(inner) == inner)
        #expect(logo.isRunning)
    }

    // MARK: Clients, geometry, screenshots, input

    @Test func findsAClientByClassAndReadsItsGeometryAndPixels() throws {
        let server = try XServer()
        let before = try server.screenshot(XRect(x: 100, y: 100, width: 200, height: 150))
        #expect(before.distinctColorCount == 1, "an empty Xvfb screen is one solid colour")

        _ = try server.start(["xlogo", "-geometry", "200x150+100+100"])
        let window = try server.waitForWindow(className: "xlogo")
        #expect(try server.windows(className: "xlogo") == [window])
        #expect(try server.windows(className: "xlog").isEmpty, "class names match exactly")
        #expect(try server.wmClass(of: window)?.class == "XLogo")
        #expect(try server.windows(className: "xlogo", role: "PictureInPicture").isEmpty)
        #expect(try server.netWMState(of: window) == [])

        // No WM: the window is exactly where it asked to be; -geometry places the outer
        // corner of xlogo's 1-pixel X border at (100, 100).
        let geometry = try server.geometry(of: window)
        let outer = try server.outerGeometry(of: window)
        #expect(geometry == XRect(x: 101, y: 101, width: 200, height: 150))
        #expect(outer == XRect(x: 100, y: 100, width: 202, height: 152))

        // The logo is drawn after mapping: wait for black and white pixels.
        let shot = try poll(timeout: .seconds(5), what: "xlogo to draw") {
            let shot = try server.screenshot(of: window)
            return shot.distinctColorCount >= 2 ? shot : nil
        }
        #expect(shot.width == 200 && shot.height == 150)
        let mean = shot.meanColor()
        #expect(mean.red > 40 && mean.red < 250, "a mix of the logo and its background, got \(mean)")
        #expect(shot.fractionDiffering(from: before) > 0.05)
        #expect(shot.fractionDiffering(from: shot) == 0)
    }

    @Test func dragWithOpenboxMovesAWindowByItsTitleBar() throws {
        let server = try XServer(windowManager: .openbox)
        _ = try server.start(["xlogo", "-geometry", "200x150+100+100"])
        let window = try server.waitForWindow(className: "xlogo")
        let start = try server.waitForStableGeometry(of: window)
        let frame = try server.outerGeometry(of: window)
        let titleBar = XPoint(start.center.x, (frame.y + start.y) / 2)
        #expect(start.y - frame.y > 4, "openbox gives a title bar: frame \(frame), client \(start)")

        try server.drag(from: titleBar, to: XPoint(titleBar.x + 300, titleBar.y + 200), moving: window)
        let moved = try poll(timeout: .seconds(5), what: "the window to move") {
            let now = try server.geometry(of: window)
            return now != start ? now : nil
        }
        #expect(moved == start.offsetBy(dx: 300, dy: 200))
        #expect(try server.pointerLocation() == XPoint(titleBar.x + 300, titleBar.y + 200))

        // Pressing inside the client (no modifier) does not move it.
        try server.drag(from: moved.center, to: XPoint(moved.center.x - 50, moved.center.y - 50))
        #expect(try server.geometry(of: window) == moved)
    }

    @Test func stoppingTheServerEndsItsClients() throws {
        let server = try XServer(windowManager: .openbox)
        let logo = try server.start(["xlogo"])
        let sleeper = try server.start(["sleep", "60"])  // not an X client: killed, not disconnected
        _ = try server.waitForWindow(className: "xlogo")
        // (The display's socket is not checked: with -displayfd there is no lock file, and another
        // test's server may take the display number as soon as it is free.)
        let serverPID = server.serverPID
        #expect(kill(serverPID, 0) == 0)

        server.stop()
        #expect(!logo.isRunning)
        #expect(!sleeper.isRunning)
        #expect(!server.isRunning)
        #expect(kill(serverPID, 0) != 0, "Xvfb was reaped")
        #expect(!FileManager.default.fileExists(atPath: server.directory))
        server.stop()  // twice is fine
    }

    // MARK: Media and the binary under test

    @Test func makesTestClips() throws {
        let raw = try TestMedia.raw(.yuyv, width: 1280, height: 720, frames: 3)
        let size = try FileManager.default.attributesOfItem(atPath: raw)[.size] as? Int
        #expect(size == 1280 * 720 * 2 * 3)
        #expect(try TestMedia.raw(.yuyv, width: 1280, height: 720, frames: 3) == raw, "cached")

        for subsampling in [420, 422, 444] {
            let y4m = try TestMedia.y4m(subsampling: subsampling, width: 64, height: 48, frames: 2)
            let header = try String(decoding: Data(contentsOf: URL(fileURLWithPath: y4m)).prefix(40), as: UTF8.self)
            #expect(header.hasPrefix("YUV4MPEG2 W64 H48 "))
            #expect(header.contains(" C\(subsampling)"), "header: \(header)")
        }

        let mjpeg = try Data(contentsOf: URL(fileURLWithPath: TestMedia.mjpeg(width: 64, height: 48, frames: 2)))
        #expect(mjpeg.prefix(2) == Data([0xFF, 0xD8]))
        #expect(mjpeg.suffix(2) == Data([0xFF, 0xD9]))
        #expect(try TestMedia.rawSourceSpec(.nv12, width: 64, height: 48, frames: 1).hasSuffix(":64x48:nv12@30"))
    }

    @Test func findsThePipcamBinary() throws {
        let path = try Pipcam.binaryPath()
        #expect(FileManager.default.isExecutableFile(atPath: path))
        #expect(FileManager.default.fileExists(atPath: Pipcam.packageRoot + "/Package.swift"))
    }
}
