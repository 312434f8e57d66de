// swift-tools-version: 6.1
import Foundation
import PackageDescription

// libFuzzer targets for pipcam's parsers (not part of the pipcam package, so its build and tests
// stay as they are): `make fuzz` or scripts/fuzz; docs/TESTING.md, "Fuzzing".
//
// Built in debug (bounds and overflow checks on, `@testable import` of the internal parsers) with
//   swift build --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -O
// `--sanitize=fuzzer` alone makes SwiftPM link libFuzzer's `main` instead of the target's, but its
// two `--sanitize` flags reach the compiler as separate `-sanitize=` options of which only the
// last counts: the combined one given directly instruments every module for both.

// A path dependency's identity is its directory name, which differs between checkouts.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().standardized
let pipcam = root.lastPathComponent.lowercased()

let pipCore = Target.Dependency.product(name: "PipCore", package: pipcam)
let mjpeg = Target.Dependency.product(name: "MJPEG", package: pipcam)
let cameraSource = Target.Dependency.product(name: "CameraSource", package: pipcam)
let pipWindow = Target.Dependency.product(name: "PipWindow", package: pipcam)
let pipcamApp = Target.Dependency.product(name: "PipcamApp", package: pipcam)
let pipControl = Target.Dependency.product(name: "PipControl", package: pipcam)

/// Each fuzz target's module: `Sources/<name>`, one file with `LLVMFuzzerTestOneInput`.
let targets: [(name: String, dependencies: [Target.Dependency])] = [
    ("fuzz-y4m", [cameraSource]),
    ("fuzz-raw", [cameraSource]),
    ("fuzz-source-spec", [cameraSource, pipCore]),
    ("fuzz-jpeg-header", [mjpeg]),
    ("fuzz-huffman", [mjpeg]),
    ("fuzz-jpeg-decode", [mjpeg, pipCore]),
    ("fuzz-mjpeg", [cameraSource, mjpeg]),
    ("fuzz-config", [pipWindow, pipcamApp, pipCore]),
    ("fuzz-hotkey", [pipWindow]),
    ("fuzz-control", [pipWindow, pipCore]),
    ("fuzz-x-properties", [pipWindow, pipCore]),
    ("fuzz-camera-memory", [cameraSource]),
    ("fuzz-seek", [cameraSource, pipcamApp]),
    ("fuzz-request", [pipControl, pipCore]),
]

let package = Package(
    name: "PipcamFuzz",
    dependencies: [.package(path: root.path)],
    targets: [.target(name: "FuzzSupport", dependencies: [cameraSource, pipCore])]
        + targets.map {
            // No `main`: libFuzzer's calls LLVMFuzzerTestOneInput. One file not named main.swift:
            // SwiftPM compiles it as a library's (no top-level code), so no flag is needed.
            .executableTarget(name: $0.name, dependencies: $0.dependencies + ["FuzzSupport"])
        },
    swiftLanguageModes: [.v6]
)
