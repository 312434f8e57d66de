import Foundation
import TestSupport
import Testing

/// The desktop tier (`make test-desktops`, docs/TESTING.md "The desktop tier"): on when
/// `PIPCAM_DESKTOPS=1`. Its results go to `PIPCAM_DESKTOP_RESULTS` (default
/// `.build/desktops`), one file per environment, which `scripts/desktop-matrix` turns into the
/// table of docs/WINDOW-MANAGERS.md.
enum DesktopTier {
    static var enabled: Bool { ProcessInfo.processInfo.environment["PIPCAM_DESKTOPS"] == "1" }
    /// `PIPCAM_DESKTOPS_ONLY=kwin_x11,muffin` runs those environments only.
    static func selected(_ environment: String) -> Bool {
        guard let only = ProcessInfo.processInfo.environment["PIPCAM_DESKTOPS_ONLY"], !only.isEmpty else { return true }
        return only.split(separator: ",").contains { $0 == environment }
    }
    static var resultsDirectory: String {
        ProcessInfo.processInfo.environment["PIPCAM_DESKTOP_RESULTS"] ?? Pipcam.packageRoot + "/.build/desktops"
    }
}

/// One behaviour a user meets on every desktop; a column of the matrix, in this order.
enum DesktopCheck: String, CaseIterable, Sendable {
    case undecorated = "maps undecorated"
    case keepsFocus = "leaves focus, no attention flag"
    case above = "above an activated window"
    case allDesktops = "on every desktop"
    case drag = "drag moves"
    case edgeResize = "edge resize, aspect kept"
    case minimizeToPip = "minimize → PiP → restore"
    case desktopSwitchToPip = "other desktop → PiP → back"
    case toggle = "pipcam toggle"
    case hotkey = "global hotkey"
    case opacity = "--opacity"
}

/// What a check found: it held (with what was measured), or it does not apply here and why.
enum CheckOutcome {
    case held(String)
    case notApplicable(String)
}

/// Runs the checks of one environment and writes each one's result, so that one failing check
/// neither hides the others nor goes unreported: a failure is recorded as a test issue too.
final class DesktopCheckLog {
    let environment: String
    private var rows: [(DesktopCheck, String, String)] = []

    init(environment: String) { self.environment = environment }

    func check(_ check: DesktopCheck, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> CheckOutcome) {
        do {
            switch try body() {
            case .held(let detail): rows.append((check, "yes", detail))
            case .notApplicable(let reason): rows.append((check, "n/a", reason))
            }
        } catch {
            rows.append((check, "FAIL", "\(error)"))
            Issue.record("\(environment), \(check.rawValue): \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Marks every check not yet run as failed with `error` (the environment could not be set up).
    func failRemaining(_ error: Error, sourceLocation: SourceLocation = #_sourceLocation) {
        Issue.record("\(environment): \(error)", sourceLocation: sourceLocation)
        for check in DesktopCheck.allCases where !rows.contains(where: { $0.0 == check }) {
            rows.append((check, "FAIL", "not run: \(error)"))
        }
    }

    /// `<results>/<environment>.tsv`: check, result (yes, n/a, FAIL), detail; one line each.
    func write() throws {
        let directory = DesktopTier.resultsDirectory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let text = rows.sorted { DesktopCheck.allCases.firstIndex(of: $0.0)! < DesktopCheck.allCases.firstIndex(of: $1.0)! }
            .map { "\($0.0.rawValue)\t\($0.1)\t\(Self.oneLine($0.2))\n" }.joined()
        try text.write(toFile: "\(directory)/\(environment).tsv", atomically: true, encoding: .utf8)
    }

    private static func oneLine(_ text: String) -> String {
        String(text.split(whereSeparator: { $0 == "\n" || $0 == "\t" }).joined(separator: " ").prefix(300))
    }
}

/// A check's own failure: what was expected and what was seen.
struct CheckFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Throws `CheckFailure(message)` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CheckFailure(message()) }
}
