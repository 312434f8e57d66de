#if canImport(Glibc)
import Glibc
#endif

/// How long this process has existed, for `first_frame_ms` in the stats line.
enum ProcessClock {
    /// Milliseconds since the kernel created this process (its `starttime` in /proc/self/stat,
    /// on the boot-time clock), or nil when /proc cannot be read. The start is kept in clock ticks
    /// (usually 10 ms) and truncated, so the result may be up to one tick too long, never too short.
    static func millisecondsSinceStart() -> Double? {
        guard let ticks = startTicks() else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard hz > 0 else { return nil }
        let nowMilliseconds = Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
        return max(0, nowMilliseconds - Double(ticks) / hz * 1000)
    }

    /// Field 22 of /proc/self/stat (counted after the parenthesised command name, which may hold spaces).
    private static func startTicks() -> UInt64? {
        let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0, let close = buffer[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        // After ") " come fields 3, 4, …; starttime is field 22.
        var field = 2, value: UInt64 = 0, inField = false
        for byte in buffer[(close + 1)..<count] {
            if byte == UInt8(ascii: " ") {
                if inField && field == 22 { return value }
                inField = false
                continue
            }
            if !inField {
                inField = true
                field += 1
                value = 0
            }
            if field == 22 {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + UInt64(byte - 48)
            }
        }
        return field == 22 ? value : nil
    }
}
