import Glibc
import PipWindow

/// `bench stats-line`: the last `--stats` line on standard input as a JSON object, read with the
/// parser pipcam's tests use (`StatsLine`), so `make bench` reads the line the same way; exits 1
/// when there is none.
func printLastStatsLine() -> Never {
    var text = ""
    while let line = readLine(strippingNewline: false) { text += line }
    guard let stats = StatsLine.last(in: text) else { exit(1) }
    func number(_ v: Double?) -> String { v.map { "\($0)" } ?? "null" }
    print(
        "{\"state\": \"\(stats.state)\", \"camera\": \"\(stats.camera)\", \"fps\": \(stats.fps), \"shown\": \(stats.shown),"
            + " \"dropped\": \(stats.dropped), \"latency_p50_ms\": \(stats.latencyP50), \"latency_p99_ms\": \(stats.latencyP99),"
            + " \"cpu_ms_per_frame\": \(stats.cpuPerFrame), \"first_frame_ms\": \(number(stats.firstFrame))}")
    exit(0)
}
