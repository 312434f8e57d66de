// The floor under pipcam's cost while nothing shows: what one wake-up of a sleeping thread costs on
// this host, before pipcam does anything with the frame that woke it. When no window shows video,
// the capture thread still wakes once per camera frame (to hand the buffer back); a thread doing
// nothing else but that wake-up is the least any design that keeps the camera streaming can spend.
import Glibc

/// A thread that polls an idle pipe with a 33 ms timeout (30 wake-ups a second, as the capture
/// thread sleeps between frames) and does nothing else: its CPU per wake-up, kernel time included.
func benchWakeUp(wakeUps: Int = 90) {
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else { return }
    defer { close(pipeEnds[0]); close(pipeEnds[1]) }
    var fds = [pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0), pollfd(fd: -1, events: 0, revents: 0)]
    var times: [UInt64] = []
    times.reserveCapacity(wakeUps)
    var before = threadCPU()
    for _ in 0..<wakeUps {
        _ = poll(&fds, 2, 33)
        let after = threadCPU()
        times.append(after - before)
        before = after
    }
    let sorted = times.sorted()
    let median = Double(sorted[sorted.count / 2]) / 1e6, best = Double(sorted[0]) / 1e6
    let label = "wake-up: poll with a 33 ms timeout (CPU of the waking thread)"
    if markdown {
        print("| \(label) | \(fmt(median)) | \(fmt(best)) | — | — |")
    } else {
        print("\(label): median \(fmt(median)) ms, best \(fmt(best)) ms per wake-up")
    }
}
