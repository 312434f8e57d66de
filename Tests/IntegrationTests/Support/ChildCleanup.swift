import Glibc

/// Ends the harness's children when the test process itself is interrupted.
///
/// Children run in their own process groups (so a test can kill one with its descendants), which
/// also means a Ctrl-C or a SIGTERM sent to `swift test` would not reach them and no `deinit`
/// would run: Xvfb, window managers and pipcam would be left behind. So the first spawn installs
/// handlers for SIGINT, SIGTERM and SIGHUP (where nobody else has one) that send SIGTERM to every
/// live child group, then die of the same signal. The table is a fixed C array because a signal
/// handler may only do async-signal-safe things: plain loads and `kill`.
enum ChildCleanup {
    private static let capacity = 512
    /// Process-group ids of live children; 0 marks a free slot. Written under the spawn lock,
    /// read by the handler (word-sized stores and loads: a racy read sees a pid or 0).
    nonisolated(unsafe) private static let groups: UnsafeMutablePointer<pid_t> = {
        let table = UnsafeMutablePointer<pid_t>.allocate(capacity: capacity)
        table.initialize(repeating: 0, count: capacity)
        return table
    }()
    nonisolated(unsafe) private static var installed = false

    /// Records a child group. Call with the spawn lock held.
    static func register(_ pid: pid_t) {
        if !installed { install() }
        for slot in 0..<capacity where groups[slot] == 0 {
            groups[slot] = pid
            return
        }
    }

    /// Forgets a child group once it has been reaped. Call with the spawn lock held.
    static func unregister(_ pid: pid_t) {
        for slot in 0..<capacity where groups[slot] == pid {
            groups[slot] = 0
        }
    }

    private static func install() {
        installed = true
        _ = groups  // initialise the table before any handler can run
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            var previous = sigaction()
            sigaction(signal, nil, &previous)
            guard previous.__sigaction_handler.sa_handler == nil else { continue }  // not SIG_DFL: leave it
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                for slot in 0..<ChildCleanup.capacity where ChildCleanup.groups[slot] > 0 {
                    kill(-ChildCleanup.groups[slot], SIGTERM)
                }
                Glibc.signal(signal, SIG_DFL)
                raise(signal)
            }
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }
}
