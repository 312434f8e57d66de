import Foundation
import Glibc
import TestSupport

/// The guest's uptime in seconds, the clock of dmesg: every log line, metric and kernel message
/// of the tier is on it.
enum GuestClock {
    /// Seconds since boot, to the hundredth (/proc/uptime).
    static func now() -> Double {
        let text = (try? String(contentsOfFile: "/proc/uptime", encoding: .utf8)) ?? ""
        return text.split(separator: " ").first.flatMap { Double($0) } ?? 0
    }

    /// `b - a` in seconds, rounded to the hundredth as the stamps are (so that a bound such as
    /// "at most 4 s" is not missed by a floating-point crumb).
    static func elapsed(_ a: Double, _ b: Double) -> Double { ((b - a) * 100).rounded() / 100 }

    /// A stamp or a duration as the logs and metrics print it: two decimals.
    static func format(_ seconds: Double) -> String { String(format: "%.2f", seconds) }

    /// The kernel's messages as dmesg prints them.
    static func kernelLog() throws -> String {
        let result = try run(["dmesg"], timeout: .seconds(20))
        guard result.succeeded else { throw HarnessError("dmesg: \(result)") }
        return result.stdoutText
    }

    /// The kernel's messages as (uptime, text) pairs: `[  123.456789] vivid-000: reconnect`.
    static func kernelMessages() throws -> [(time: Double, text: String)] {
        try kernelLog().split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"),
                let time = Double(line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces))
            else { return nil }
            return (time, line[line.index(after: close)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The stamp of the first kernel message `text` (exactly) at or after `after`, if any.
    static func kernelMessage(_ text: String, after: Double) throws -> Double? {
        try kernelMessages().first { $0.time >= after && $0.text == text }?.time
    }
}
