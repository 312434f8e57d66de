#if canImport(Glibc)
import Glibc
#endif

/// Writes one line to standard error in a single `write` (so lines from threads never interleave).
public func writeErrorLine(_ line: String) {
    var bytes = Array(line.utf8)
    bytes.append(10)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
