import Testing
@testable import PipWindow
import PipCore

/// A state machine driven with times in milliseconds, with the frames used throughout the tests:
/// a 800x450 source window at 100,100 and a 320x180 PiP window at 1232,516.
struct PipHarness {
    static let source = Rect(x: 100, y: 100, width: 800, height: 450)
    static let pip = Rect(x: 1232, y: 516, width: 320, height: 180)

    var machine: PipStateMachine

    /// Attached (possible) with the source frame known, unless told otherwise; all at t = 0.
    init(automatic: Bool = true, attached: Bool = true, sourceFrame: Rect? = PipHarness.source,
         configure: (inout PipStateMachine.Configuration) -> Void = { _ in }) {
        var configuration = PipStateMachine.Configuration()
        configuration.startsAutomatically = automatic
        configure(&configuration)
        machine = PipStateMachine(configuration: configuration, pipFrame: PipHarness.pip)
        if attached { _ = machine.handle(.contentSourceAttached, now: PipHarness.at(0)) }
        if let sourceFrame { _ = machine.handle(.sourceFrameChanged(sourceFrame), now: PipHarness.at(0)) }
    }

    /// The instant `ms` milliseconds after the origin.
    static func at(_ ms: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(ms * 1_000_000)) }

    @discardableResult
    mutating func send(_ event: PipEvent, at ms: Double) -> [PipAction] {
        machine.handle(event, now: PipHarness.at(ms))
    }

    var phase: PipPhase { machine.phase }
    /// `nextDeadline` in milliseconds.
    var deadline: Double? { machine.nextDeadline.map { Double($0.nanoseconds) / 1_000_000 } }

    /// Started at 0 and grown until active at 250 ms.
    static func active(automatic: Bool = true) -> PipHarness {
        var harness = PipHarness(automatic: automatic)
        harness.send(.startRequested, at: 0)
        harness.send(.tick, at: 250)
        #expect(harness.phase == .active)
        return harness
    }

    /// Active, then stopped with restore at 1000 ms: shrinking until 1250 ms.
    static func stopping(automatic: Bool = true) -> PipHarness {
        var harness = active(automatic: automatic)
        harness.send(.stopRequested(restore: true), at: 1000)
        #expect(harness.phase == .stopping)
        return harness
    }

    /// Shrunk back and restored at 1250 ms: waiting for the restore completion.
    static func restoring(automatic: Bool = true) -> PipHarness {
        var harness = stopping(automatic: automatic)
        harness.send(.tick, at: 1250)
        #expect(harness.phase == .restoring)
        return harness
    }

    /// Started at 0 and still growing (no tick yet).
    static func starting(automatic: Bool = true) -> PipHarness {
        var harness = PipHarness(automatic: automatic)
        harness.send(.startRequested, at: 0)
        return harness
    }

    /// The harness in `phase`, using the fixtures above (`idle`: just attached).
    static func inPhase(_ phase: PipPhase) -> PipHarness {
        switch phase {
        case .idle: PipHarness()
        case .starting: starting()
        case .active: active()
        case .stopping: stopping()
        case .restoring: restoring()
        }
    }

    static let allPhases: [PipPhase] = [.idle, .starting, .active, .stopping, .restoring]
}
