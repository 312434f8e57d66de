import Foundation
import Glibc
import TestSupport
import Testing

/// What every scenario of the suite shares in the guest: an Xvfb of its own with no window
/// manager (under TCG openbox spends minutes building its font cache in the guest's fresh HOME
/// and drops the windows mapped meanwhile), and the pipcam binary under test.
struct VMGuest: Sendable {
    let x: XServer
    let pipcam: String

    /// The suite's guest, or why it could not be set up; set by `VMGuestSession` around the suite.
    @TaskLocal static var current: Result<VMGuest, HarnessError>?

    /// Starts the Xvfb; the pipcam binary is `PIPCAM_BINARY` (scripts/vm-guest sets the release one).
    static func setUp() -> Result<VMGuest, HarnessError> {
        do {
            let pipcam = try Pipcam.binaryPath()
            if let wanted = ProcessInfo.processInfo.environment["PIPCAM_BINARY"], wanted != pipcam {
                throw HarnessError("no pipcam binary at \(wanted)")
            }
            // Emulated (TCG) on a busy host, Xvfb's start took over 30 s once (all 20 scenarios then
            // failed at setup); the wait ends as soon as it reports its display.
            let x = try XServer(width: 1280, height: 720, timeout: .seconds(120))
            return .success(VMGuest(x: x, pipcam: pipcam))
        } catch let error as HarnessError {
            return .failure(error)
        } catch {
            return .failure(HarnessError("\(error)"))
        }
    }

    /// Prints a line stamped with the guest uptime on stderr (the guest's console and guest.log).
    static func log(_ text: String) {
        FileHandle.standardError.write(Data("\(GuestClock.format(GuestClock.now())) \(text)\n".utf8))
    }
}

/// Sets the guest up once for the whole suite, and takes it down after the last scenario.
struct VMGuestSession: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if let out = VMTier.outputDirectory {  // how long the test binary took to start: scripts/vm-test reports it
            try? "\(GuestClock.format(GuestClock.now()))\n".write(toFile: out + "/suite-start", atomically: false, encoding: .utf8)
        }
        let guest = VMGuest.setUp()
        switch guest {
        case .success(let guest): VMGuest.log("setup: ok DISPLAY=\(guest.x.display) pipcam=\(guest.pipcam)")
        case .failure(let error): VMGuest.log("setup: \(error)")
        }
        defer { if case .success(let guest) = guest { guest.x.stop() } }
        try await VMGuest.$current.withValue(guest) { try await function() }
    }
}

extension Trait where Self == VMGuestSession {
    /// The VM guest's Xvfb and pipcam binary for a suite (`VMGuest.current`).
    static var vmGuest: Self { Self() }
}

/// Runs one scenario as the tier's runner did: vivid reloaded with the scenario's options,
/// v4l2loopback loaded afresh or unloaded, a fresh `OUT/NAME`; then `body`, the processes it
/// started ended, the stats lines checked. Writes `NAME PASS|FAIL SECONDS REASON` to
/// `OUT/results` (what scripts/vm-test reports) and records a failure as a test issue.
func runScenario(_ scenario: VMScenario, sourceLocation: SourceLocation = #_sourceLocation, _ body: (ScenarioRun) throws -> Void) {
    guard let out = VMTier.outputDirectory else { return }
    let name = scenario.rawValue
    let t0 = GuestClock.now()
    VMGuest.log("== \(name) (limit \(scenario.limitSeconds)s)")
    var failure: String?
    do {
        guard let guest = VMGuest.current else { throw HarnessError("setup: the suite has no guest session") }
        let setUp = try guest.mapError { HarnessError("setup: \($0)") }.get()
        do {
            try KernelModules.reloadVivid(scenario.vividOptions)
        } catch {
            throw HarnessError("could not reload vivid before the scenario: \(error)")
        }
        if scenario.needsLoopback {
            let unavailable = (try? String(contentsOfFile: "\(out)/loopback-unavailable", encoding: .utf8))
                .flatMap { $0.split(whereSeparator: \.isNewline).first.map(String.init) }
            try KernelModules.reloadLoopback(unavailable: unavailable)
        } else {
            do {
                try KernelModules.unload("v4l2loopback")
            } catch {
                throw HarnessError("could not unload v4l2loopback before the scenario: \(error)")
            }
        }
        let directory = "\(out)/\(name)"
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A PiP place remembered by an earlier scenario is not for this one.
        if let state = setUp.x.environment["XDG_STATE_HOME"] { try? FileManager.default.removeItem(atPath: state + "/pipcam") }
        let run = try ScenarioRun(scenario, directory: directory, x: setUp.x, pipcam: setUp.pipcam)
        defer { run.stopAll() }
        try body(run)
        try run.checkCounters()
    } catch {
        failure = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
    let took = GuestClock.format(GuestClock.elapsed(t0, GuestClock.now()))
    appendLine("\(out)/results", "\(name) \(failure == nil ? "PASS" : "FAIL") \(took) \(failure ?? "")")
    VMGuest.log("== \(name): \(failure.map { "FAIL \($0)" } ?? "PASS") (\(took) s)")
    if let failure { Issue.record("\(name): \(failure)", sourceLocation: sourceLocation) }
}
