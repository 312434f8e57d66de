import ArgumentParser
import CameraSource
import PipCore
import PipWindow
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

/// The arguments of `pipcam toggle|start|stop|status|switch|quit|help`, looked at before parsing.
enum ControlArguments {
    static let subcommands: Set<String> = [
        "toggle", "start", "stop", "status", "switch", "quit", "controls", "set", "play", "pause", "seek", "help",
    ]

    static func isNameOption(_ argument: String) -> Bool { argument == "--name" || argument.hasPrefix("--name=") }

    /// `arguments` without `--name NAME` or `--name=NAME`, the only option control commands take.
    private static func withoutNameOptions(_ arguments: [String]) -> ArraySlice<String> {
        var rest = arguments[...], others: ArraySlice<String> = []
        while let first = rest.first {
            if isNameOption(first) {
                rest = rest.dropFirst(first == "--name" ? 2 : 1)
            } else {
                others.append(first)
                rest = rest.dropFirst()
            }
        }
        return others
    }

    /// The subcommand the arguments name: the first besides `--name NAME` (which may come before).
    static func subcommand(in arguments: [String]) -> String? {
        withoutNameOptions(arguments).first.flatMap { subcommands.contains($0) ? $0 : nil }
    }

    /// The first argument besides `subcommand` (once), its `operands` (once each) and `--name
    /// NAME`, which a control command does not take; nil when there is none.
    static func stray(in arguments: [String], subcommand: String, operands: [String] = []) -> String? {
        var others = withoutNameOptions(arguments)
        for expected in [subcommand] + operands {
            if let at = others.firstIndex(of: expected) { others.remove(at: at) }
        }
        return others.first
    }
}

/// Which running instance a control command is for.
struct ControlTarget: ParsableArguments {
    @Option(help: ArgumentHelp("The instance started with --name NAME (default: the unnamed one, or a config file's name; none for the unnamed one).", valueName: "name"))
    var name: NameValue?

    func validate() throws {
        if let problem = name?.problem { throw ValidationError(problem) }
    }
}

/// `pipcam toggle|start|stop|status|switch|quit`: one of the control subcommands.
protocol ControlSubcommand: ParsableCommand {
    var target: ControlTarget { get }
    var root: PipcamCommand { get }
    /// The arguments it takes besides `--name NAME` (`switch`: its source).
    var operands: [String] { get }
    /// Asks the instance through `client`.
    func ask(_ client: ControlClient) -> ControlClient.Outcome
}

/// A control subcommand that is one `ControlCommand`, with no arguments of its own.
protocol PlainControlSubcommand: ControlSubcommand {
    static var command: ControlCommand { get }
}

extension PlainControlSubcommand {
    var operands: [String] { [] }
    func ask(_ client: ControlClient) -> ControlClient.Outcome { client.send(Self.command) }
}

extension ControlSubcommand {
    /// Sends the command to the instance on `$DISPLAY`; returns the exit status (docs/BEHAVIOUR.md:
    /// 0 done; 1 no answer, a bad one, one not yet confirmed, or an answer that could not be
    /// written; 2 no display; 3 no instance running).
    func send() -> Int32 {
        guard let (display, displayName) = DisplayConnection.open() else { return 2 }
        defer { display.close() }
        // ArgumentParser gives `--name` to the first command that declares it, before or after the subcommand.
        let name = (target.name ?? root.name)?.name
        let outcome = ask(ControlClient(display: display, displayName: displayName, name: name))
        if let error = outcome.error { writeErrorLine(error) }
        if let output = outcome.output, !StandardOutput.writeLine(output) { return 1 }
        return outcome.exitCode
    }
}

struct ToggleCommand: PlainControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "toggle", abstract: "Start Picture in Picture in the running pipcam, or stop it when it is up.")
    static let command = ControlCommand.toggle
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
}

struct StartCommand: PlainControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start Picture in Picture in the running pipcam.")
    static let command = ControlCommand.start
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
}

struct StopCommand: PlainControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "stop", abstract: "Stop Picture in Picture in the running pipcam, restoring its main window.")
    static let command = ControlCommand.stop
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
}

struct StatusCommand: PlainControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Print the running pipcam's state as one JSON object.")
    static let command = ControlCommand.status
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
}

struct QuitCommand: PlainControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "quit", abstract: "Make the running pipcam exit; returns once it has.")
    static let command = ControlCommand.quit
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
}

struct SwitchCommand: ControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "switch",
        abstract: "Make the running pipcam show another source, in the same window; returns once it does.",
        discussion: """
            The new source opens while the old one still shows, and replaces it between two frames. \
            If it cannot (a missing file, a camera in use or unplugged, no frame within 4 s), the old one \
            stays and pipcam says why (exit 1).
            """)
    @Argument(help: ArgumentHelp(
        "next (the next camera, round to the first), /dev/videoN, test, y4m:PATH, raw:PATH:WxH:FMT[@FPS] or mjpeg:PATH[@FPS].",
        valueName: "source"), completion: .shellCommand(CompletionValues.switchTargets))
    var source: String
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { [source] }

    func validate() throws {
        guard source != "next" else { return }
        do {
            _ = try SourceSpec.forSwitch(source, directory: currentDirectory())
        } catch {
            throw ValidationError(error.description)
        }
    }

    func ask(_ client: ControlClient) -> ControlClient.Outcome {
        // `validate` has checked it: the instance gets what parses, with a file's path absolute.
        let text = source == "next" ? source : ((try? SourceSpec.forSwitch(source, directory: currentDirectory())) ?? source)
        return client.switchSource(to: text)
    }
}

/// This process's working directory ("/" when it cannot be told).
private func currentDirectory() -> String {
    guard let path = getcwd(nil, 0) else { return "/" }
    defer { free(path) }
    return String(cString: path)
}
