import CameraSource
import TestSupport
import Testing
@testable import PipWindow
import PipCore

/// What a driver would see on screen and in the delegate, rebuilt from the actions alone, with
/// every rule an action must obey checked as it is applied.
struct PipActionModel {
    var possible = false
    var startOpen = false  // willStart seen, didStart/failedToStart not yet
    var started = false  // didStart seen, willStop not yet
    var stopOpen = false  // willStop seen, didStop not yet
    var restoreAsked = false  // restoreUserInterface seen in this stop
    var restoreAnswered = false  // .restoreCompleted fed since
    var proxy: Rect?
    var pipShown = false

    /// Applies the actions of one event; returns the broken rules.
    mutating func apply(_ actions: [PipAction], for event: PipEvent) -> [String] {
        var errors: [String] = []
        func check(_ ok: Bool, _ message: String) { if !ok { errors.append(message) } }
        if event == .restoreCompleted && restoreAsked { restoreAnswered = true }
        let removal = event == .contentSourceRemoved || event == .sourceDestroyed
        for (index, action) in actions.enumerated() {
            switch action {
            case .willStart:
                check(!startOpen && !started && !stopOpen && possible, "willStart inside a session")
                startOpen = true
            case .didStart:
                check(startOpen, "didStart without willStart")
                startOpen = false
                started = true
            case .failedToStart:
                check(!startOpen && !started && !stopOpen, "failedToStart inside a session")
            case .willStop:
                check(started && !stopOpen, "willStop without didStart")
                started = false
                stopOpen = true
            case .didStop:
                check(stopOpen, "didStop without willStop")
                check(!restoreAsked || restoreAnswered || removal, "didStop before restoreCompleted")
                check(proxy == nil && !pipShown, "didStop with a window shown")
                stopOpen = false
                restoreAsked = false
                restoreAnswered = false
            case .restoreSource:
                check(stopOpen && proxy == nil && !pipShown, "restoreSource out of place")
                check(index + 1 < actions.count && actions[index + 1] == .restoreUserInterface,
                      "restoreSource not followed by restoreUserInterface")
            case .restoreUserInterface:
                check(stopOpen && !restoreAsked && proxy == nil && !pipShown, "restoreUserInterface out of place")
                restoreAsked = true
            case .possibleChanged(let value):
                check(value != possible, "possibleChanged without a change")
                possible = value
            case .showProxy(let rect):
                check(proxy == nil, "showProxy while shown")
                proxy = rect
            case .moveProxy(let rect):
                check(proxy != nil, "moveProxy without a proxy")
                check(proxy != rect, "moveProxy to where it is")
                proxy = rect
            case .hideProxy:
                check(proxy != nil, "hideProxy without a proxy")
                proxy = nil
            case .showPip:
                check(!pipShown, "showPip while shown")
                pipShown = true
            case .hidePip:
                check(pipShown, "hidePip while hidden")
                pipShown = false
            }
        }
        return errors
    }

    /// The machine's phase and flags agree with what the actions left on screen.
    func consistencyErrors(_ machine: PipStateMachine) -> [String] {
        var errors: [String] = []
        func check(_ ok: Bool, _ message: String) { if !ok { errors.append(message) } }
        check(machine.isPossible == possible, "isPossible disagrees with possibleChanged")
        check(machine.isPossible || machine.phase == .idle, "PiP up without a source")
        check(machine.isActive == (machine.phase == .active), "isActive outside .active")
        let animating = machine.phase == .starting || machine.phase == .stopping
        check((machine.animation != nil) == animating, "animation outside starting/stopping")
        check(!animating || machine.nextDeadline != nil, "animation without a deadline")
        switch machine.phase {
        case .idle:
            check(!startOpen && !started && !stopOpen && proxy == nil && !pipShown, "idle with a session open")
        case .starting:
            check(startOpen && proxy != nil && !pipShown, "starting without willStart and proxy")
        case .active:
            check(started && !stopOpen && proxy == nil && pipShown, "active without didStart and pip")
        case .stopping:
            check(stopOpen && proxy != nil && !pipShown && !restoreAsked, "stopping without willStop and proxy")
        case .restoring:
            check(stopOpen && restoreAsked && proxy == nil && !pipShown, "restoring out of place")
        }
        return errors
    }
}

/// Thousands of random event sequences at increasing random times, checked action by action.
@Suite struct PipStateMachinePropertyTests {
    static func randomRect(_ rng: inout SplitMix) -> Rect {
        Rect(x: Int(rng.next() % 2000) - 200, y: Int(rng.next() % 1200) - 100,
             width: Int(rng.next() % 1200) + 1, height: Int(rng.next() % 900) + 1)
    }

    static func randomEvent(_ rng: inout SplitMix) -> PipEvent {
        switch rng.next() % 100 {
        case 0..<10: .startRequested
        case 10..<18: .stopRequested(restore: true)
        case 18..<21: .stopRequested(restore: false)
        case 21..<29: .sourceHidden
        case 29..<37: .sourceShown
        case 37..<42: .sourceFrameChanged(randomRect(&rng))
        case 42..<45: .pipFrameChanged(randomRect(&rng))
        case 45..<47: .pipWindowClosed
        case 47..<54: .restoreCompleted
        case 54..<59: .contentSourceAttached
        case 59..<61: .contentSourceRemoved
        case 61..<63: .sourceDestroyed
        case 63..<66: .contentSourceSwitched(frame: rng.next() % 3 == 0 ? nil : randomRect(&rng), hidden: rng.next() % 2 == 0)
        default: .tick
        }
    }

    static func randomConfiguration(_ rng: inout SplitMix) -> PipStateMachine.Configuration {
        var c = PipStateMachine.Configuration()
        c.startsAutomatically = rng.next() % 4 != 0
        c.animationNanoseconds = [0, 250_000_000, 40_000_000, rng.next() % 400_000_000][Int(rng.next() % 4)]
        c.debounceNanoseconds = [0, 150_000_000, rng.next() % 300_000_000][Int(rng.next() % 3)]
        c.restoreGraceNanoseconds = [0, 500_000_000][Int(rng.next() % 2)]
        c.frameNanoseconds = [16_000_000, 1_000_000, 100_000_000][Int(rng.next() % 3)]
        return c
    }

    /// The next instant: often the machine's deadline (as a driver would), else a random step.
    static func nextTime(_ now: MonotonicInstant, _ machine: PipStateMachine, _ rng: inout SplitMix) -> MonotonicInstant {
        if let deadline = machine.nextDeadline, deadline > now, rng.next() % 3 == 0 { return deadline }
        let step: UInt64 = switch rng.next() % 4 {
        case 0: 0
        case 1: rng.next() % 20_000_000
        case 2: rng.next() % 300_000_000
        default: rng.next() % 2_000_000_000
        }
        return now.advanced(byNanoseconds: Int64(step))
    }

    /// Feeds one event, checks every rule; returns false (after recording) on the first failure.
    static func feed(_ event: PipEvent, at now: MonotonicInstant, _ machine: inout PipStateMachine,
                     _ model: inout PipActionModel, _ trace: inout [String], _ coverage: inout Set<String>) -> Bool {
        let before = machine.phase
        let actions = machine.handle(event, now: now)
        coverage.insert("\(before) \(event.kind) -> \(machine.phase)")
        trace.append("\(now.nanoseconds / 1000)us \(event) [\(machine.phase)] -> \(actions)")
        let errors = model.apply(actions, for: event) + model.consistencyErrors(machine)
        guard errors.isEmpty else {
            let recent = trace.suffix(12).joined(separator: "\n")
            Issue.record("\(errors)\n\(recent)")
            return false
        }
        return true
    }

    @Test func randomSequencesKeepEveryInvariant() {
        var rng = SplitMix(seed: 0x5EED_0F_919)
        var coverage = Set<String>()
        for _ in 0..<4000 {
            var machine = PipStateMachine(configuration: Self.randomConfiguration(&rng),
                                          pipFrame: Self.randomRect(&rng))
            var model = PipActionModel()
            var trace: [String] = []
            var now = MonotonicInstant(nanoseconds: rng.next() % 1_000_000_000)
            for _ in 0..<(20 + Int(rng.next() % 80)) {
                now = Self.nextTime(now, machine, &rng)
                guard Self.feed(Self.randomEvent(&rng), at: now, &machine, &model, &trace, &coverage) else { return }
            }
            // Liveness: ticking at the deadlines settles, and a restore completion ends a restore.
            var ticks = 0
            while let deadline = machine.nextDeadline {
                ticks += 1
                guard ticks < 10_000 else { Issue.record("deadlines never settle"); return }
                now = max(now, deadline)
                guard Self.feed(.tick, at: now, &machine, &model, &trace, &coverage) else { return }
            }
            #expect(machine.phase == .idle || machine.phase == .active || machine.phase == .restoring)
            if machine.phase == .restoring {
                guard Self.feed(.restoreCompleted, at: now, &machine, &model, &trace, &coverage) else { return }
                // A queued start may have begun: let it finish too.
                while let deadline = machine.nextDeadline {
                    now = max(now, deadline)
                    guard Self.feed(.tick, at: now, &machine, &model, &trace, &coverage) else { return }
                }
            }
            #expect(machine.phase == .idle || machine.phase == .active)
            // And the source going away always ends in idle with the callbacks closed.
            guard Self.feed(.sourceDestroyed, at: now, &machine, &model, &trace, &coverage) else { return }
            #expect(machine.phase == .idle && !model.stopOpen && !model.startOpen && !model.started)
        }
        // The sequences reach every phase with every event, and the interesting transitions.
        let kinds = Set(coverage.map { String($0.split(separator: " ")[1]) })
        #expect(kinds.count == 13)
        for phase in ["idle", "starting", "active", "stopping", "restoring"] {
            for kind in kinds { #expect(coverage.contains { $0.hasPrefix("\(phase) \(kind) ") }, "\(phase) \(kind)") }
        }
        for transition in ["starting stopRequested -> stopping", "idle tick -> starting", "active tick -> stopping",
                           "starting tick -> stopping", "restoring restoreCompleted -> starting",
                           "stopping tick -> restoring", "restoring sourceDestroyed -> idle",
                           "stopping contentSourceSwitched -> restoring"] {
            #expect(coverage.contains(transition), "\(transition)")
        }
    }
}

extension PipEvent {
    /// The event's name without its payload.
    var kind: String {
        switch self {
        case .startRequested: "startRequested"
        case .stopRequested: "stopRequested"
        case .sourceHidden: "sourceHidden"
        case .sourceShown: "sourceShown"
        case .sourceFrameChanged: "sourceFrameChanged"
        case .pipFrameChanged: "pipFrameChanged"
        case .tick: "tick"
        case .pipWindowClosed: "pipWindowClosed"
        case .restoreCompleted: "restoreCompleted"
        case .contentSourceAttached: "contentSourceAttached"
        case .contentSourceRemoved: "contentSourceRemoved"
        case .sourceDestroyed: "sourceDestroyed"
        case .contentSourceSwitched: "contentSourceSwitched"
        }
    }
}
