import Testing
@testable import CameraSource
import PipCore

/// `pipcam switch` on the capture side: a started source runs beside the current one until its
/// first frame, then takes over between two frames; the old one stops once its frames are back.
@Suite struct SourceSwitcherTests {
    private let t0 = MonotonicInstant(nanoseconds: 10_000_000_000)
    private let stride = SourceSwitcher.generationStride

    private func frame(_ step: SourceStep, sourceLocation: SourceLocation = #_sourceLocation) -> VideoFrame? {
        expectFrame(step, sourceLocation: sourceLocation)
    }

    @Test func beforeASwitchFramesAndBuffersPassThroughUnchanged() throws {
        let old = StubSource(name: "/dev/video0", mirrored: true)
        let switcher = SourceSwitcher(old)
        try switcher.start()
        #expect(old.started && switcher.name == "/dev/video0" && switcher.mirroredByDefault)
        let f = try #require(frame(try switcher.nextFrame(now: t0)))
        #expect(f.bufferIndex < stride && f.sequence == 0)
        switcher.recycle(bufferIndex: f.bufferIndex)
        #expect(old.log.last == "recycle \(f.bufferIndex)")
        #expect(switcher.inbox.takeOutcomes().isEmpty && !switcher.isSwitching)
    }

    @Test func theNewSourceTakesOverAtItsFirstFrameAndTheOldStopsOnceItsFramesAreBack() throws {
        let old = StubSource(name: "test"), new = StubSource(name: "y4m:/tmp/a.y4m")
        let switcher = SourceSwitcher(old)
        try switcher.start()
        let a = try #require(frame(try switcher.nextFrame(now: t0)))
        let b = try #require(frame(try switcher.nextFrame(now: t0)))  // the display holds this one
        switcher.recycle(bufferIndex: a.bufferIndex)

        new.waitUntil = t0 + 50_000_000  // opened, no frame yet
        switcher.inbox.propose(new, name: "y4m:/tmp/a.y4m")
        // Until the new source has a frame the old one goes on.
        let c = try #require(frame(try switcher.nextFrame(now: t0 + 1)))
        #expect(switcher.isSwitching && switcher.name == "test")
        #expect(new.frameRequests == 1 && c.bufferIndex < stride)
        switcher.recycle(bufferIndex: c.bufferIndex)

        new.waitUntil = nil
        let first = try #require(frame(try switcher.nextFrame(now: t0 + 2)))
        #expect(first.bufferIndex >= stride, "a new generation of buffer indexes")
        #expect(first.sequence == c.sequence + 1, "numbering goes on: a switch is no dropped frame")
        #expect(switcher.name == "y4m:/tmp/a.y4m" && !switcher.isSwitching)
        #expect(switcher.inbox.takeOutcomes() == [.switched(name: "y4m:/tmp/a.y4m", firstSequence: first.sequence)])
        #expect(!old.stopped, "the display still holds one of its frames")
        #expect(old.frameRequests == 3, "the old source is asked no more")

        let second = try #require(frame(try switcher.nextFrame(now: t0 + 3)))
        #expect(second.sequence == first.sequence + 1)
        switcher.recycle(bufferIndex: b.bufferIndex)
        #expect(old.log.suffix(2) == ["recycle \(b.bufferIndex)", "stop"])
        switcher.recycle(bufferIndex: first.bufferIndex)
        #expect(new.log.last == "recycle \(first.bufferIndex % stride)")
        switcher.stop()
        #expect(new.stopped && old.log.filter { $0 == "stop" }.count == 1)
    }

    @Test func anOldSourceWithNothingOutStopsAtTheSwitch() throws {
        let old = StubSource(name: "a"), new = StubSource(name: "b")
        let switcher = SourceSwitcher(old)
        switcher.inbox.propose(new, name: "b")
        _ = try #require(frame(try switcher.nextFrame(now: t0)))
        #expect(old.stopped && old.frameRequests == 0)
    }

    @Test func whileTheNewSourceWaitsForItsDescriptorTheOldIsLookedAtEveryFewMilliseconds() throws {
        let old = StubSource(name: "a", buffers: 0), new = StubSource(name: "b")
        old.pollDescriptor = 7
        new.pollDescriptor = 9
        new.waitUntil = t0 + 1_000_000_000
        let switcher = SourceSwitcher(old)
        #expect(switcher.pollDescriptor == 7)
        switcher.inbox.propose(new, name: "b")
        let step = try switcher.nextFrame(now: t0)
        #expect(step.waitDeadline == .some(t0 + SourceSwitcher.candidatePollNanoseconds))
        #expect(switcher.pollDescriptor == 9)
    }

    @Test(arguments: ["throws", "ends", "disconnected", "times out"])
    func aNewSourceThatGivesNoFrameFailsAndTheOldGoesOn(_ how: String) throws {
        let old = StubSource(name: "/dev/video0"), new = StubSource(name: "/dev/video2")
        var now = t0
        switch how {
        case "throws": new.nextError = .runtime(thing: "/dev/video2", reason: "VIDIOC_DQBUF failed: EIO")
        case "ends": new.ended = true
        case "disconnected":
            new.waitUntil = t0 + 1
            new.cameraState = .interrupted(.disconnected)
        default:
            new.waitUntil = t0 + 10 * SourceSwitcher.firstFrameNanoseconds
        }
        let switcher = SourceSwitcher(old)
        switcher.inbox.propose(new, name: "/dev/video2")
        _ = try #require(frame(try switcher.nextFrame(now: now)))
        if how == "times out" {
            #expect(switcher.inbox.takeOutcomes().isEmpty && switcher.isSwitching)
            now = t0 + SourceSwitcher.firstFrameNanoseconds
            _ = try #require(frame(try switcher.nextFrame(now: now)))
        }
        let outcomes = switcher.inbox.takeOutcomes()
        #expect(outcomes.count == 1)
        guard case .failed(let name, let reason)? = outcomes.first else { Issue.record("no failure: \(outcomes)"); return }
        #expect(name == "/dev/video2" && reason.hasPrefix("/dev/video2: "))
        #expect(new.stopped && !old.stopped && switcher.name == "/dev/video0" && !switcher.isSwitching)
        let after = try #require(frame(try switcher.nextFrame(now: now + 1)))
        #expect(after.bufferIndex < stride)
    }

    @Test func aFileThatEndsWhileTheNextSourceGetsReadyIsNotTheEnd() throws {
        let old = StubSource(name: "y4m:a"), new = StubSource(name: "test")
        old.ended = true
        new.waitUntil = t0 + 20_000_000
        let switcher = SourceSwitcher(old)
        switcher.inbox.propose(new, name: "test")
        #expect(try switcher.nextFrame(now: t0).waitDeadline == .some(t0 + 20_000_000))
        new.waitUntil = nil
        _ = try #require(frame(try switcher.nextFrame(now: t0 + 20_000_000)))
        #expect(switcher.name == "test" && old.stopped)
    }

    @Test func aSecondProposalReplacesOneStillOnItsWay() throws {
        let old = StubSource(name: "a"), slow = StubSource(name: "b"), quick = StubSource(name: "c")
        slow.waitUntil = t0 + 1_000_000_000
        let switcher = SourceSwitcher(old)
        switcher.inbox.propose(slow, name: "b")
        _ = try switcher.nextFrame(now: t0)
        switcher.inbox.propose(quick, name: "c")
        let f = try #require(frame(try switcher.nextFrame(now: t0 + 1)))
        #expect(f.bufferIndex >= 2 * stride && switcher.name == "c" && slow.stopped)
        #expect(switcher.inbox.takeOutcomes() == [
            .failed(name: "b", reason: "b: replaced by a later switch"), .switched(name: "c", firstSequence: f.sequence),
        ])
    }

    @Test func theNewSourceStartsAtTheThrottleInEffectAndTakesTheDisplaySize() throws {
        let old = StubSource(name: "a"), new = StubSource(name: "b")
        let switcher = SourceSwitcher(old)
        switcher.apply(SourceControls(throttle: 2))
        switcher.inbox.propose(new, name: "b")
        _ = try switcher.nextFrame(now: t0)
        #expect(new.throttle == 2)
        switcher.apply(SourceControls(throttle: 2, displaySize: .init(width: 640, height: 360)))
        #expect(new.log.last == "display 640x360" && !old.log.contains("display 640x360"))
    }

    @Test func liveAndMirroringFollowTheCurrentSource() throws {
        let camera = StubSource(name: "/dev/video0", mirrored: true), file = StubSource(name: "y4m:a")
        file.live = false
        let switcher = SourceSwitcher(camera)
        #expect(switcher.isLive && switcher.mirroredByDefault)
        switcher.inbox.propose(file, name: "y4m:a")
        _ = try switcher.nextFrame(now: t0)
        #expect(!switcher.isLive && !switcher.mirroredByDefault)
    }
}
