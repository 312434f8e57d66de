import ArgumentParser
import CameraSource
#if canImport(Glibc)
import Glibc
#endif

// ArgumentParser would exit 64 on a usage error; PRODUCT.md promises one line and exit 2.
let parsed: ParsableCommand
do {
    parsed = try PipcamCommand.parseAsRoot()
} catch {
    let code = PipcamCommand.exitCode(for: error)
    if code == .success {
        print(PipcamCommand.fullMessage(for: error))
        exit(0)
    }
    let message = PipcamCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "bad arguments"
    writeErrorLine("pipcam: \(message) (see 'pipcam --help')")
    exit(2)
}
if let control = parsed as? any ControlSubcommand { exit(control.send()) }
guard let command = parsed as? PipcamCommand else {
    // `--help` and `help` come back as ArgumentParser's own help command once there are subcommands.
    var other = parsed
    do {
        try other.run()
        exit(0)
    } catch {
        PipcamCommand.exit(withError: error)
    }
}
exit(Launcher(command: command).run())
