/// What the shell completions (`pipcam --generate-completion-script bash|zsh|fish`, installed by the
/// packages) offer for values found at completion time. Each is a POSIX shell command printing one
/// value per line, written so that bash, zsh and fish all read it alike (no glob: fish refuses one
/// that matches nothing).
enum CompletionValues {
    private static let devices = "find /dev -maxdepth 1 -name 'video*' 2>/dev/null | sort -V"
    /// `--source`: the keywords, then the V4L2 devices present now (a file source is typed by hand).
    static let sources = "printf '%s\\n' auto test; \(devices)"
    /// `pipcam switch`: `next`, `test`, then the V4L2 devices present now.
    static let switchTargets = "printf '%s\\n' next test; \(devices)"
    /// `--share`: the V4L2 devices (a v4l2loopback one is among them), and `none`.
    static let shareDevices = "\(devices); printf '%s\\n' pipewire none"
}
