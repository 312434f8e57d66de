import PipCore
#if canImport(Glibc)
import Glibc
#endif

/// The client's end of the control socket: one request, one answer.
public enum ControlSocketClient {
    /// Sends `request` to the instance at `place` and waits up to `milliseconds` for its answer and
    /// the end of the connection (for `quit` the instance keeps it open until it has exited).
    public static func exchange(_ request: [UInt8], with place: ControlSocketPlace, within milliseconds: Int) -> ControlWire.Exchange {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .notRunning }
        defer { close(fd) }
        var address = ControlSocketServer.address(place.socketPath)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return .notRunning }
        let sent = SystemCall.retryingInterrupts { request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        guard sent.result == request.count else { return .exitedBeforeAnswering }
        shutdown(fd, Int32(SHUT_WR))
        let deadline = MonotonicInstant.now().advanced(byNanoseconds: Int64(milliseconds) * 1_000_000)
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let now = MonotonicInstant.now()
            guard now < deadline else { return .timedOut }
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let timeout = Int32(min((deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000, 60_000))
            // Interrupted, it is asked again with the time left.
            guard poll(&entry, 1, timeout) > 0 else { continue }
            let n = SystemCall.retryingInterrupts { chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }.result
            if n > 0 {
                answer += chunk.prefix(n)
                continue
            }
            return answer.isEmpty ? .exitedBeforeAnswering : .answered(answer)
        }
    }
}
