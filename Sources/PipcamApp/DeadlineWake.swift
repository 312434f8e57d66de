import PipCore
import PipWindow

/// One timer that wakes the display loop at a rule's next deadline (`ViewingPolicy`, `MapWatchdog`,
/// `SwitchTracker`), moved whenever the deadline moves.
final class DeadlineWake {
    private let loop: any EventLoop
    private let fire: () -> Void
    private var scheduled: (at: MonotonicInstant, timer: Int)?

    /// `fire` runs at the deadline; the loop's iteration that follows sees the rule due either way.
    init(loop: any EventLoop, fire: @escaping () -> Void = {}) {
        self.loop = loop
        self.fire = fire
    }

    /// Wakes the loop at `deadline` (nil: not at all) instead of the one set before.
    func set(_ deadline: MonotonicInstant?) {
        guard deadline != scheduled?.at else { return }
        if let scheduled { loop.cancelTimer(scheduled.timer) }
        scheduled = deadline.map { at in
            (at, loop.schedule(at: at) { [unowned self] in
                scheduled = nil
                fire()
            })
        }
    }
}
