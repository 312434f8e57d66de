import ArgumentParser
import CameraSource
#if canImport(Glibc)
import Glibc
#endif

// ArgumentParser would exit 64 on a usage error; PRODUCT.md promises one line and exit 2.
let command: PipcamCommand
do {
    command = try PipcamCommand.parseAsRoot() as! PipcamCommand
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
exit(Launcher(command: command).run())
