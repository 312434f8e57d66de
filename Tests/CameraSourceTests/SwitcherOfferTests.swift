import Testing
@testable import CameraSource
import PipCore

/// A camera the finder offers (`SwitchInbox.offer`) replaces the stand-in as a switch would, but
/// yields to the user: it never replaces a source switched to, nor a switch under way.
@Suite struct SwitcherOfferTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)

    /// What the finder hears, in order.
    private final class Answers: @unchecked Sendable {
        private let heard = Locked<[SwitchOutcome]>([])
        var all: [SwitchOutcome] { heard.withLock { $0 } }
        var answer: SwitchInbox.Answer { { [heard] outcome in heard.withLock { $0.append(outcome) } } }
    }

    @Test func anOfferedCameraTakesOverAtItsFirstFrameAndOnlyTheFinderHears() throws {
        let standIn = StubSource(name: "test"), camera = StubSource(name: "/dev/video0", mirrored: true)
        let switcher = SourceSwitcher(standIn)
        try switcher.start()
        let held = try #require(expectFrame(try switcher.nextFrame(now: t0)))
        switcher.apply(SourceControls(throttle: 1, displaySize: .init(width: 640, height: 360)))
        let answers = Answers()
        switcher.inbox.offer(camera, answer: answers.answer)
        let first = try #require(expectFrame(try switcher.nextFrame(now: t0 + ms(5))))
        #expect(first.sequence == held.sequence + 1)
        #expect(switcher.name == "/dev/video0" && switcher.mirroredByDefault, "named as the camera names itself")
        #expect(answers.all == [.switched(name: "/dev/video0", firstSequence: first.sequence)])
        #expect(switcher.inbox.takeOutcomes().isEmpty, "no switch the user asked for")
        #expect(camera.log.contains("display 640x360") && camera.throttle == 1, "the controls in effect, handed on")
        switcher.recycle(bufferIndex: held.bufferIndex)
        #expect(standIn.stopped)
    }

    @Test func anOfferedCameraMayTakeTenSecondsToGiveItsFirstFrame() throws {
        let switcher = SourceSwitcher(StubSource(name: "test"))
        try switcher.start()
        let camera = StubSource(name: "/dev/video0")
        camera.waitUntil = t0 + ms(60_000)
        let answers = Answers()
        switcher.inbox.offer(camera, answer: answers.answer)
        _ = try switcher.nextFrame(now: t0)
        _ = try switcher.nextFrame(now: t0 + ms(9999))
        #expect(answers.all.isEmpty && switcher.isSwitching)
        _ = try switcher.nextFrame(now: t0 + ms(10_000))
        #expect(answers.all == [.failed(name: "/dev/video0", reason: "/dev/video0: no frame within 10 s")])
        #expect(camera.stopped && !switcher.isSwitching && switcher.name == "test")
    }

    @Test func aSwitchTheUserAsksForReplacesAnOfferedCameraOnItsWay() throws {
        let switcher = SourceSwitcher(StubSource(name: "test"))
        try switcher.start()
        let camera = StubSource(name: "/dev/video0"), chosen = StubSource(name: "/tmp/a.y4m")
        camera.waitUntil = t0 + ms(500)
        let answers = Answers()
        switcher.inbox.offer(camera, answer: answers.answer)
        _ = try switcher.nextFrame(now: t0)
        switcher.inbox.propose(chosen, name: "y4m:/tmp/a.y4m")
        _ = try #require(expectFrame(try switcher.nextFrame(now: t0 + ms(1))))
        #expect(answers.all == [.failed(name: "/dev/video0", reason: "/dev/video0: replaced by a later switch")])
        #expect(camera.stopped && switcher.name == "y4m:/tmp/a.y4m")
        #expect(switcher.inbox.takeOutcomes().count == 1)
    }

    /// Offered while the user's switch is on its way, or after one took over: refused and stopped.
    @Test(arguments: [false, true])
    func anOfferedCameraYieldsToTheUsersSwitch(switchDone: Bool) throws {
        let switcher = SourceSwitcher(StubSource(name: "test"))
        try switcher.start()
        let chosen = StubSource(name: "/tmp/a.y4m")
        if !switchDone { chosen.waitUntil = t0 + ms(500) }
        switcher.inbox.propose(chosen, name: "y4m:/tmp/a.y4m")
        _ = try switcher.nextFrame(now: t0)
        #expect(switcher.isSwitching == !switchDone)
        let camera = StubSource(name: "/dev/video0")
        let answers = Answers()
        switcher.inbox.offer(camera, answer: answers.answer)
        _ = try switcher.nextFrame(now: t0 + ms(1))
        #expect(answers.all == [.failed(name: "/dev/video0", reason: "/dev/video0: not needed, another source is shown")])
        #expect(camera.stopped && camera.frameRequests == 0)
        #expect(switcher.isSwitching == !switchDone, "the user's switch goes on")
    }
}
