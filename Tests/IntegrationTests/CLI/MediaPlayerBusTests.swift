import Foundation
import TestSupport
import Testing

/// pipcam as an MPRIS player while a file plays (docs/BEHAVIOUR.md, "Playing a file"), on a
/// session bus of the test's own, driven with playerctl as media keys and desktop widgets do.
@Suite(.serialized, .timeLimit(.minutes(2)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl")))
struct MediaPlayerBusTests {
    /// A session bus in the server's directory: the environment its clients need.
    static func bus(on x: XServer) throws -> [String: String] {
        let address = "unix:path=\(x.directory)/bus"
        _ = try x.start(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(address)"])
        try waitUntil("the session bus", timeout: .seconds(10)) { FileManager.default.fileExists(atPath: "\(x.directory)/bus") }
        return ["DBUS_SESSION_BUS_ADDRESS": address]
    }

    static func playerctl(_ x: XServer, _ bus: [String: String], _ arguments: [String]) throws -> String {
        let result = try IntegrationTests.run(["playerctl"] + arguments, environment: x.environment.merging(bus) { $1 }, timeout: .seconds(10))
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// pipcam playing a clip of `frames` frames, once it is on the test's own bus.
    static func playerOnBus(frames: Int) throws -> (x: XServer, bus: [String: String], pipcam: RunningProcess, clip: String) {
        let x = try makeServer()
        let bus = try Self.bus(on: x)
        let clip = try FilePlaybackControlTests.clip(frames: frames)
        let (pipcam, _) = try x.startPip(["--source", "y4m:\(clip)", "--size", "320x180"], extraEnvironment: bus)
        try waitUntil("pipcam on the bus", timeout: .seconds(10)) { try Self.playerctl(x, bus, ["-l"]).split(separator: "\n").contains("pipcam") }
        return (x, bus, pipcam, clip)
    }

    /// A method call to pipcam's player object, as any client on the bus may make it.
    static func call(_ x: XServer, _ bus: [String: String], _ method: String, _ arguments: [String] = []) throws -> ProcessResult {
        try IntegrationTests.run(
            ["dbus-send", "--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.pipcam", "/org/mpris/MediaPlayer2", method] + arguments,
            environment: x.environment.merging(bus) { $1 }, timeout: .seconds(10))
    }

    static func playback(_ x: XServer) -> [String: Any] { ((try? x.pipcamStatus().object["playback"]) as? [String: Any]) ?? [:] }

    @Test func playerctlDrivesTheFileAndAgreesWithStatus() throws {
        let (x, bus, pipcam, clip) = try Self.playerOnBus(frames: 600)
        #expect(try Self.playerctl(x, bus, ["-p", "pipcam", "status"]) == "Playing")
        let metadata = try Self.playerctl(x, bus, ["-p", "pipcam", "metadata"])
        let name = (clip as NSString).lastPathComponent
        #expect(metadata.contains("xesam:title") && metadata.contains(name) && metadata.contains("mpris:length") && metadata.contains("20000000"), "\(metadata)")
        _ = try Self.playerctl(x, bus, ["-p", "pipcam", "play-pause"])
        try waitUntil("paused", timeout: .seconds(5)) { Self.playback(x)["playing"] as? Bool == false }
        #expect(try Self.playerctl(x, bus, ["-p", "pipcam", "status"]) == "Paused")
        _ = try Self.playerctl(x, bus, ["-p", "pipcam", "position", "5"])
        try waitUntil("frame 150 (5 s) in status", timeout: .seconds(5)) { Self.playback(x)["frame"] as? Int == 150 }
        #expect(Double(try Self.playerctl(x, bus, ["-p", "pipcam", "position"])) == 5)
        _ = try Self.playerctl(x, bus, ["-p", "pipcam", "position", "2+"])
        try waitUntil("frame 210 (+2 s) in status", timeout: .seconds(5)) { Self.playback(x)["frame"] as? Int == 210 }
        _ = try Self.playerctl(x, bus, ["-p", "pipcam", "play"])
        try waitUntil("playing", timeout: .seconds(5)) { Self.playback(x)["playing"] as? Bool == true }
        #expect(pipcam.isRunning && pipcam.stderrText.isEmpty, "\(pipcam.stderrText)")
        // org.mpris.MediaPlayer2.Quit (playerctl has no command for it) ends pipcam.
        let quit = try Self.call(x, bus, "org.mpris.MediaPlayer2.Quit")
        #expect(quit.succeeded, "\(quit)")
        #expect(try pipcam.wait(timeout: .seconds(10)).succeeded)
    }

    /// Any client on the bus may send any Int64 or a wrong type: the extremes seek to an end of
    /// the file, a wrong type is an InvalidArgs error, and pipcam stays up throughout.
    @Test func extremeAndWrongArgumentsAreClampedOrRefused() throws {
        let (x, bus, pipcam, _) = try Self.playerOnBus(frames: 300)
        _ = try Self.playerctl(x, bus, ["-p", "pipcam", "pause"])
        try waitUntil("paused", timeout: .seconds(5)) { Self.playback(x)["playing"] as? Bool == false }
        func call(_ member: String, _ arguments: [String]) throws -> ProcessResult {
            try Self.call(x, bus, "org.mpris.MediaPlayer2.Player.\(member)", arguments)
        }
        let track = "objpath:/io/github/pipcam/track/0"
        let cases: [(String, [String], Int)] = [
            ("Seek", ["int64:9223372036854775807"], 299), ("Seek", ["int64:-9223372036854775808"], 0),
            ("SetPosition", [track, "int64:9223372036854775807"], 299), ("SetPosition", [track, "int64:-9223372036854775808"], 0),
            ("Seek", ["int64:9223372036854775806"], 299), ("SetPosition", [track, "int64:4000000"], 120),
        ]
        for (member, arguments, frame) in cases {
            let result = try call(member, arguments)
            #expect(result.succeeded, "\(member) \(arguments): \(result)")
            try waitUntil("\(member) \(arguments) at frame \(frame)", timeout: .seconds(5)) { Self.playback(x)["frame"] as? Int == frame }
        }
        for (member, arguments) in [("Seek", ["string:far"]), ("Seek", [String]()), ("SetPosition", ["int64:5"]), ("SetPosition", [track, "double:1.5"])] {
            let result = try call(member, arguments)
            #expect(!result.succeeded && result.stderrText.contains("InvalidArgs"), "\(member) \(arguments): \(result)")
        }
        #expect(Self.playback(x)["frame"] as? Int == 120, "refused calls moved nothing")
        #expect(pipcam.isRunning && pipcam.stderrText.isEmpty, "\(pipcam.stderrText)")
    }

    /// A camera (here the test pattern) is no media player: nothing on the bus.
    @Test func aLiveSourceIsNoPlayer() throws {
        let x = try makeServer()
        let bus = try Self.bus(on: x)
        let (pipcam, _) = try x.startPip(["--source", "test", "--size", "320x180"], extraEnvironment: bus)
        try waitUntil("frames shown", timeout: .seconds(10)) { ((try? x.pipcamStatus().object["shown"]) as? Int ?? 0) >= 5 }
        #expect(try !Self.playerctl(x, bus, ["-l"]).contains("pipcam"))
        #expect(pipcam.isRunning && pipcam.stderrText.isEmpty)
    }
}
