import ArgumentParser
import CameraSource
import PipControl
import PipCore
import PipWindow
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

/// The arguments of `pipcam toggle|start|stop|status|switch|quit|help`, looked at before parsing.
enum ControlArguments {
    static let subcommands = Set(ControlVerb.allCases.map(\.name) + ["help"])

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

/// One of the control subcommands (`ControlVerb`): what it asks, made once from its arguments.
protocol ControlSubcommand: ParsableCommand {
    var target: ControlTarget { get }
    var root: PipcamCommand { get }
    /// The arguments it takes besides `--name NAME` (`switch`: its source).
    var operands: [String] { get }
    /// What it asks of the instance.
    var request: PipRequest { get }
}

extension ControlVerb {
    /// The subcommand's name and help, from the table.
    var configuration: CommandConfiguration { CommandConfiguration(commandName: name, abstract: abstract, discussion: discussion) }
}

/// A control subcommand with no arguments of its own.
protocol PlainControlSubcommand: ControlSubcommand {}

extension PlainControlSubcommand {
    var operands: [String] { [] }
}

extension ControlSubcommand {
    /// Asks the instance and prints what it said; returns the exit status (docs/BEHAVIOUR.md).
    func send() -> Int32 {
        // ArgumentParser gives `--name` to the first command that declares it, before or after the subcommand.
        let name = (target.name ?? root.name)?.name
        let outcome = ControlCall(request: request, name: name).run()
        if let error = outcome.error { writeErrorLine(error) }
        if let output = outcome.output, !StandardOutput.writeLine(output) { return 1 }
        return outcome.exitCode
    }
}

struct ToggleCommand: PlainControlSubcommand {
    static let configuration = ControlVerb.toggle.configuration
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
    var request: PipRequest { .pip(.toggle) }
}

struct StartCommand: PlainControlSubcommand {
    static let configuration = ControlVerb.start.configuration
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
    var request: PipRequest { .pip(.start) }
}

struct StopCommand: PlainControlSubcommand {
    static let configuration = ControlVerb.stop.configuration
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
    var request: PipRequest { .pip(.stop) }
}

struct StatusCommand: PlainControlSubcommand {
    static let configuration = ControlVerb.status.configuration
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
    var request: PipRequest { .status }
}

struct QuitCommand: PlainControlSubcommand {
    static let configuration = ControlVerb.quit.configuration
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand
    var request: PipRequest { .quit }
}

struct SwitchCommand: ControlSubcommand {
    static let configuration = ControlVerb.switch.configuration
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

    var request: PipRequest {
        // `validate` has checked it: the instance gets what parses, with a file's path absolute.
        guard source != "next", let text = try? SourceSpec.forSwitch(source, directory: currentDirectory()),
            let spec = try? SourceSpec.parse(text)
        else { return .switchSource(.next) }
        return .switchSource(.source(spec, text: text))
    }
}

/// This process's working directory ("/" when it cannot be told).
private func currentDirectory() -> String {
    guard let path = getcwd(nil, 0) else { return "/" }
    defer { free(path) }
    return String(cString: path)
}
