#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing
@testable import CameraSource
import PipCore

/// A regular file's frames point into the file's mapping instead of being copied out of it
/// (docs/PERFORMANCE.md, "Files without a copy"): given back, their pages stop counting towards
/// pipcam's memory, and a file cut short while mapped ends the stream instead of killing pipcam.
@Suite(.serialized) struct MappedFileTests {
    static let (w, h) = (256, 256)
    static let frameBytes = w * h * 2

    /// The resident bytes of this process's mapping of `path`, from /proc/self/smaps.
    func residentBytes(of path: String) -> Int {
        // Read with stdio: /proc files say they are empty, so whole-file readers get nothing.
        guard let file = fopen("/proc/self/smaps", "r") else { return -1 }
        defer { fclose(file) }
        var lines: [String] = []
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            lines.append(String(decoding: buffer.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        var inMapping = false, total = 0
        for line in lines {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                inMapping = line.hasSuffix(path)
            } else if inMapping, line.hasPrefix("Rss:") {
                total += 1024 * (Int(line.split(separator: " ")[1]) ?? 0)
            }
        }
        return total
    }

    @Test func framesGivenBackStopCountingTowardsMemory() throws {
        let frames = (0..<80).map { Fixture.bytes(Self.frameBytes, seed: UInt64($0)) }
        let path = Fixture.file(frames.flatMap { $0 }, name: "mapped.yuyv")
        let source = RawSource(path: path, width: Self.w, height: Self.h, format: .yuyv, request: unpaced)
        try source.start()
        var peak = 0
        var read: [[UInt8]] = []
        while case .frame(let frame) = try source.nextFrame(now: .now()) {
            read.append(payload(frame))
            peak = max(peak, residentBytes(of: path))
            source.recycle(bufferIndex: frame.bufferIndex)
        }
        let same = read == frames
        #expect(same, "frames read from the mapping differ from the file's")
        // Kept, the whole file would be resident (10 MB); given back, about one frame is, plus what
        // the kernel maps around a fault (up to a 2 MB folio of the page cache).
        #expect(peak > 0 && peak <= 2 << 20 + 2 * Self.frameBytes, "\(peak) bytes of the file resident at most")
    }

    @Test func aFileCutShortWhileMappedEndsWithoutACrash() throws {
        let frames = (0..<8).map { Fixture.bytes(Self.frameBytes, seed: UInt64($0) + 50) }
        let path = Fixture.file(frames.flatMap { $0 }, name: "cut.yuyv")
        let source = RawSource(path: path, width: Self.w, height: Self.h, format: .yuyv, request: unpaced)
        try source.start()
        guard case .frame(let first) = try source.nextFrame(now: .now()),
            case .frame(let second) = try source.nextFrame(now: .now())
        else { Issue.record("no frames"); return }
        // Cut inside the first frame's second half: the second frame is gone from the file.
        #expect(truncate(path, off_t(Self.frameBytes / 2)) == 0)
        let secondNow = payload(second)
        let firstNow = payload(first)
        #expect(secondNow.allSatisfy { $0 == 0 }, "the part cut off reads as zeros")
        let firstKept = Array(firstNow[..<(Self.frameBytes / 2)]) == Array(frames[0][..<(Self.frameBytes / 2)])
        #expect(firstKept, "what is left of the file reads as before")
        source.recycle(bufferIndex: first.bufferIndex)
        source.recycle(bufferIndex: second.bufferIndex)
        // The file now ends before the third frame.
        #expect(try source.nextFrame(now: .now()).isEnd)
    }

    /// Standard input, or a descriptor not at the file's start, is read as before.
    @Test func aDescriptorPastTheStartIsReadNotMapped() throws {
        let frames = (0..<3).map { Fixture.bytes(Self.frameBytes, seed: UInt64($0) + 90) }
        let path = Fixture.file([7, 7, 7, 7] + frames.flatMap { $0 }, name: "offset.yuyv")
        let fd = open(path, O_RDONLY)
        #expect(lseek(fd, 4, SEEK_SET) == 4)
        let source = RawSource(fileDescriptor: fd, name: "offset", width: Self.w, height: Self.h, format: .yuyv, request: unpaced)
        try source.start()
        let read = try drain(source).map(\.bytes)
        #expect(read == frames)
        #expect(residentBytes(of: path) == 0)
    }
}
