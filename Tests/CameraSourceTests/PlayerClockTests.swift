@testable import CameraSource
import Testing

/// A file's playback as a value: pause, seek, loop (docs/BEHAVIOUR.md, "Playing a file").
@Suite struct PlayerClockTests {
    @Test func playingHandsOutEveryFrameInTurnAndPausingNone() {
        var clock = PlayerClock(frameRate: 25)
        #expect(clock.wantedFrame == 0)
        clock.handedOut(frame: 0)
        clock.handedOut(frame: 1)
        #expect(clock.wantedFrame == 2 && clock.shownFrame == 1)
        clock.pause()
        #expect(clock.wantedFrame == nil && !clock.isPlaying)
        clock.play()
        #expect(clock.wantedFrame == 2)
        #expect(clock.position == 1.0 / 25)
    }

    /// Paused, the frame sought is shown once, then nothing until play.
    @Test func aSeekWhilePausedShowsOneStill() {
        var clock = PlayerClock(frameRate: 30)
        for frame in 0..<10 { clock.handedOut(frame: frame) }
        clock.pause()
        #expect(clock.seek(.frame(120)) == 120)
        #expect(clock.wantedFrame == 120)
        clock.handedOut(frame: 120)
        #expect(clock.wantedFrame == nil && clock.position == 4)
        // Relative to the frame shown: 10 s back from frame 120 at 30 fps is frame 0, not below.
        #expect(clock.seek(.relative(-10)) == 0)
        #expect(clock.seek(.relative(2)) == 60, "from the frame sought and not shown yet (0): skips add up")
        clock.handedOut(frame: 60)
        #expect(clock.seek(.relative(1)) == 90, "from the frame shown")
    }

    @Test func seeksStopAtTheFilesFramesOnceKnown() {
        var clock = PlayerClock(frameRate: 10, frameCount: 50)
        #expect(clock.seek(.seconds(3.05)) == 30)
        #expect(clock.seek(.seconds(99)) == 49)
        #expect(clock.seek(.frame(-3)) == 0)
        #expect(clock.length == 5)
        var unknown = PlayerClock(frameRate: 10)
        #expect(unknown.seek(.seconds(99)) == 990 && unknown.length == nil)
    }

    /// Seeks from outside (a typed `seek`, a media player's Int64 microseconds) as far as a Double
    /// or an Int goes: the nearest end of the file, never a trap or a wrapped frame.
    @Test(arguments: [
        (SeekTarget.seconds(1e20), 49), (.seconds(1e300), 49), (.seconds(.infinity), 49), (.seconds(-1e300), 0),
        (.relative(1e300), 49), (.relative(-1e300), 0), (.relative(9.223372036854775807e12), 49),
        (.relative(-9.223372036854775808e12), 0), (.frame(.max), 49), (.seconds(.nan), 0),
    ])
    func farSeeksLandOnTheFilesEnds(target: SeekTarget, frame: Int) {
        var clock = PlayerClock(frameRate: 10, frameCount: 50)
        clock.handedOut(frame: 20)
        #expect(clock.seek(target) == frame)
        var unknown = PlayerClock(frameRate: 10)
        unknown.handedOut(frame: 20)
        let sought = unknown.seek(target)
        #expect(sought == (frame == 0 ? 0 : PlayerClock.farthest), "length unknown: as far as a file can be, the source stops at its end")
        unknown.handedOut(frame: sought)
        #expect(unknown.seek(.relative(1e300)) == PlayerClock.farthest, "counting on from there does not overflow")
    }

    @Test(arguments: [
        ("99999999999999999999", SeekTarget.seconds(1e20)), ("+1e300", .relative(1e300)), ("-1e300", .relative(-1e300)),
        ("f99999999999999999999", .frame(.max)),
    ])
    func farSeekTargetsAreRead(text: String, target: SeekTarget) {
        #expect(SeekTarget.parse(text) == target)
    }

    @Test func theEndIsOverOrAStartAgain() {
        var once = PlayerClock(frameRate: 30)
        for frame in 0..<3 { once.handedOut(frame: frame) }
        #expect(once.reachedEnd() == .over && once.frameCount == 3)
        var looping = PlayerClock(frameRate: 30, loops: true)
        for frame in 0..<3 { looping.handedOut(frame: frame) }
        #expect(looping.reachedEnd() == .restart && looping.wantedFrame == 0 && looping.loopsDone == 1 && looping.frameCount == 3)
        var empty = PlayerClock(frameRate: 30, loops: true)
        #expect(empty.reachedEnd() == .over, "a file without frames does not loop for ever")
    }

    @Test(arguments: [
        ("+10", SeekTarget.relative(10)), ("-2.5", .relative(-2.5)), ("90", .seconds(90)), ("1:30", .seconds(90)),
        ("1:02:03", .seconds(3723)), ("0.5", .seconds(0.5)), ("f120", .frame(120)), ("f0", .frame(0)),
    ])
    func seekTargetsAreRead(text: String, target: SeekTarget) {
        #expect(SeekTarget.parse(text) == target)
    }

    @Test(arguments: ["", "f", "f-1", "fx", "+", "--1", "+-1", "1:60", "1::2", "a", "1:2:3:4", "nan", "+inf", "1.5:00"])
    func otherTextIsNoSeekTarget(text: String) {
        #expect(SeekTarget.parse(text) == nil)
    }
}
