import Foundation
import TestSupport
import Testing
import PipWindow

/// A file source of the playback tests, generated with ffmpeg's testsrc2.
enum PlaybackClip: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case rawYUYV, rawI420, y4m420, y4m422, y4m444, y4mMono, mjpeg

    static let frames = 30
    static let width = 320, height = 180

    /// pipcam's `--source` for the clip.
    func sourceSpec() throws -> String {
        let (w, h, n) = (Self.width, Self.height, Self.frames)
        switch self {
        case .rawYUYV: return try TestMedia.rawSourceSpec(.yuyv, width: w, height: h, frames: n)
        case .rawI420: return try TestMedia.rawSourceSpec(.i420, width: w, height: h, frames: n)
        case .y4m420: return "y4m:" + (try TestMedia.y4m(subsampling: 420, width: w, height: h, frames: n))
        case .y4m422: return "y4m:" + (try TestMedia.y4m(subsampling: 422, width: w, height: h, frames: n))
        case .y4m444: return "y4m:" + (try TestMedia.y4m(subsampling: 444, width: w, height: h, frames: n))
        case .y4mMono:
            let path = try TestMedia.path(.init(container: .y4m, pixelFormat: "gray", width: w, height: h, frames: n, rate: 30))
            let header = try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)).prefix(60), as: UTF8.self)
            guard header.contains(" Cmono") else { throw HarnessError("ffmpeg wrote no mono y4m: \(header)") }
            return "y4m:" + path
        case .mjpeg: return "mjpeg:" + (try TestMedia.mjpeg(width: w, height: h, frames: n)) + "@30"
        }
    }

    var testDescription: String { rawValue }
}

extension PipTests {
    /// File sources play once and exit 0; `--frames N` stops after N frames.
    @Suite struct Playback {
        @Test(arguments: PlaybackClip.allCases)
        func fileSourcePlaysToItsEndAndExitsZero(_ clip: PlaybackClip) throws {
            let spec = try clip.sourceSpec()
            let x = try makeServer()
            let pipcam = try x.startPipcam(["--pip", "--untimed", "--stats", "--source", spec])
            let result = try waitForEnd(of: pipcam, timeout: .seconds(8), what: "a \(PlaybackClip.frames)-frame file played --untimed")
            #expect(result.termination == .exited(0), "\(result)")

            let errorLines = lines(of: result.stderrText)
            let final = try #require(errorLines.last.flatMap { StatsLine($0) }, "no final stats line; stderr:\n\(result.stderrText)")
            for line in errorLines {
                #expect(StatsLine(line) != nil, "not a stats line: \(line)")
            }
            #expect(final.shown == PlaybackClip.frames && final.dropped == 0,
                    "a \(PlaybackClip.frames)-frame file shows every frame: \(final)")
            #expect(try x.windows(className: PipIdentity.instance, role: PipIdentity.role).isEmpty,
                    "the PiP window outlived pipcam")
        }

        /// One picture of an MJPEG stream whose header gives a size libjpeg-turbo refuses is
        /// dropped, and the pictures after it are shown: they all were dropped, the picture frozen.
        @Test func aPictureWithABadSizeIsDroppedAndPlayGoesOn() throws {
            let clip = try Data(contentsOf: URL(fileURLWithPath: try TestMedia.mjpeg(width: 64, height: 48, frames: 10)))
            let bytes = [UInt8](clip)
            let starts = (0..<bytes.count - 2).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD8 && bytes[$0 + 2] == 0xFF }
            try #require(starts.count == 10, "frame starts \(starts)")
            var bad = Array(bytes[starts[0]..<starts[1]])
            let sof = try #require((0..<bad.count - 1).first { bad[$0] == 0xFF && bad[$0 + 1] == 0xC0 })
            (bad[sof + 5], bad[sof + 6]) = (0, 0)
            let stream = Array(bytes[..<starts[3]]) + bad + Array(bytes[starts[3]...])
            let x = try makeServer()
            let path = x.directory + "/one-bad-picture.mjpeg"
            try Data(stream).write(to: URL(fileURLWithPath: path))
            let pipcam = try x.startPipcam(["--pip", "--untimed", "--stats", "--source", "mjpeg:\(path)"])
            let result = try waitForEnd(of: pipcam, timeout: .seconds(8), what: "an 11-picture MJPEG file played --untimed")
            #expect(result.termination == .exited(0), "\(result)")
            let final = try #require(lines(of: result.stderrText).last.flatMap { StatsLine($0) }, "stderr:\n\(result.stderrText)")
            #expect(final.shown == 10 && final.dropped == 1, "\(final)")
        }

        /// Without `--untimed`, a file plays at its own rate: 30 frames at 30 fps take about a second.
        @Test func fileSourcePlaysAtItsRate() throws {
            let clip = try TestMedia.y4m(subsampling: 420, width: 320, height: 180, frames: 30, rate: 30)
            let x = try makeServer()
            let clock = ContinuousClock()
            let started = clock.now
            let pipcam = try x.startPipcam(["--pip", "--stats", "--source", "y4m:\(clip)"])
            let result = try waitForEnd(of: pipcam, timeout: .seconds(8), what: "a 1-second file played at its rate")
            let elapsed = clock.now - started
            #expect(result.termination == .exited(0), "\(result)")
            #expect(elapsed >= .milliseconds(900), "30 frames at 30 fps played in \(elapsed)")
            #expect(elapsed < .seconds(6), "30 frames at 30 fps played in \(elapsed)")
            let final = try #require(lines(of: result.stderrText).last.flatMap { StatsLine($0) }, "stderr:\n\(result.stderrText)")
            #expect(final.shown == 30 && final.dropped == 0, "a file's frames wait for the window: \(final)")
        }

        /// In the main window under a window manager (which maps it a while after pipcam asks), every
        /// frame of a file is shown: none is used up before the window is there.
        @Test(arguments: [false, true])
        func aFileInTheMainWindowShowsEveryFrame(untimed: Bool) throws {
            let clip = try TestMedia.y4m(subsampling: 420, width: 320, height: 180, frames: 30, rate: 30)
            let x = try makeServer(.openbox)
            let pipcam = try x.startPipcam(["--stats", "--source", "y4m:\(clip)"] + (untimed ? ["--untimed"] : []))
            let result = try waitForEnd(of: pipcam, timeout: .seconds(8), what: "a 30-frame file in the main window")
            #expect(result.termination == .exited(0), "\(result)")
            let final = try #require(lines(of: result.stderrText).last.flatMap { StatsLine($0) }, "stderr:\n\(result.stderrText)")
            #expect(final.shown == 30 && final.dropped == 0, "\(final)")
        }

        @Test func framesLimitExitsZeroAfterThatManyFrames() throws {
            let x = try makeServer()
            let pipcam = try x.startPipcam(["--pip", "--source", "test", "--frames", "45", "--stats"])
            let window = try x.waitForWindow(className: PipIdentity.instance, role: PipIdentity.role)
            let result = try waitForEnd(of: pipcam, timeout: .seconds(8), what: "45 frames of the 30 fps test pattern")
            #expect(result.termination == .exited(0), "\(result)")
            let final = try #require(lines(of: result.stderrText).last.flatMap { StatsLine($0) }, "stderr:\n\(result.stderrText)")
            #expect(final.shown == 45, "--frames 45: \(final)")
            #expect(try x.info(of: window)?.isViewable != true, "the window outlived pipcam")
        }
    }
}

/// Waits for pipcam to exit by itself; on timeout the error says what it printed meanwhile.
func waitForEnd(of pipcam: RunningProcess, timeout: Duration, what: String) throws -> ProcessResult {
    do {
        return try pipcam.wait(timeout: timeout)
    } catch {
        let partial = pipcam.terminate(grace: .seconds(1))
        throw HarnessError("pipcam did not exit within \(timeout) after \(what); stderr so far:\n\(partial.stderrText.suffix(800))")
    }
}
