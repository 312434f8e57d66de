import Testing
import PipWindow
@testable import PipcamApp

@Suite struct ConfigFileTests {
    let options: [String: ConfigFile.Kind] = ["size": .value, "stats": .flag, "mirror": .invertible]

    @Test func linesBecomeArguments() throws {
        let text = "# settings\n size = 480x270 \n\nstats = yes # always\nmirror = false\n"
        #expect(try ConfigFile.arguments(from: text, options: options) == ["--size", "480x270", "--stats", "--no-mirror"])
        #expect(try ConfigFile.arguments(from: "stats = off\n", options: options) == [])
        // A '#' inside a value is the value's; one after a space starts a comment.
        #expect(try ConfigFile.arguments(from: "source = y4m:/clips/take#2.y4m # the good one\n", options: ["source": .value])
            == ["--source", "y4m:/clips/take#2.y4m"])
        #expect(try ConfigFile.entries(from: "\nsize=1x1", options: options).map(\.line) == [2])
    }

    /// A file saved on Windows: CRLF line ends, maybe a byte order mark. Each line is its own
    /// (they read as one before: a first-line comment hid the whole file).
    @Test func crlfLinesAndAByteOrderMarkReadAsLines() throws {
        let text = "\u{FEFF}# settings\r\nsize = 480x270\r\n\r\nstats = yes\r\n"
        #expect(try ConfigFile.arguments(from: text, options: options) == ["--size", "480x270", "--stats"])
        #expect(try ConfigFile.entries(from: "\u{FEFF}size = 1x1\r\nmirror = on", options: options).map(\.line) == [1, 2])
        do {
            _ = try ConfigFile.arguments(from: "size = 1x1\r\nwhat\r\n", options: options)
            Issue.record("a bad second line was accepted")
        } catch {
            #expect(error.description == "line 2: expected 'key = value', got 'what'")
        }
    }

    @Test func badLinesNameTheirNumber() {
        func error(_ text: String) -> String? {
            do { _ = try ConfigFile.arguments(from: text, options: options) } catch { return error.description }
            return nil
        }
        #expect(error("size = 1x1\nwhat") == "line 2: expected 'key = value', got 'what'")
        #expect(error("colour = red") == "line 1: unknown option 'colour'")
        #expect(error("\n\nsize =") == "line 3: 'size' needs a value")
        #expect(error("stats = maybe") == "line 1: 'stats' takes true or false, not 'maybe'")
    }

    @Test func pathFollowsXDG() {
        #expect(ConfigFile.defaultPath { ["XDG_CONFIG_HOME": "/x", "HOME": "/h"][$0] } == "/x/pipcam/config")
        #expect(ConfigFile.defaultPath { ["XDG_CONFIG_HOME": "rel", "HOME": "/h"][$0] } == "/h/.config/pipcam/config")
        #expect(ConfigFile.defaultPath { _ in nil } == nil)
    }
}
