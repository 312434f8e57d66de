import CameraSource
import PipControl
import PipWindow
import Testing
@testable import PipcamApp

/// What a media player's ask means for a file's playback, and how the file is named on the bus.
@Suite struct MediaDeskTests {
    @Test func asksBecomeRequests() {
        #expect(MediaDesk.commands(for: .play) == [.playback(.play)])
        #expect(MediaDesk.commands(for: .pause) == [.playback(.pause)])
        #expect(MediaDesk.commands(for: .playPause) == [.playback(.toggle)])
        #expect(MediaDesk.commands(for: .stop) == [.playback(.pause), .playback(.seek(.seconds(0)))], "stopped: paused at the start")
        #expect(MediaDesk.commands(for: .seek(by: -2.5)) == [.playback(.seek(.relative(-2.5)))])
        #expect(MediaDesk.commands(for: .seek(by: 10)) == [.playback(.seek(.relative(10)))])
        #expect(MediaDesk.commands(for: .setPosition(5)) == [.playback(.seek(.seconds(5)))])
        #expect(MediaDesk.commands(for: .setPosition(-1)) == [.playback(.seek(.seconds(0)))])
        #expect(MediaDesk.commands(for: .quit) == [.quit])
    }

    /// MPRIS's Seek and SetPosition take any Int64 of microseconds: each extreme is a seek to an
    /// end of the file, not a trap.
    @Test(arguments: [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 0])
    func extremeOffsetsAreSeeksToAnEnd(micros: Int64) throws {
        let seconds = Double(micros) / 1_000_000
        for asked in [MediaCommand.seek(by: seconds), .setPosition(seconds)] {
            let commands = MediaDesk.commands(for: asked)
            guard case .playback(.seek(let target))? = commands.first, commands.count == 1 else { Issue.record("\(commands)"); continue }
            var clock = PlayerClock(frameRate: 30, frameCount: 300)
            clock.handedOut(frame: 150)
            let frame = clock.seek(target)
            // Far forward is the last frame; far back, or a position at or before 0, the first; a
            // seek by 0 stays.
            let expected = micros > 0 ? 299 : micros == 0 && asked == .seek(by: 0) ? 150 : 0
            #expect(frame == expected, "\(asked) -> \(target)")
        }
    }

    @Test func aFileIsNamedByItsFileNameAndURL() {
        #expect(MediaDesk.describe(source: .y4m(path: "/videos/my clip.y4m"), named: "y4m:/videos/my clip.y4m") == ("my clip.y4m", "file:///videos/my%20clip.y4m"))
        #expect(MediaDesk.describe(source: .mjpeg(path: "/a/b%c.mjpeg", fps: 30), named: "mjpeg:/a/b%c.mjpeg@30") == ("b%c.mjpeg", "file:///a/b%25c.mjpeg"))
        #expect(MediaDesk.describe(source: .raw(path: "/r/cam.yuv", width: 640, height: 360, format: .yuyv, fps: 30), named: "raw:/r/cam.yuv:640x360:yuyv@30") == ("cam.yuv", "file:///r/cam.yuv"))
        #expect(MediaDesk.describe(source: .y4m(path: "-"), named: "y4m:-") == ("standard input", ""))
    }
}
