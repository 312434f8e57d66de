import ArgumentParser
import PipCore
import PipWindow
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

// A closed standard descriptor would be reused by the next open — the X connection on 0, read as
// `y4m:-`, or on 2, written to by error lines: /dev/null takes its place.
for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 {
    _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
}
// Before anything slow: from here on SIGINT, SIGTERM and SIGHUP wait in a pipe for the loop that
// ends pipcam with 0 (docs/BEHAVIOUR.md, "Signals") instead of killing it mid-start.
SignalPipe.install()

// The config file's settings go before the command line's, which therefore win.
var arguments = ShareOption.withValues(Array(CommandLine.arguments.dropFirst()))
let named = ControlArguments.subcommand(in: arguments)
// Help, the version and the completion scripts answer whatever the config file says.
let asksForHelp = arguments.contains {
    ["--help", "-h", "--version"].contains($0) || $0.hasPrefix("--generate-completion-script")
}
if named == nil && !asksForHelp {
    switch ConfigArguments.load() {
    case .success(let fromFile): arguments = fromFile + arguments
    case .failure(let problem):
        writeErrorLine("pipcam: \(problem)")
        exit(2)
    }
} else if named != "help", !asksForHelp, !arguments.contains(where: ControlArguments.isNameOption),
    case .success(let fromFile) = ConfigArguments.load(), let name = ConfigArguments.value(of: "--name", in: fromFile)
{
    // The instance the config names is the one its control commands mean (a bad config is
    // pipcam's to report: with one, none is running).
    arguments += ["--name", name]
}

// ArgumentParser would exit 64 on a usage error; docs/BEHAVIOUR.md promises one line and exit 2.
let parsed: ParsableCommand
do {
    parsed = try PipcamCommand.parseAsRoot(RepeatedOptions.lastOnly(arguments, options: PipcamCommand.repeatable))
} catch {
    let code = PipcamCommand.exitCode(for: error)
    if code == .success {
        exit(StandardOutput.writeLine(PipcamCommand.fullMessage(for: error)) ? 0 : 1)
    }
    let message = PipcamCommand.oneLine(for: error, otherwise: "bad arguments")
    writeErrorLine("pipcam: \(message) (see 'pipcam --help')")
    exit(2)
}
if let control = parsed as? any ControlSubcommand {
    // ArgumentParser lets the main command's options through to a control command, which would
    // ignore them: `pipcam toggle --pip` is a usage error (docs/BEHAVIOUR.md: exit 2), not a toggle.
    let name = type(of: control).configuration.commandName ?? ""
    if let stray = ControlArguments.stray(in: arguments, subcommand: name, operands: control.operands) {
        writeErrorLine("pipcam: '\(name)' takes only --name NAME, not '\(stray)' (see 'pipcam help \(name)')")
        exit(2)
    }
    SignalPipe.exitAtOnceOnSignal()
    exit(control.send())
}
guard let command = parsed as? PipcamCommand else {
    // `--help` and `help` come back as ArgumentParser's own help command once there are subcommands.
    var other = parsed
    do {
        try other.run()
        exit(0)
    } catch {
        // `pipcam help toggle` throws its help text as a clean exit: printed here, write checked.
        if PipcamCommand.exitCode(for: error) == .success {
            exit(StandardOutput.writeLine(PipcamCommand.fullMessage(for: error)) ? 0 : 1)
        }
        PipcamCommand.exit(withError: error)
    }
}
exit(Launcher(command: command).run())
