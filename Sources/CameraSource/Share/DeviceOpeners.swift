#if canImport(Glibc)
import Glibc
#endif

/// Which other processes have a device node open, from /proc (as fuser(1) finds them). For a
/// virtual camera pipcam writes, they are its readers: v4l2loopback does not count them itself.
public enum DeviceOpeners {
    /// Processes other than this one with `path` open; nil when the path does not resolve. Only
    /// processes whose descriptors this user may see are counted (all of one's own).
    public static func others(of path: String, proc: String = "/proc") -> Int? {
        guard let target = DevicePath.real(path) else { return nil }
        let me = getpid()
        var count = 0
        forEachEntry(of: proc) { name in
            guard let pid = Int32(name), pid != me else { return }
            var found = false
            forEachEntry(of: "\(proc)/\(name)/fd") { fd in
                if !found && link("\(proc)/\(name)/fd/\(fd)") == target { found = true }
            }
            if found { count += 1 }
        }
        return count
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
