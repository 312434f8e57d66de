#if canImport(Glibc)
import Glibc
#endif
import PipCore

/// Where each camera's `RememberedCamera` is kept: one small text file per camera,
/// `$XDG_STATE_HOME/pipcam/cameras/<identity>` (default `~/.local/state/pipcam/cameras/…`).
///
/// A damaged file never stops pipcam: what can be read of it is used, and the rest is one
/// warning line naming the file.
public struct CameraMemory: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The memory in `$XDG_STATE_HOME/pipcam/cameras`, or nil when neither it nor `$HOME` is set.
    public static func standard() -> CameraMemory? {
        directory { getenv($0).map { String(cString: $0) } }.map(CameraMemory.init(directory:))
    }

    /// The directory, with the environment read through `variable`.
    static func directory(variable: (String) -> String?) -> String? {
        if let state = variable("XDG_STATE_HOME"), state.hasPrefix("/") { return state + "/pipcam/cameras" }
        if let home = variable("HOME"), !home.isEmpty { return home + "/.local/state/pipcam/cameras" }
        return nil
    }

    /// Bytes read of a file at most: a real one is a few hundred.
    public static let largestFile = 64 * 1024

    /// The camera's file.
    public func path(for identity: CameraIdentity) -> String { directory + "/" + identity.key }

    /// What is remembered of the camera (nothing when it has no file), and a warning line when
    /// the file could not be read whole.
    public func load(_ identity: CameraIdentity) -> (camera: RememberedCamera, warning: String?) {
        let path = path(for: identity)
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            return (RememberedCamera(), code == ENOENT ? nil : warning(path, "cannot be read (\(Errno(code)))"))
        }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Self.largestFile + 1)
        var count = 0
        while count < bytes.count {
            let (n, code) = SystemCall.retryingInterrupts {
                bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            }
            if n == 0 { break }
            if n < 0 {
                return (RememberedCamera(), warning(path, "cannot be read (\(Errno(code)))"))
            }
            count += n
        }
        var text = String(decoding: bytes[0..<min(count, Self.largestFile)], as: UTF8.self)
        let tooLarge = count > Self.largestFile
        // The line cut off at the limit is not read as if it were whole.
        if tooLarge { text = text.lastIndex(of: "\n").map { String(text[...$0]) } ?? "" }
        let (camera, rejected) = RememberedCamera.parse(text)
        if tooLarge { return (camera, warning(path, "is larger than \(Self.largestFile / 1024) KiB: the rest is ignored")) }
        guard let first = rejected.first else { return (camera, nil) }
        let lines = rejected.count == 1 ? "line \(first) is" : "\(rejected.count) lines (from line \(first)) are"
        return (camera, warning(path, "\(lines) not understood and ignored"))
    }

    /// Writes `camera` as the camera's file (removing the file when nothing is remembered):
    /// through a temporary file renamed over it, so a reader sees the old file or the new one.
    /// The line saying why it could not, or nil.
    @discardableResult
    public func save(_ camera: RememberedCamera, for identity: CameraIdentity) -> String? {
        let path = path(for: identity)
        if camera.isEmpty {
            return unlink(path) == 0 || errno == ENOENT ? nil : warning(path, "cannot be removed (\(Errno.current))")
        }
        var built = ""
        for part in directory.split(separator: "/") {
            built += "/" + part
            mkdir(built, 0o700)
        }
        // Its own temporary file: two pipcams saving one camera at once must not mix their lines.
        let temporary = path + ".tmp.\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return warning(path, "cannot be written (\(Errno.current))") }
        let bytes = Array(camera.text.utf8)
        let written = write(fd, bytes, bytes.count)
        let code = errno
        close(fd)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            let why = written == bytes.count ? Errno.current : Errno(written < 0 ? code : ENOSPC)
            unlink(temporary)
            return warning(path, "cannot be written (\(why))")
        }
        return nil
    }

    /// Merges `writes` made on the camera (whose controls are `controls`) into its file: a
    /// control written back to its default is forgotten. The line saying why it could not, or nil.
    @discardableResult
    public func remember(_ writes: [ControlSetting], controls: [CameraControl], for identity: CameraIdentity) -> String? {
        merge(identity) { camera in
            for write in writes { camera.remember(write, of: controls.first { $0.id == write.id }) }
        }
    }

    /// Replaces the camera's remembered framing (nil: forgets it).
    @discardableResult
    public func remember(framing: RememberedFraming?, for identity: CameraIdentity) -> String? {
        merge(identity) { $0.framing = framing }
    }

    /// Forgets control `id` of the camera, or all its controls when nil (`--reset`).
    @discardableResult
    public func forgetControl(_ id: UInt32?, for identity: CameraIdentity) -> String? {
        merge(identity) { $0.forgetControl(id) }
    }

    /// Loads the camera's file, applies `change` and saves it; the line saying why it could not,
    /// or that a damaged file was kept: one with lines not understood, about to be written without
    /// them, is kept beside as `IDENTITY.damaged` first.
    private func merge(_ identity: CameraIdentity, _ change: (inout RememberedCamera) -> Void) -> String? {
        var (camera, problem) = load(identity)
        change(&camera)
        var kept = problem
        if let problem {
            let path = path(for: identity)
            if rename(path, path + Self.damagedSuffix) == 0 { kept = problem + "; the file as it was is kept as \(path + Self.damagedSuffix)" }
        }
        return save(camera, for: identity) ?? kept
    }

    /// Added to the name of a damaged file kept aside.
    static let damagedSuffix = ".damaged"

    private func warning(_ path: String, _ what: String) -> String { "pipcam: \(path) \(what)" }
}
