#if canImport(Glibc)
import Glibc
#endif

/// Device paths with their links followed: `/dev/v4l/by-id/…` and `/dev/video0` name one camera.
public enum DevicePath {
    /// The path with every symbolic link followed; nil when it does not exist.
    public static func real(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}
