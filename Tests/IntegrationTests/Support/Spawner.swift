import Glibc
import Synchronization
import TestSupport

/// posix_spawn with a new process group, default signal dispositions and an empty mask.
enum Spawner {
    /// Serialises spawns and descriptor creation: glibc as seen from Swift has no pipe2 or
    /// closefrom, so a descriptor is briefly inheritable before FD_CLOEXEC is set on it.
    static let lock = Mutex(())

    static func spawn(
        _ command: [String], environment: [String: String], stdin: String, stdout: String,
        stderr: String, extraDescriptors: [Int32: Int32]
    ) throws -> pid_t {
        try lock.withLock { _ in
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            for (child, parent) in extraDescriptors {
                posix_spawn_file_actions_adddup2(&actions, parent, child)
            }

            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGCHLD, SIGUSR1, SIGUSR2, SIGALRM] {
                sigaddset(&defaults, signal)
            }
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            posix_spawnattr_setpgroup(&attributes, 0)
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

            let argv = command.map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                argv.forEach { free($0) }
                envp.forEach { free($0) }
            }
            var pid: pid_t = 0
            let error = posix_spawnp(&pid, command[0], &actions, &attributes, argv, envp)
            if error == 0 { ChildCleanup.register(pid) }
            guard error == 0 else {
                throw HarnessError("cannot start `\(command[0])`: \(String(cString: strerror(error)))"
                    + (error == ENOENT ? " (not on PATH; run scripts/bootstrap test)" : ""))
            }
            return pid
        }
    }

    /// Drops a reaped child from the interrupt clean-up table.
    static func forget(_ pid: pid_t) {
        lock.withLock { _ in ChildCleanup.unregister(pid) }
    }

    /// A pipe whose ends are both close-on-exec (dup2 into a child clears it there).
    static func makePipe() throws -> (read: Int32, write: Int32) {
        try lock.withLock { _ in
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw HarnessError("pipe: \(String(cString: strerror(errno)))") }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return (fds[0], fds[1])
        }
    }
}

/// A close-on-exec pipe, for handing a descriptor such as Xvfb's `-displayfd` to a child.
func makeCloseOnExecPipe() throws -> (read: Int32, write: Int32) { try Spawner.makePipe() }
