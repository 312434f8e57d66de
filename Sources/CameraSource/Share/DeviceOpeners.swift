#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Which other processes have a device node open, from /proc (as fuser(1) finds them). For a
/// virtual camera pipcam writes, they are its readers: v4l2loopback does not count them itself.
public enum DeviceOpeners {
    /// A process with the device open: its id and command name.
    public struct Holder: Sendable, Equatable, CustomStringConvertible {
        public var pid: Int32
        public var command: String
        public init(pid: Int32, command: String) {
            self.pid = pid
            self.command = command
        }
        public var description: String { "\(command), pid \(pid)" }
    }

    /// Processes other than this one with `path` open; nil when the path does not resolve. Only
    /// processes whose descriptors this user may see are counted (all of one's own).
    public static func others(of path: String, proc: String = "/proc") -> Int? {
        holders(of: path, proc: proc)?.count
    }

    /// The processes other than this one with `path` open (or mapped: a camera's buffers), by
    /// process id; nil when the path does not resolve.
    public static func holders(of path: String, proc: String = "/proc", except me: Int32 = getpid()) -> [Holder]? {
        guard let target = DevicePath.real(path) else { return nil }
        var holders: [Holder] = []
        forEachEntry(of: proc) { name in
            guard let pid = Int32(name), pid != me else { return }
            var found = false
            forEachEntry(of: "\(proc)/\(name)/fd") { fd in
                if !found && link("\(proc)/\(name)/fd/\(fd)") == target { found = true }
            }
            if !found, let maps = read("\(proc)/\(name)/maps") {
                found = maps.split(separator: "\n").contains { $0.hasSuffix(" " + target) }
            }
            guard found else { return }
            let command = read("\(proc)/\(name)/comm").map { String($0.prefix { $0 != "\n" }) } ?? "?"
            holders.append(Holder(pid: pid, command: command.isEmpty ? "?" : command))
        }
        return holders.sorted { $0.pid < $1.pid }
    }

    /// Who holds `path`, e.g. `firefox, pid 4242` (several: `; `-separated); nil when nobody
    /// can be seen.
    public static func holderText(of path: String, proc: String = "/proc") -> String? {
        guard let holders = holders(of: path, proc: proc), !holders.isEmpty else { return nil }
        return holders.map(\.description).joined(separator: "; ")
    }

    /// Why a camera cannot be opened, with who holds it when that can be seen:
    /// `in use by another application (firefox, pid 4242)`.
    public static func inUseReason(of path: String, proc: String = "/proc") -> String {
        let reason = CameraInterruption.inUse.reason
        return holderText(of: path, proc: proc).map { "\(reason) (\($0))" } ?? reason
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[0..<n]
            if bytes.count > 1 << 22 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func forEachEntry(of directory: String, _ body: (String) -> Void) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { body(name) }
        }
    }
}
