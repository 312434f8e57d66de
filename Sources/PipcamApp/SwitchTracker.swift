import PipCore

/// A switch under way (docs/BEHAVIOUR.md, "Switching the source"), in `PipPlacement`'s style:
/// the ask, what the capture side says became of it, the frames put to the window showing video
/// and time in; the answer out. `nextDeadline` says when `tick` is due.
///
/// The new source gets `openNanoseconds` to open (a FIFO with no writer never does); once the
/// capture side switched, the asker is answered when its first frame is put to the window showing
/// video, or after `shownNanoseconds` all the same (no window may be able to take one).
struct SwitchTracker: Equatable {
    static let openNanoseconds: UInt64 = 5_000_000_000
    static let shownNanoseconds: UInt64 = 1_000_000_000

    struct Pending: Equatable {
        /// What the source was asked to become (`next`, or the spec as given).
        let target: String
        /// The source shown when the switch was asked for, for messages.
        let from: String
        /// When `tick` acts; nil while an outcome is awaited with no time limit.
        var deadline: MonotonicInstant?
        /// The new source's name and first frame, once the capture side switched.
        var switched: Switched?
    }

    /// A source the capture side switched to: its name and its first frame's number.
    struct Switched: Equatable {
        let name: String
        let firstSequence: UInt64
    }

    enum Answer: Equatable {
        /// Switched to the source of that name.
        case switched(String)
        /// Not switched (the old source stays), with the one line to print.
        case failed(String)
    }

    /// What `tick` found due.
    enum Due: Equatable {
        case answer(Answer)
        /// Still opening after `openNanoseconds`: give the switch up if its source can still be
        /// stopped (`giveUp`), else wait for it (`handedOver`).
        case openTimedOut
    }

    private(set) var pending: Pending?
    /// The newest frame put to the window showing video.
    private var lastPresented: UInt64?

    /// The line another switch is refused with while this one is under way.
    var refusal: String? { pending.map { "pipcam: a switch to \($0.target) is under way" } }

    /// Starts a switch to `target`, unless one is under way (`refusal`).
    mutating func begin(target: String, from: String, now: MonotonicInstant) {
        guard pending == nil else { return }
        pending = Pending(target: target, from: from, deadline: now.advanced(byNanoseconds: Int64(Self.openNanoseconds)))
    }

    /// The capture side shows `name` from frame `firstSequence` on. Answered at once when no
    /// window shows video, or when that frame went by already.
    mutating func switched(name: String, firstSequence: UInt64, showingVideo: Bool, now: MonotonicInstant) -> Answer? {
        guard var pending else { return nil }
        pending.switched = Switched(name: name, firstSequence: firstSequence)
        pending.deadline = now.advanced(byNanoseconds: Int64(Self.shownNanoseconds))
        self.pending = pending
        guard showingVideo, lastPresented.map({ $0 >= firstSequence }) != true else { return finish() }
        return nil
    }

    /// The new source could not be opened or started: the old one stays.
    mutating func failed(reason: String) -> Answer? {
        guard let pending else { return nil }
        self.pending = nil
        return .failed("pipcam: cannot switch to \(reason) (still showing \(pending.from))")
    }

    /// Frame `sequence` was put to the window showing video.
    mutating func presented(sequence: UInt64) -> Answer? {
        lastPresented = sequence
        guard let first = pending?.switched?.firstSequence, sequence >= first else { return nil }
        return finish()
    }

    mutating func tick(now: MonotonicInstant) -> Due? {
        guard let pending, let deadline = pending.deadline, now >= deadline else { return nil }
        if pending.switched != nil { return finish().map { .answer($0) } }
        return .openTimedOut
    }

    /// The switch that did not open in time was stopped: the answer.
    mutating func giveUp() -> Answer? {
        guard let pending, pending.switched == nil else { return nil }
        self.pending = nil
        return .failed(
            "pipcam: cannot switch to \(pending.target): it did not open within \(Self.openNanoseconds / 1_000_000_000) s (still showing \(pending.from))")
    }

    /// The switch that did not open in time had handed its source over just then: its outcome
    /// comes, with no time limit.
    mutating func handedOver() {
        pending?.deadline = nil
    }

    var nextDeadline: MonotonicInstant? { pending?.deadline }

    private mutating func finish() -> Answer? {
        guard let switched = pending?.switched else { return nil }
        pending = nil
        return .switched(switched.name)
    }
}
