#if canImport(Glibc)
import Glibc
#endif

/// Where instances listen: one Unix socket per session display and `--name` in
/// `$XDG_RUNTIME_DIR/pipcam/`, named `DISPLAY[@NAME].sock`, with a lock file beside it
/// (`….lock`) that the instance holds as long as it runs. The lock, not the socket file, says
/// who runs: the kernel lets it go however the instance ends, so a socket left by a crash is
/// known as stale and taken over.
public struct ControlSocketPlace: Sendable, Equatable {
    /// `$XDG_RUNTIME_DIR/pipcam`.
    public let directory: String
    /// The display as the file name writes it (`:0`, screen dropped).
    public let display: String
    /// The instance's `--name`; nil for the unnamed one.
    public let name: String?

    public init(directory: String, display: String, name: String?) {
        self.directory = directory
        self.display = Self.displayKey(display)
        self.name = name
    }

    /// The directory in `runtimeDirectory` (nil or empty: there is none, and no socket).
    public static func directory(runtimeDirectory: String?) -> String? {
        guard let runtimeDirectory, runtimeDirectory.hasPrefix("/") else { return nil }
        return (runtimeDirectory.hasSuffix("/") ? String(runtimeDirectory.dropLast()) : runtimeDirectory) + "/pipcam"
    }

    /// The socket's file name.
    public var fileName: String { Self.escaped(display) + (name.map { "@" + $0 } ?? "") + ".sock" }
    public var socketPath: String { directory + "/" + fileName }
    public var lockPath: String { socketPath.dropLast(5) + ".lock" }

    /// How messages name the instance: ":3" or ":3 (name 'cam')".
    public var described: String { display + (name.map { " (name '\($0)')" } ?? "") }

    /// The place a socket `fileName` in `directory` stands for; nil for other files.
    public static func parse(fileName: String, in directory: String) -> ControlSocketPlace? {
        guard fileName.hasSuffix(".sock") else { return nil }
        let stem = fileName.dropLast(5)
        let parts = stem.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let display = unescaped(String(parts[0])), !display.isEmpty else { return nil }
        let name = parts.count == 2 ? String(parts[1]) : nil
        if let name, name.isEmpty { return nil }
        return ControlSocketPlace(directory: directory, display: display, name: name)
    }

    /// `host:10.0` → `host:10`: the screen is no part of which display a session runs on.
    static func displayKey(_ display: String) -> String {
        guard let colon = display.lastIndex(of: ":"), let dot = display[colon...].firstIndex(of: ".") else { return display }
        return String(display[..<dot])
    }

    /// Letters, digits and `:._-` as they are; every other byte as `%XX` (so `@` and `/` never appear).
    static func escaped(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || ":._-".contains(c)) { out.append(c) } else { out += "%" + hex(byte) }
        }
        return out
    }

    static func unescaped(_ text: String) -> String? {
        var bytes: [UInt8] = [], rest = Substring(text)
        while let c = rest.first {
            if c == "%" {
                guard rest.count >= 3, let byte = UInt8(rest.dropFirst().prefix(2), radix: 16) else { return nil }
                bytes.append(byte)
                rest = rest.dropFirst(3)
            } else {
                bytes += Array(String(c).utf8)
                rest = rest.dropFirst()
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}

extension ControlSocketPlace {
    /// Whether an instance runs here now: it holds the lock.
    public var isRunning: Bool {
        let fd = open(lockPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }

    /// The instances running in `directory`, in file-name order.
    public static func running(in directory: String) -> [ControlSocketPlace] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var found: [ControlSocketPlace] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let place = parse(fileName: name, in: directory), place.isRunning { found.append(place) }
        }
        return found.sorted { $0.fileName < $1.fileName }
    }
}
