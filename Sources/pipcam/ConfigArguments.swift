import CameraSource
import PipCore
import PipWindow
import PipcamApp
#if canImport(Glibc)
import Glibc
#endif

/// Reads `$XDG_CONFIG_HOME/pipcam/config` into arguments (none when there is no file).
enum ConfigArguments {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func load() -> Result<[String], Problem> {
        guard let path = ConfigFile.defaultPath(environment: { getenv($0).map { String(cString: $0) } }) else {
            return .success([])
        }
        // Looked at before it is opened, and opened without waiting: reading a FIFO waits for a
        // writer for good, and opening a device can do things.
        var info = stat()
        guard stat(path, &info) == 0 else {
            return absentOrFailed(path)
        }
        // A config linked to /dev/null (a common way to switch one off) is an empty one.
        if isNullDevice(info) { return .success([]) }
        guard isRegularFile(info) else { return .failure(notRegular(path, info)) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            return absentOrFailed(path)
        }
        defer { close(fd) }
        // The path may have been replaced between stat and open: what was opened is what counts.
        guard fstat(fd, &info) == 0, isRegularFile(info) else { return .failure(notRegular(path, info)) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let (n, code) = SystemCall.retryingInterrupts { read(fd, &chunk, chunk.count) }
            if n == 0 { break }
            if n < 0 {
                // A directory where the file should be, an I/O error: half a config is no config.
                return .failure(Problem(description: "\(path): \(Errno(code))"))
            }
            bytes += chunk[0..<n]
            if bytes.count > 1 << 20 { return .failure(Problem(description: "\(path): larger than 1 MiB")) }
        }
        let entries: [(line: Int, arguments: [String])]
        do {
            entries = try ConfigFile.entries(from: String(decoding: bytes, as: UTF8.self), options: PipcamCommand.configurable)
        } catch {
            return .failure(Problem(description: "\(path): \(error)"))
        }
        // Each line's value gets the same checks as on the command line, reported at its line.
        for entry in entries {
            do {
                _ = try PipcamCommand.parse(entry.arguments)
                // ArgumentParser takes any text for --source: its spec is checked here, at its line.
                if entry.arguments.first == "--source", let spec = entry.arguments.last, spec != "auto" {
                    do { _ = try SourceSpec.parse(spec) } catch {
                        return .failure(Problem(description: "\(path): line \(entry.line): \(error)"))
                    }
                }
            } catch {
                let message = PipcamCommand.oneLine(for: error, otherwise: "bad value")
                return .failure(Problem(description: "\(path): line \(entry.line): \(message)"))
            }
        }
        return .success(entries.flatMap(\.arguments))
    }

    /// No config file is no error; any other failure to look at or open it is.
    private static func absentOrFailed(_ path: String) -> Result<[String], Problem> {
        errno == ENOENT ? .success([]) : .failure(Problem(description: "\(path): \(Errno.current)"))
    }

    private static func isRegularFile(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }

    private static func isNullDevice(_ info: stat) -> Bool {
        var null = stat()
        return info.st_mode & S_IFMT == S_IFCHR && stat("/dev/null", &null) == 0 && info.st_rdev == null.st_rdev
    }

    /// A directory is named as reading it would (EISDIR); a FIFO, device or socket is just not a file.
    private static func notRegular(_ path: String, _ info: stat) -> Problem {
        let why = info.st_mode & S_IFMT == S_IFDIR ? Errno(EISDIR).description : "not a regular file"
        return Problem(description: "\(path): \(why)")
    }

    /// The value `option` has in `arguments` (the last one given), if any.
    static func value(of option: String, in arguments: [String]) -> String? {
        Array(zip(arguments, arguments.dropFirst())).last { $0.0 == option }?.1
    }
}
