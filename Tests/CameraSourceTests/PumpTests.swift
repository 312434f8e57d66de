import Synchronization
import Testing
import TestSupport
@testable import CameraSource
import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// A source with N numbered frames in `buffers` buffers, recording what was recycled.
final class ScriptedSource: FrameSource, @unchecked Sendable {
    let name = "scripted"
    var spec: SourceSpec { .test }
    let isLive: Bool
    let mirroredByDefault = false
    let frameWidth = 2, frameHeight = 2
    let frameRate: Double? = nil
    let pollDescriptor: Int32? = nil
    let total: Int
    var produced = 0
    var free: [Int]
    var recycled: [Int] = []
    var stopped = false
    var failAt: Int?
    /// Throttle levels applied, as they changed (from the pump's thread).
    let throttleLevels = Locked<[Int]>([])
    /// Display sizes applied, as they changed (from the pump's thread).
    let displaySizes = Locked<[[Int]]>([])
    /// Idleness applied, as it changed (from the pump's thread).
    let idles = Locked<[Bool]>([])
    /// Unseen applied, as it changed (from the pump's thread).
    let unseens = Locked<[Bool]>([])
    /// Buffers recycled so far (readable from other threads).
    let recycleCount = Locked(0)
    private let storage = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)

    init(total: Int, buffers: Int, live: Bool, failAt: Int? = nil) {
        self.total = total
        self.isLive = live
        self.failAt = failAt
        free = Array(0..<buffers)
    }
    func start() throws {}
    func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        if produced == failAt { throw SourceError.badInput(thing: "clip", reason: "truncated frame \(produced)") }
        if produced == total { return .end }
        guard let index = free.popLast() else { return .wait(deadline: nil) }
        defer { produced += 1 }
        return .frame(VideoFrame(
            packed: .gray, width: 2, height: 2, base: storage, byteCount: 4, colorimetry: .jpeg,
            timestamp: now, sequence: UInt64(produced), bufferIndex: index))
    }
    func recycle(bufferIndex: Int) {
        recycleCount.withLock { $0 += 1 }
        recycled.append(bufferIndex)
        free.append(bufferIndex)
    }
    func stop() { stopped = true }
    /// Records each control as it changes from the last applied.
    func apply(_ controls: SourceControls) {
        defer { applied = controls }
        if controls.throttle != applied.throttle { throttleLevels.withLock { $0.append(controls.throttle) } }
        if let size = controls.displaySize, size != applied.displaySize {
            displaySizes.withLock { $0.append([size.width, size.height]) }
        }
        if controls.idle != applied.idle { idles.withLock { $0.append(controls.idle) } }
        if controls.unseen != applied.unseen { unseens.withLock { $0.append(controls.unseen) } }
    }
    private var applied = SourceControls()
    deinit { storage.deallocate() }
}

/// A clock for `FramePump` that moves on by `step` each time it is read: time passes as fast as
/// the pump looks at it, and the same for every run, however busy the machine.
final class SteppingClock: Sendable {
    private let nanoseconds: Atomic<UInt64>
    private let step: UInt64

    init(start: UInt64 = 1_000_000_000, step: UInt64) {
        nanoseconds = Atomic(start)
        self.step = step
    }

    @Sendable func now() -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds.add(step, ordering: .relaxed).newValue)
    }
}

/// Waits on the mailbox's display-side descriptor (up to a second).
func waitForDisplay(_ mailbox: FrameMailbox) {
    var fd = pollfd(fd: mailbox.toDisplay.fd, events: Int16(POLLIN), revents: 0)
    _ = poll(&fd, 1, 1000)
    mailbox.toDisplay.drain()
}

@Suite struct PumpTests {
    @Test func fileSourceDeliversEveryFrameInOrderThenEnds() {
        let source = ScriptedSource(total: 50, buffers: 3, live: false)
        let pump = FramePump(source: source)
        pump.run()
        var sequences: [UInt64] = []
        var ended = false
        for _ in 0..<2000 where !ended {
            if let frame = pump.mailbox.take() {
                sequences.append(frame.sequence)
                pump.mailbox.giveBack(frame.bufferIndex)
            } else if case .endOfStream = pump.mailbox.ending {
                ended = true
            } else {
                waitForDisplay(pump.mailbox)
            }
        }
        pump.stop()
        #expect(ended)
        #expect(sequences == (0..<50).map { UInt64($0) })
        #expect(source.stopped)
        #expect(pump.mailbox.replacedCount == 0)
    }

    @Test func liveSourceReplacesUntakenFramesAndRecyclesThem() {
        let mailbox = FrameMailbox()
        let source = ScriptedSource(total: 20, buffers: 4, live: true)
        let pump = FramePump(source: source, mailbox: mailbox)
        pump.run()
        // Take nothing until the source has ended: every frame but the last is replaced and recycled.
        _ = eventually(timeout: .seconds(1)) { mailbox.replacedCount >= 19 }
        let last = mailbox.take()
        #expect(last?.sequence == 19)
        if let last { mailbox.giveBack(last.bufferIndex) }
        pump.stop()
        #expect(mailbox.replacedCount == 19)
        #expect(source.recycled.count == 20)
    }

    /// A settled window size reaches the source on the capture thread; the newest wins when the
    /// display notes several before the capture thread looks.
    @Test func displaySizesReachTheSource() {
        let source = ScriptedSource(total: 1, buffers: 1, live: true)
        let pump = FramePump(source: source)
        pump.mailbox.noteDisplaySize(width: 100, height: 50)
        pump.mailbox.noteDisplaySize(width: 1280, height: 720)
        pump.run()
        _ = eventually(timeout: .seconds(1)) { !source.displaySizes.withLock { $0.isEmpty } }
        pump.mailbox.noteDisplaySize(width: 640, height: 360)
        _ = eventually(timeout: .seconds(1)) { source.displaySizes.withLock { $0.count >= 2 } }
        pump.stop()
        #expect(source.displaySizes.withLock { $0 } == [[1280, 720], [640, 360]])
    }

    /// A live frame still waiting when the pump stops is withdrawn: the display cannot take a
    /// frame whose memory went with its source.
    @Test func aFrameWaitingWhenThePumpStopsIsWithdrawn() {
        let source = ScriptedSource(total: 5, buffers: 4, live: true)
        let pump = FramePump(source: source)
        pump.run()
        waitForDisplay(pump.mailbox)
        pump.stop()
        #expect(source.stopped)
        #expect(pump.mailbox.take() == nil)
    }

    @Test func sourceErrorsReachTheDisplaySide() {
        let source = ScriptedSource(total: 10, buffers: 3, live: false, failAt: 2)
        let pump = FramePump(source: source)
        pump.run()
        var failure: SourceError?
        for _ in 0..<100 where failure == nil {
            if let frame = pump.mailbox.take() { pump.mailbox.giveBack(frame.bufferIndex) }
            if case .failed(let e) = pump.mailbox.ending { failure = e } else { waitForDisplay(pump.mailbox) }
        }
        pump.stop()
        #expect(failure == .badInput(thing: "clip", reason: "truncated frame 2"))
        #expect(failure?.exitCode == 2)
    }
}

/// While no window shows the frames a live source's frames go straight back on the capture thread,
/// the display thread not woken (docs/PERFORMANCE.md, "While nothing shows the camera").
@Suite struct PumpUnseenTests {
    @Test func unseenLiveFramesGoStraightBackWithoutWakingTheDisplay() {
        let source = ScriptedSource(total: 1_000_000, buffers: 3, live: true)
        let pump = FramePump(source: source)
        pump.mailbox.noteUnseen(true)
        pump.run()
        let recycled = eventually(timeout: .seconds(2)) { source.recycleCount.withLock { $0 } > 100 }
        usleep(20_000)
        // Nothing was posted: no frame waits, none was replaced, the display was never woken.
        var fd = pollfd(fd: pump.mailbox.toDisplay.fd, events: Int16(POLLIN), revents: 0)
        let woken = poll(&fd, 1, 0) > 0
        let pending = pump.mailbox.hasPending, replaced = pump.mailbox.replacedCount
        pump.mailbox.toDisplay.drain()
        pump.mailbox.noteUnseen(false)
        let shownAgain = eventually(timeout: .seconds(2)) { pump.mailbox.hasPending }
        pump.stop()
        #expect(recycled, "unseen frames were not given back")
        #expect(!woken && !pending && replaced == 0, "woken \(woken), pending \(pending), replaced \(replaced)")
        #expect(shownAgain && source.unseens.withLock { $0 } == [true, false])
    }

    /// A file waits for a window instead: unseen, its frames are neither posted nor lost.
    @Test func anUnseenFileStillWaitsForTheDisplay() {
        let source = ScriptedSource(total: 20, buffers: 3, live: false)
        let pump = FramePump(source: source)
        pump.mailbox.noteUnseen(true)
        pump.run()
        var sequences: [UInt64] = []
        for _ in 0..<200 where sequences.count < 20 {
            if let frame = pump.mailbox.take() {
                sequences.append(frame.sequence)
                pump.mailbox.giveBack(frame.bufferIndex)
            } else {
                waitForDisplay(pump.mailbox)
            }
        }
        pump.stop()
        #expect(sequences == (0..<20).map { UInt64($0) })
    }
}

@Suite struct PumpBackpressureTests {
    /// The display may keep the newest frame (to redraw it) until the next one arrives: taking a
    /// frame, not only giving one back, must let a file source read on.
    @Test func fileSourceReadsOnWhileTheDisplayHoldsTheLatestFrame() {
        let source = ScriptedSource(total: 10, buffers: 3, live: false)
        let pump = FramePump(source: source)
        pump.run()
        var held: VideoFrame?
        var sequences: [UInt64] = []
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: 3_000_000_000)
        while sequences.count < 10 && MonotonicInstant.now() < deadline {
            if let frame = pump.mailbox.take() {
                if let old = held { pump.mailbox.giveBack(old.bufferIndex) }
                held = frame
                sequences.append(frame.sequence)
            } else {
                waitForDisplay(pump.mailbox)
            }
        }
        if let held { pump.mailbox.giveBack(held.bufferIndex) }
        pump.stop()
        #expect(sequences == (0..<10).map { UInt64($0) })
    }
}
