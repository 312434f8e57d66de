import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Per-test-process scratch directory for captured output and generated files, removed at exit.
public enum Scratch {
    public static let directory: String = {
        let parent = NSTemporaryDirectory()
        removeAbandonedDirectories(in: parent)
        let path = parent + "pipcam-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.directory) }
        return path
    }()

    /// Removes the scratch directories of test processes that were killed (no atexit ran).
    private static func removeAbandonedDirectories(in parent: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
        for name in names where name.hasPrefix("pipcam-tests-") {
            guard let pid = pid_t(name.dropFirst("pipcam-tests-".count)), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: parent + name)
            }
        }
    }

    /// A new empty directory under the scratch directory.
    public static func makeDirectory(_ prefix: String) throws -> String {
        let path = "\(directory)/\(prefix)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
