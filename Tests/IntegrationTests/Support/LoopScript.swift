import PipCore
import PipWindow

/// Drives an event loop (X or Wayland) through steps in turn, for tests that run pipcam's code in this process:
/// each step waits until its condition holds (looked at every 20 ms), then acts. Conditions, not
/// fixed times, so that a loaded machine (where a 250 ms animation has taken over a second) slows
/// the test down instead of failing it; `pause` is for checks that something does not happen.
///
/// The loop stops after the last step with exit code 0, or with 1 at the first step whose
/// condition did not hold within `timeout` (named by `failedStep`).
final class LoopScript {
    private struct Step {
        let what: String
        let until: (_ began: MonotonicInstant) -> Bool
        let then: () -> Void
    }

    private var steps: [Step] = []
    private var current = 0
    private var began = MonotonicInstant.now()
    /// The step that timed out, if one did.
    private(set) var failedStep: String?
    let timeout: Duration

    init(timeout: Duration = .seconds(10)) { self.timeout = timeout }

    /// Waits until `condition` holds, then runs `then`.
    func wait(_ what: String, until condition: @escaping () -> Bool, then: @escaping () -> Void = {}) {
        steps.append(Step(what: what, until: { _ in condition() }, then: then))
    }

    /// Waits `milliseconds`, then runs `then`.
    func pause(_ milliseconds: Int64, then: @escaping () -> Void = {}) {
        steps.append(Step(what: "\(milliseconds) ms", until: { $0.advanced(byNanoseconds: milliseconds * 1_000_000) <= .now() }, then: then))
    }

    /// Starts looking at the steps once `loop` runs; run the loop afterwards.
    func start(on loop: any EventLoop) {
        began = .now()
        tick(loop)
    }

    private func tick(_ loop: any EventLoop) {
        while current < steps.count, steps[current].until(began) {
            steps[current].then()
            current += 1
            began = .now()
        }
        if current == steps.count { return loop.stop(exitCode: 0) }
        let (seconds, attoseconds) = timeout.components
        let limit = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if began.advanced(byNanoseconds: limit) <= .now() {
            failedStep = steps[current].what
            return loop.stop(exitCode: 1)
        }
        _ = loop.schedule(at: MonotonicInstant.now().advanced(byNanoseconds: 20_000_000)) { [self] in tick(loop) }
    }
}
