import PipCore

/// The source window's visibility as reported, debounced: a change acts only once it has lasted
/// the debounce time, and only if it differs from the visibility last acted upon.
struct SourceVisibility: Sendable, Equatable {
    /// The latest report (nil: none since the source was attached).
    var isHidden: Bool?
    /// When `isHidden` last changed.
    var changedAt: MonotonicInstant?
    /// The visibility already acted upon (or deliberately ignored); a source window nobody
    /// reported on yet counts as shown.
    var settledHidden = false
    /// A change waits for its debounce deadline.
    var isPending = false

    init(isHidden: Bool? = nil, settledHidden: Bool = false) {
        self.isHidden = isHidden
        self.settledHidden = settledHidden
    }

    /// When the pending change acts.
    func deadline(debounceNanoseconds: UInt64) -> MonotonicInstant? {
        guard isPending, let changedAt else { return nil }
        return changedAt.advanced(byNanoseconds: Int64(clamping: debounceNanoseconds))
    }

    /// Takes the current visibility as dealt with: nothing pending, later reports compare to it.
    mutating func absorb() {
        isPending = false
        settledHidden = isHidden ?? settledHidden
    }
}

// startsAutomaticallyWhenSourceHidden: hiding the source starts PiP, showing it again stops PiP.
extension PipStateMachine {
    /// True while hide/show reports are the echo of our own `.restoreSource`.
    func inRestoreGrace(at now: MonotonicInstant) -> Bool {
        guard let restoreGraceEnd else { return false }
        return now < restoreGraceEnd
    }

    /// Records a hide/show report; schedules the automatic reaction unless it is switched off or
    /// the report is our own restore's noise. Repeated reports do not restart the debounce.
    mutating func reportVisibility(hidden: Bool, now: MonotonicInstant) {
        guard visibility.isHidden != hidden else { return }
        visibility.isHidden = hidden
        visibility.changedAt = now
        if configuration.startsAutomatically && !inRestoreGrace(at: now) {
            // Back to what was already dealt with (a short hide/show pair): nothing to do.
            visibility.isPending = hidden != visibility.settledHidden
        } else {
            visibility.absorb()
        }
    }

    /// On a tick at or after the debounce deadline: start when hidden, stop (restoring) when shown.
    mutating func automaticDeadline(now: MonotonicInstant) -> [PipAction] {
        guard let deadline = visibility.deadline(debounceNanoseconds: configuration.debounceNanoseconds),
              now >= deadline
        else { return [] }
        visibility.absorb()
        guard configuration.startsAutomatically, let hidden = visibility.isHidden else { return [] }
        if hidden {
            guard phase == .idle, isPossible else { return [] }
            return start(now: now, automatically: true)
        }
        guard phase == .active || phase == .starting else { return [] }
        return stop(restore: true, now: now)
    }
}
