import Foundation
import TestSupport
import Testing

/// Another Swift package depends on pipcam's libraries by version, as docs/LIBRARY.md invites:
/// SwiftPM refuses a versioned dependency whose targets carry unsafe flags, so none may; the
/// program it builds does not link libpipewire (loaded at run time) and runs.
@Suite(.timeLimit(.minutes(8)))
struct LibraryDependencyTests {
    @Test func aPackageDependingOnTheLibrariesByVersionBuildsAndRuns() throws {
        let scratch = try Scratch.makeDirectory("library-dependency")
        // The package as a repository of its own, its files as they are now, tagged 1.0.0.
        let library = scratch + "/pipcam"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try runChecked(
            ["bash", "-c", "cd \"$1\" && git ls-files -z | xargs -0 cp -P --parents -t \"$2\" 2>/dev/null; test -f \"$2/Package.swift\"",
             "copy", Pipcam.packageRoot, library],
            timeout: .seconds(60))
        let git = ["git", "-C", library, "-c", "user.name=pipcam tests", "-c", "user.email=tests@pipcam.invalid"]
        try runChecked(git + ["init", "-q"])
        try runChecked(git + ["add", "-A"], timeout: .seconds(60))
        try runChecked(git + ["commit", "-q", "-m", "as tested"], timeout: .seconds(60))
        try runChecked(git + ["tag", "1.0.0"])

        let app = scratch + "/app"
        try FileManager.default.createDirectory(atPath: app + "/Sources/app", withIntermediateDirectories: true)
        try """
        // swift-tools-version: 6.1
        import PackageDescription
        let package = Package(
            name: "app",
            dependencies: [.package(url: "file://\(library)", from: "1.0.0")],
            targets: [.executableTarget(name: "app", dependencies: [
                .product(name: "CameraSource", package: "pipcam"), .product(name: "PipWindow", package: "pipcam"),
            ])])
        """.write(toFile: app + "/Package.swift", atomically: true, encoding: .utf8)
        try """
        import CameraSource
        import PipWindow
        let source = TestPatternSource()
        try source.start()
        print("\\(source.frameWidth)x\\(source.frameHeight) \\(SeekTarget.parse("f12") == .frame(12))")
        """.write(toFile: app + "/Sources/app/main.swift", atomically: true, encoding: .utf8)
        let build = try run(["swift", "build", "--package-path", app], timeout: .seconds(420))
        #expect(build.succeeded && !build.stderrText.contains("unsafe"), "\(build.stdoutText.suffix(1500)) \(build.stderrText.suffix(1500))")
        guard build.succeeded else { return }
        let ran = try run([app + "/.build/debug/app"], timeout: .seconds(30))
        #expect(ran.succeeded && ran.stdoutText.hasSuffix(" true\n"), "\(ran)")
        let needed = try run(["readelf", "-d", app + "/.build/debug/app"]).stdoutText
        #expect(!needed.contains("libpipewire"), "libpipewire is loaded at run time, not linked")
    }
}
