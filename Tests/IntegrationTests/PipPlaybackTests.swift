import Foundation
import Testing

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
            #expect(final.shown >= 1, "\(final)")
            #expect(final.shown + final.dropped == PlaybackClip.frames,
                    "a \(PlaybackClip.frames)-frame file: shown + dropped should be \(PlaybackClip.frames): \(final)")
            #expect(try x.windows(className: PipIdentity.instance, role: PipIdentity.role).isEmpty,
                    "the PiP window outlived pipcam")
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
            #expect(final.shown + final.dropped == 30, "\(final)")
            #expect(final.shown >= 25, "paced at 30 fps, nearly every frame is shown: \(final)")
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
            #expect(final.text.contains(" shown=45 "), "\(final)")
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
