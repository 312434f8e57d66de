import Foundation
import Glibc

/// What a running pipcam did over a stretch of time: frames shown and dropped (from its stats
/// lines) and the CPU it used (from /proc, so its start-up is left out), with any other counters
/// read at the same two instants.
struct FrameWindow {
    /// The stretch the CPU and the other counters were read over.
    let seconds: Double
    /// The stretch between the two stats lines the frame counts come from: pipcam writes one a
    /// second, so dividing their counts by `seconds` would be up to a second off either way.
    let statsSeconds: Double
    let shown: Int
    let dropped: Int
    let cpuSeconds: Double
    /// How much each of the other counters grew.
    let others: [Double]

    var fps: Double { Double(shown) / statsSeconds }
    var cpuMillisecondsPerFrame: Double { cpuSeconds * 1000 / Double(max(1, shown)) }
}

extension ScenarioRun {
    /// Counts over the next `seconds` of `pipcam` (and of `others`, read at the same instants).
    func measure(_ pipcam: StampedProcess, seconds: Double, others: () -> [Double] = { [] }) throws -> FrameWindow {
        let t0 = GuestClock.now(), s0 = pipcam.lastStampedStats, c0 = ProcessCPU.seconds(of: pipcam.pid), o0 = others()
        try pause(seconds)
        let t1 = GuestClock.now(), s1 = pipcam.lastStampedStats, c1 = ProcessCPU.seconds(of: pipcam.pid), o1 = others()
        let statsSpan = (s1?.time ?? t1) - (s0?.time ?? t0)
        return FrameWindow(
            seconds: t1 - t0, statsSeconds: statsSpan > 0 ? statsSpan : t1 - t0,
            shown: (s1?.stats.shown ?? 0) - (s0?.stats.shown ?? 0), dropped: (s1?.stats.dropped ?? 0) - (s0?.stats.dropped ?? 0),
            cpuSeconds: c1 - c0, others: zip(o1, o0).map { $0 - $1 })
    }
}

/// CPU time of a process, from /proc.
enum ProcessCPU {
    /// CPU seconds (user + system) process `pid` used so far; 0 once it is gone.
    static func seconds(of pid: pid_t) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // After the command's ")" come the state (field 3), then utime and stime (14 and 15).
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
