#if canImport(Glibc)
import Glibc
#endif

/// Writes one line to standard error in a single `write` (so lines from threads never interleave).
public func writeErrorLine(_ line: String) {
    // One line whatever it quotes: a path or window name with a newline in it stays on it.
    var bytes = line.utf8.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }
    bytes.append(10)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
