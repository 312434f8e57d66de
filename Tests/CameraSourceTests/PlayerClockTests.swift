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
