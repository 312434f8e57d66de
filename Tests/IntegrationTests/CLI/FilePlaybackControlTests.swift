import Foundation
import TestSupport
import Testing

/// A file's playback through the control commands and the keys (docs/BEHAVIOUR.md, "Playing a
/// file"). The clip's frame n is a flat grey of luma 16 + n mod 200, so the picture says which
/// frame shows.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct FilePlaybackControlTests {
    /// A 64x36 Y4M clip of `frames` frames at 30 fps, frame n flat grey (luma 16 + n mod 200).
    static func clip(frames: Int) throws -> String {
        var bytes = Array("YUV4MPEG2 W64 H36 F30:1 C420jpeg\n".utf8)
        for n in 0..<frames {
            bytes += Array("FRAME\n".utf8)
            bytes += [UInt8](repeating: UInt8(16 + n % 200), count: 64 * 36) + [UInt8](repeating: 128, count: 64 * 36 / 2)
        }
        return Fixture.file(bytes, name: "numbered-\(frames).y4m")
    }

    /// The grey frame `n` shows as on screen (limited-range luma to full-range RGB).
    static func grey(frame n: Int) -> Double { Double(n % 200) * 255 / 219 }

    static func playback(_ x: XServer) -> [String: Any] { ((try? x.pipcamStatus().object["playback"]) as? [String: Any]) ?? [:] }

    static func shown(_ x: XServer) -> Int { ((try? x.pipcamStatus().object["shown"]) as? Int) ?? 0 }

    /// Waits until the window's mean grey is that of frame `n`.
    static func waitForFrame(_ n: Int, in window: XWindowID, _ x: XServer) throws {
        var mean = 0.0
        try waitUntil("the window to show frame \(n) (grey \(Int(grey(frame: n))), shows \(mean); status \(playback(x)))", timeout: .seconds(10)) {
            mean = (try? x.screenshot(of: window).meanColor())?.green ?? -1
            return abs(mean - grey(frame: n)) < 6
        }
    }

    @Test func pausePlayAndSeekToAnExactFrame() throws {
        let x = try makeServer()
        let (pipcam, window) = try x.startPip(["--source", "y4m:\(try Self.clip(frames: 600))", "--size", "320x180"])
        try waitUntil("frames shown", timeout: .seconds(10)) { Self.shown(x) >= 5 }
        #expect(try x.runPipcam(["pause"]).succeeded)
        try waitUntil("paused in status", timeout: .seconds(5)) { Self.playback(x)["playing"] as? Bool == false }
        let held = Self.shown(x)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.shown(x) == held, "frames shown while paused")
        // Paused, a seek shows the frame sought and stays paused; it returns once that frame shows,
        // so a status right after it already says so.
        let seek = try x.runPipcam(["seek", "f120"])
        #expect(seek.succeeded, "\(seek)")
        #expect(Self.playback(x)["frame"] as? Int == 120, "status right after seek: \(Self.playback(x))")
        try Self.waitForFrame(120, in: window, x)
        #expect(Self.playback(x)["playing"] as? Bool == false && (Self.playback(x)["position"] as? NSNumber)?.doubleValue == 4)
        // Relative, from the frame shown: 2 s back is frame 60.
        #expect(try x.runPipcam(["seek", "-2"]).succeeded)
        #expect(Self.playback(x)["frame"] as? Int == 60, "status right after seek: \(Self.playback(x))")
        try Self.waitForFrame(60, in: window, x)
        #expect(try x.runPipcam(["play"]).succeeded)
        try waitUntil("frames again", timeout: .seconds(5)) { Self.shown(x) >= held + 10 && (Self.playback(x)["frame"] as? Int ?? 0) > 60 }
        #expect(Self.playback(x)["seekable"] as? Bool == true && (Self.playback(x)["length"] as? NSNumber)?.doubleValue == 20)
        let bad = try x.runPipcam(["seek", "soon"])
        #expect(bad.exitCode == 2 && bad.stderrText.contains("'soon' is not"), "\(bad)")
        #expect(pipcam.isRunning && pipcam.stderrText.isEmpty, "\(pipcam.stderrText)")
    }

    /// Space pauses and plays, Right skips 10 s, in the main window (which the window manager focuses).
    @Test func spaceAndArrowKeysInTheMainWindow() throws {
        let x = try makeServer(.openbox)
        let pipcam = try x.startPipcam(["--source", "y4m:\(try Self.clip(frames: 900))", "--size", "320x180"])
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        try x.movePointer(to: try x.geometry(of: main).center)
        // The window manager focuses the window a moment after it shows: Space again until it
        // paused (never once it has, which would play again).
        _ = try poll(timeout: .seconds(5), what: "Space to pause") {
            if Self.playback(x)["playing"] as? Bool == false { return true }
            try x.runChecked(["xdotool", "key", "space"])
            Thread.sleep(forTimeInterval: 0.5)
            return Self.playback(x)["playing"] as? Bool == false ? true : nil
        }
        let before = Self.playback(x)["frame"] as? Int ?? -1
        try x.runChecked(["xdotool", "key", "Right"])
        try waitUntil("Right to skip 10 s (from \(before))", timeout: .seconds(5)) { Self.playback(x)["frame"] as? Int == before + 300 }
        try x.runChecked(["xdotool", "key", "Left"])
        try waitUntil("Left to skip back", timeout: .seconds(5)) { Self.playback(x)["frame"] as? Int == before }
        try x.runChecked(["xdotool", "key", "space"])
        try waitUntil("Space to play again", timeout: .seconds(5)) { Self.playback(x)["playing"] as? Bool == true }
        #expect(pipcam.isRunning)
    }

    /// `--loop` plays on past the end; without it pipcam ends there (exit 0).
    @Test func loopPlaysPastTheEnd() throws {
        let x = try makeServer()
        let clip = try Self.clip(frames: 15)
        let (pipcam, _) = try x.startPip(["--source", "y4m:\(clip)", "--size", "320x180", "--loop"])
        try waitUntil("more frames shown than the clip has", timeout: .seconds(10)) { Self.shown(x) > 40 }
        #expect(pipcam.isRunning && Self.playback(x)["loop"] as? Bool == true && (Self.playback(x)["length"] as? NSNumber)?.doubleValue == 0.5)
        let once = try x.startPipcam(["--source", "y4m:\(clip)", "--pip", "--name", "once"])
        #expect(try once.wait(timeout: .seconds(10)).succeeded)
    }

    /// A camera (here the test pattern) does not pause or seek, and has no playback in status.
    @Test func aLiveSourceHasNoPlayback() throws {
        let x = try makeServer()
        let (pipcam, _) = try x.startPip(["--source", "test", "--size", "320x180"])
        try waitUntil("frames shown", timeout: .seconds(10)) { Self.shown(x) >= 3 }
        let pause = try x.runPipcam(["pause"])
        #expect(pause.exitCode == 1 && pause.stderrText == "pipcam: 'test' is not a file: only a file plays, pauses and seeks\n", "\(pause)")
        #expect(try x.pipcamStatus().object["playback"] == nil)
        #expect(pipcam.isRunning)
    }

    /// PiP's own controls for a file (drawn under the pointer): play/pause and skip forward, clicked.
    /// At 320x180 the bottom row is skip back, play/pause, skip forward, 36 pixels each, 8 from the
    /// bottom edge, centred.
    @Test func pipControlsPauseAndSkipAFile() throws {
        let x = try makeServer()
        let (pipcam, window) = try x.startPip(["--source", "y4m:\(try Self.clip(frames: 900))", "--size", "320x180"])
        try waitUntil("frames shown", timeout: .seconds(10)) { Self.shown(x) >= 5 }
        let g = try x.geometry(of: window)
        let row = g.y + g.height - 8 - 18
        try x.movePointer(to: XPoint(g.x + 100, g.y + 60))
        _ = try poll(timeout: .seconds(5), what: "the play/pause control to pause") {
            if Self.playback(x)["playing"] as? Bool == false { return true }
            try x.click(at: XPoint(g.x + g.width / 2, row))
            Thread.sleep(forTimeInterval: 0.5)
            return Self.playback(x)["playing"] as? Bool == false ? true : nil
        }
        let before = Self.playback(x)["frame"] as? Int ?? -1
        try x.click(at: XPoint(g.x + g.width / 2 + 40, row))
        try waitUntil("skip forward to move 10 s on from \(before) (status \(Self.playback(x)))", timeout: .seconds(5)) {
            Self.playback(x)["frame"] as? Int == before + 300
        }
        #expect(pipcam.isRunning && Self.playback(x)["playing"] as? Bool == false)
    }

    /// A file switched to mid-call goes back to the source it replaced at its end (here the test
    /// pattern), instead of ending pipcam; a source started with --source still ends it.
    @Test func aFileSwitchedToReturnsToTheSourceBeforeItAtItsEnd() throws {
        let x = try makeServer()
        let (pipcam, _) = try x.startPip(["--source", "test", "--size", "320x180", "--stats"])
        try waitUntil("frames shown", timeout: .seconds(10)) { Self.shown(x) >= 3 }
        let clip = try Self.clip(frames: 20)
        let switched = try x.runPipcam(["switch", "y4m:\(clip)"])
        #expect(switched.succeeded, "\(switched)")
        try waitUntil("the test pattern back after the clip's 0.7 s", timeout: .seconds(10)) {
            (try? x.pipcamStatus().object["source"] as? String) == "test"
        }
        #expect(pipcam.isRunning)
        let final = pipcam.terminate(grace: .seconds(3))
        #expect(lines(of: final.stderrText).last?.hasSuffix(" switches=2") == true, "\(final.stderrText.suffix(300))")
    }

    /// The main window's playback bar while a file shows: play/pause and skip forward, clicked
    /// (36-pixel buttons, 12 from the bottom edge, centred, 6 apart).
    @Test func theMainWindowsBarPausesAndSkips() throws {
        let x = try makeServer()
        let pipcam = try x.startPipcam(["--source", "y4m:\(try Self.clip(frames: 900))"])
        let main = try x.waitForWindow(className: "pipcam", role: "main")
        try waitUntil("frames shown", timeout: .seconds(10)) { Self.shown(x) >= 5 }
        let g = try x.geometry(of: main)
        let row = g.y + g.height - 12 - 18
        _ = try poll(timeout: .seconds(5), what: "the play/pause button to pause") {
            if Self.playback(x)["playing"] as? Bool == false { return true }
            try x.click(at: XPoint(g.x + g.width / 2, row))
            Thread.sleep(forTimeInterval: 0.5)
            return Self.playback(x)["playing"] as? Bool == false ? true : nil
        }
        let before = Self.playback(x)["frame"] as? Int ?? -1
        try x.click(at: XPoint(g.x + g.width / 2 + 42, row))
        try waitUntil("skip forward from \(before)", timeout: .seconds(5)) { Self.playback(x)["frame"] as? Int == before + 300 }
        #expect(pipcam.isRunning)
    }
}
