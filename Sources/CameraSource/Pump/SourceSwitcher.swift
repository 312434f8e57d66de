import PipCore
import Synchronization

/// What became of a switch to another source (`SourceSwitcher.propose`).
public enum SwitchOutcome: Sendable, Equatable {
    /// The new source's first frame went out, numbered `firstSequence`; the old source is let go
    /// once the display has given back its frames.
    case switched(name: String, firstSequence: UInt64)
    /// The new source gave no frame (it failed, ended, lost its camera or gave none in time) and
    /// was stopped; the old one never stopped. `reason` names the source, e.g. `/dev/video2: in
    /// use by another application`.
    case failed(name: String, reason: String)
}

/// The source the pump runs, able to hand over to another one between two frames: `pipcam
/// switch` (docs/BEHAVIOUR.md, "Switching the source").
///
/// A proposed source is already started; it runs beside the current one until it gives its first
/// frame, and only then replaces it, so the window never shows a gap or a placeholder. Frames of
/// both may be out at once: each frame's buffer index names its source and that source's own
/// index (`SwitchedBufferIndex`), so a buffer given back reaches the source it came from, and the old source
/// stops once the last of its frames is back. Sequence numbers go on from the old source's, so a
/// switch is not counted as dropped frames.
///
/// Driven from the pump's thread like any source; its `inbox` may be used from any.
public final class SourceSwitcher: FrameSource {
    /// A source with the name it goes by and what of it is out.
    private struct Slot {
        let source: FrameSource
        /// The name it was proposed by; nil: the source's own (which may change: a camera plugged in).
        let given: String?
        let generation: Int
        /// Who hears what became of it: the finder for a camera it offered, else the inbox's reader.
        let answer: SwitchInbox.Answer?
        /// Frames handed out and not yet recycled.
        var outstanding = 0
        /// Its frames are numbered `base + (sequence - offset)`.
        var sequenceBase: UInt64 = 0
        var sequenceOffset: UInt64 = 0
        var name: String { given ?? source.name }
    }

    /// Buffer indexes of one source stay below this.
    public static let generationStride = SwitchedBufferIndex.stride
    /// How long a proposed source may take to give its first frame before the switch fails.
    public static let firstFrameNanoseconds: Int64 = 4_000_000_000
    /// The same for a camera the finder offers: one just plugged in may take longer to settle.
    public static let offeredFirstFrameNanoseconds: Int64 = 10_000_000_000
    /// How often the current source is looked at while the wait is for a new one's descriptor.
    static let candidatePollNanoseconds: Int64 = 5_000_000

    private var current: Slot
    /// A proposed source until its first frame: given up on `within` nanoseconds after it came.
    private struct Candidate {
        let slot: Slot
        let within: Int64
        let giveUpAt: MonotonicInstant
        /// When it asked to be asked again.
        var deadline: MonotonicInstant?
    }

    private var candidate: Candidate?
    /// Old sources with frames still out.
    private var retiring: [Slot] = []
    private var generations = 0
    private var lastSequence: UInt64?
    /// The controls in effect, given whole to a source that takes over.
    private var controls = SourceControls()
    /// Where other threads hand sources over and read outcomes.
    public let inbox = SwitchInbox()

    /// - Parameter source: the first source (started or not: `start()` starts it).
    public init(_ source: FrameSource) {
        current = Slot(source: source, given: nil, generation: 0, answer: nil)
    }

    /// Whether a proposed source has not given its first frame yet (pump's thread).
    public var isSwitching: Bool { candidate != nil }

    public var name: String { current.name }
    public var spec: SourceSpec { current.source.spec }
    public var isLive: Bool { current.source.isLive }
    public var mirroredByDefault: Bool { current.source.mirroredByDefault }
    public var frameWidth: Int { current.source.frameWidth }
    public var frameHeight: Int { current.source.frameHeight }
    public var frameFormat: PixelFormat? { current.source.frameFormat }
    public var frameRate: Double? { current.source.frameRate }
    public var cameraState: CameraState { current.source.cameraState }
    public var needsBuffersBack: Bool { current.source.needsBuffersBack }
    public var playback: PlaybackStatus? { current.source.playback }
    /// The new source's while one is on its way (the current one is then looked at every few
    /// milliseconds), else the current one's.
    public var pollDescriptor: Int32? {
        candidate.flatMap { $0.slot.source.pollDescriptor } ?? current.source.pollDescriptor
    }

    public func start() throws { try current.source.start() }

    public func stop() {
        for slot in retiring { slot.source.stop() }
        retiring.removeAll()
        if let candidate { candidate.slot.source.stop() }
        candidate = nil
        current.source.stop()
    }

    public func apply(_ controls: SourceControls) {
        self.controls = controls
        current.source.apply(controls)
    }

    public func nextFrame(now: MonotonicInstant) throws -> SourceStep {
        adoptProposal(now: now)
        if let frame = candidateFrame(now: now) { return .frame(frame) }
        let step = try current.source.nextFrame(now: now)
        switch step {
        case .frame(let frame):
            return .frame(handOut(frame, from: &current))
        case .wait(let deadline):
            guard let candidate else { return step }
            let soon = now.advanced(byNanoseconds: Self.candidatePollNanoseconds)
            return .wait(deadline: [deadline, candidate.deadline, candidate.giveUpAt, soon].compactMap { $0 }.min())
        case .end:
            // A file that ends while the next source gets ready: wait for that one instead.
            guard let candidate else { return step }
            return .wait(deadline: [candidate.deadline, candidate.giveUpAt].compactMap { $0 }.min())
        }
    }

    public func recycle(bufferIndex: Int) {
        let buffer = SwitchedBufferIndex(packed: bufferIndex)
        if buffer.generation == current.generation {
            current.outstanding -= 1
            current.source.recycle(bufferIndex: buffer.index)
        } else if let at = retiring.firstIndex(where: { $0.generation == buffer.generation }) {
            retiring[at].outstanding -= 1
            retiring[at].source.recycle(bufferIndex: buffer.index)
            if retiring[at].outstanding <= 0 { retiring.remove(at: at).source.stop() }
        }
    }

    // MARK: the hand-over

    /// Takes the newest proposal; one still on its way is dropped for it. A camera the finder
    /// offers yields: it replaces only the first source, and no switch the user asked for.
    private func adoptProposal(now: MonotonicInstant) {
        for proposal in inbox.takeProposals() {
            generations += 1
            let slot = Slot(source: proposal.source, given: proposal.name, generation: generations, answer: proposal.answer)
            if proposal.answer != nil, current.generation != 0 || candidate.map({ $0.slot.answer == nil }) == true {
                fail(slot, "\(slot.name): not needed, another source is shown")
                continue
            }
            if let candidate { fail(candidate.slot, "\(candidate.slot.name): replaced by a later switch") }
            let within = proposal.firstFrameNanoseconds
            candidate = Candidate(slot: slot, within: within, giveUpAt: now.advanced(byNanoseconds: within))
        }
    }

    /// The new source's first frame, when it has one: it becomes the current source.
    private func candidateFrame(now: MonotonicInstant) -> VideoFrame? {
        guard let pending = candidate else { return nil }
        var slot = pending.slot
        let giveUpAt = pending.giveUpAt
        let step: SourceStep
        do {
            step = try slot.source.nextFrame(now: now)
        } catch {
            fail(slot, "\(error)")
            return nil
        }
        switch step {
        case .frame(let frame):
            candidate = nil
            // The seeks asked so far were of the old source: the new one only counts them.
            var handed = controls
            handed.playback.forgetSeek()
            slot.source.apply(handed)
            slot.sequenceBase = lastSequence.map { $0 &+ 1 } ?? 0
            slot.sequenceOffset = frame.sequence
            let old = current
            current = slot
            if old.outstanding > 0 { retiring.append(old) } else { old.source.stop() }
            let shown = handOut(frame, from: &current)
            tell(slot, .switched(name: slot.name, firstSequence: shown.sequence))
            return shown
        case .end:
            fail(slot, "\(slot.name): has no frames")
        case .wait(let deadline):
            if case .interrupted(let why) = slot.source.cameraState, why != .pressure {
                fail(slot, "\(slot.name): \(why.reason)")
            } else if now >= giveUpAt {
                fail(slot, "\(slot.name): no frame within \(pending.within / 1_000_000_000) s")
            } else {
                candidate?.deadline = deadline
            }
        }
        return nil
    }

    private func handOut(_ frame: VideoFrame, from slot: inout Slot) -> VideoFrame {
        var out = frame
        slot.outstanding += 1
        out.bufferIndex = SwitchedBufferIndex(generation: slot.generation, index: frame.bufferIndex).packed
        out.sequence = slot.sequenceBase &+ (frame.sequence &- slot.sequenceOffset)
        lastSequence = out.sequence
        return out
    }

    private func fail(_ slot: Slot, _ reason: String) {
        if candidate?.slot.generation == slot.generation { candidate = nil }
        slot.source.stop()
        tell(slot, .failed(name: slot.name, reason: reason))
    }

    private func tell(_ slot: Slot, _ outcome: SwitchOutcome) {
        if let answer = slot.answer { answer(outcome) } else { inbox.report(outcome) }
    }
}

/// The thread-safe side of a `SourceSwitcher`: started sources in, outcomes out.
public final class SwitchInbox: Sendable {
    /// Who hears what became of a camera the finder offered.
    public typealias Answer = @Sendable (SwitchOutcome) -> Void

    /// A started source handed over from another thread.
    struct Proposal: @unchecked Sendable {
        let source: FrameSource
        /// nil: the source's own name.
        let name: String?
        /// nil: the outcome goes to `takeOutcomes`.
        let answer: Answer?
        let firstFrameNanoseconds: Int64
    }

    private let proposals = Locked<[Proposal]>([])
    /// Proposals not yet taken: the pump looks once a frame, without the lock while there are none.
    private let waiting = Atomic<Int>(0)
    private let results = Locked<[SwitchOutcome]>([])
    /// Readable when an outcome is waiting (`takeOutcomes`).
    public let outcomeSignal = WakeSignal()

    /// Hands a started source over; the pump must be woken afterwards to take it. A source
    /// proposed while another is still on its way replaces that one (which fails).
    public func propose(_ source: FrameSource, name: String) {
        add(Proposal(source: source, name: name, answer: nil, firstFrameNanoseconds: SourceSwitcher.firstFrameNanoseconds))
    }

    /// Hands over a started camera the finder found, to replace the source pipcam started with
    /// (the stand-in) and nothing else; a switch the user asks for replaces it, never the other
    /// way round. What became of it goes to `answer` (on the capture thread), not to
    /// `takeOutcomes`: it is no switch the user asked for.
    public func offer(_ source: FrameSource, answer: @escaping Answer) {
        add(Proposal(source: source, name: nil, answer: answer, firstFrameNanoseconds: SourceSwitcher.offeredFirstFrameNanoseconds))
    }

    private func add(_ proposal: Proposal) {
        proposals.withLock { $0.append(proposal) }
        waiting.add(1, ordering: .releasing)
    }

    /// Reports an outcome (also from the thread that tried to start the new source).
    public func report(_ outcome: SwitchOutcome) {
        results.withLock { $0.append(outcome) }
        outcomeSignal.signal()
    }

    /// The outcomes since the last call, oldest first.
    public func takeOutcomes() -> [SwitchOutcome] {
        outcomeSignal.drain()
        return results.withLock { r in
            defer { r.removeAll() }
            return r
        }
    }

    func takeProposals() -> [Proposal] {
        guard waiting.load(ordering: .acquiring) > 0 else { return [] }
        return proposals.withLock { p in
            waiting.subtract(p.count, ordering: .relaxed)
            defer { p.removeAll() }
            return p
        }
    }
}
