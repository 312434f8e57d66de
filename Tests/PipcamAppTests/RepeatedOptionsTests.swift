import Foundation
import Testing
import PipWindow
@testable import PipcamApp

/// `RepeatedOptions.lastOnly`: what pipcam hands ArgumentParser instead of a command line with
/// repeats (Sources/pipcam/PipcamCommand.swift has the real table).
@Suite struct RepeatedOptionsTests {
    let options: [String: RepeatedOptions.Kind] = [
        "--stats": .flag(group: "stats"), "--no-stats": .flag(group: "stats"), "--pip": .flag(group: "pip"),
        "--source": .value(group: "source", unconditional: false, accepts: { _ in true }),
        "--size": .value(group: "size", unconditional: true, accepts: { _ in true }),
        "--rotate": .value(group: "rotate", unconditional: true, accepts: { Int($0) != nil }),
        "--name": .value(group: "name", unconditional: false, accepts: { _ in true }),
    ]

    func lastOnly(_ arguments: [String]) -> [String] { RepeatedOptions.lastOnly(arguments, options: options) }

    @Test func theLastOfEachGroupStaysInPlace() {
        #expect(lastOnly(["--stats", "--pip", "--no-stats", "--stats"]) == ["--pip", "--stats"])
        #expect(lastOnly(["--source", "a", "--size", "1x1", "--source=b"]) == ["--size", "1x1", "--source=b"])
        #expect(lastOnly(["--rotate", "90", "--rotate", "180"]) == ["--rotate", "180"])
        #expect(lastOnly([]) == [])
    }

    /// A value ArgumentParser would refuse keeps its error; a value that may be an option, an
    /// unknown argument or a subcommand keep everything around them where it was.
    @Test func nothingThatMightMatterIsDropped() {
        #expect(lastOnly(["--rotate", "abc", "--rotate", "90"]) == ["--rotate", "abc", "--rotate", "90"])
        // --size takes the next argument whatever it is: that --stats is its value, not a flag.
        #expect(lastOnly(["--size", "--stats", "--stats"]) == ["--size", "--stats", "--stats"])
        // --source does not take an argument that looks like an option as its value (a missing
        // value either way): it stays, the flags after it are flags.
        #expect(lastOnly(["--source", "--stats", "--stats"]) == ["--source", "--stats"])
        #expect(lastOnly(["--stats", "--source", "--stats"]) == ["--stats", "--source", "--stats"])
        #expect(lastOnly(["--source", "-", "--source", "test"]) == ["--source", "-", "--source", "test"])
        #expect(lastOnly(["--name", "a", "status", "--name", "b", "--name", "c"]) == ["--name", "a", "status", "--name", "c"])
        #expect(lastOnly(["--stats", "--frobnicate", "--stats"]) == ["--stats", "--frobnicate", "--stats"])
        #expect(lastOnly(["--stats=1", "--stats"]) == ["--stats=1", "--stats"])
        #expect(lastOnly(["--stats", "--", "--stats", "--stats"]) == ["--stats", "--", "--stats", "--stats"])
        #expect(lastOnly(["--source"]) == ["--source"])
    }

    /// Linear: a million arguments in well under the time 10,000 took ArgumentParser.
    @Test func aMillionArgumentsTakeLittleTime() {
        let arguments = Array(repeating: ["--stats", "--source", "test", "--no-stats"], count: 250_000).flatMap { $0 }
        let clock = ContinuousClock()
        let started = clock.now
        let result = lastOnly(arguments)
        let took = clock.now - started
        #expect(result == ["--source", "test", "--no-stats"])
        #expect(took < .seconds(5), "\(took)")
    }
}
