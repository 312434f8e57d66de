import Foundation
import TestSupport

/// The `pipcam` executable under test.
enum Pipcam {
    /// The debug `pipcam` (or another of the package's executables, e.g. `pip-example`) built next
    /// to the running test bundle (`swift build --build-tests` builds it, since IntegrationTests
    /// depends on it). `PIPCAM_BINARY` overrides the path of `pipcam`.
    static func binaryPath(_ name: String = "pipcam") throws -> String {
        var candidates: [String] = []
        if name == "pipcam", let override = ProcessInfo.processInfo.environment["PIPCAM_BINARY"] {
            candidates.append(override)
        }
        // The test runner is `<build dir>/<config>/pipcamPackageTests.xctest`: pipcam is its sibling,
        // whatever --scratch-path or configuration was used.
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(((executable as NSString).deletingLastPathComponent as NSString)
                .appendingPathComponent(name))
        }
        candidates.append(packageRoot + "/.build/debug/" + name)
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return found
        }
        throw HarnessError(
            "the \(name) binary is missing (looked at \(candidates.joined(separator: ", "))); "
                + "build it with `swift build --build-tests` or set PIPCAM_BINARY")
    }

    /// The package's root folder (holding Package.swift), from this file's location.
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)  // <root>/Tests/IntegrationTests/Support/Pipcam.swift
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
}

extension XServer {
    /// Starts `pipcam arguments…` on this server; it is stopped with the server.
    func startPipcam(
        _ arguments: [String], extraEnvironment: [String: String] = [:], stdin: StandardInput = .null
    ) throws -> RunningProcess {
        try start([Pipcam.binaryPath()] + arguments, extraEnvironment: extraEnvironment, stdin: stdin)
    }

    /// Runs the control command `pipcam arguments…` with no runtime directory: it goes through the
    /// X selection, not the control socket.
    func runPipcamOverX(_ arguments: [String], timeout: Duration = .seconds(10)) throws -> ProcessResult {
        var environment = self.environment
        environment["XDG_RUNTIME_DIR"] = nil
        return try IntegrationTests.run([Pipcam.binaryPath()] + arguments, environment: environment, timeout: timeout)
    }

    /// Runs `pipcam arguments…` (e.g. `status`, `toggle`) to completion on this server.
    func runPipcam(_ arguments: [String], timeout: Duration = .seconds(10)) throws -> ProcessResult {
        try run([Pipcam.binaryPath()] + arguments, timeout: timeout)
    }
}
