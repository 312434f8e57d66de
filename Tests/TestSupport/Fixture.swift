import CTurboJPEG
import Foundation
import Glibc

/// Files, pipes and JPEGs for the source and decoder tests.
public enum Fixture {
    /// A fresh file with `bytes` in its own directory under `scratch`; returns its path.
    public static func file(_ bytes: [UInt8], name: String = "clip") -> String {
        let path = try! Scratch.makeDirectory("fixture") + "/" + name
        try! Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `jpeg` rewritten by jpegtran with a restart marker every `interval` ("3B": 3 MCUs).
    public static func withRestarts(_ jpeg: [UInt8], every interval: String) throws -> [UInt8] {
        try JPEGTran.withRestarts(jpeg, every: interval)
    }

    /// One frame of ffmpeg's testsrc2 as a JPEG written by ffmpeg's encoder, which lays 4:2:2 out
    /// as 2×2 luma and 1×2 chroma blocks per MCU (libjpeg-turbo: 2×1 and 1×1), as many cameras do.
    /// `extra`: more encoder options (slice threads, for instance, make it write restart intervals).
    public static func ffmpegJPEG(width: Int, height: Int, pixelFormat: String = "yuvj422p", quality: Int = 6, extra: [String] = []) throws -> [UInt8] {
        let path = file([], name: "ffmpeg.jpg")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height)", "-frames:v", "1",
            "-pix_fmt", pixelFormat, "-q:v", "\(quality)",
        ] + extra + [path,
        ]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        guard ffmpeg.terminationStatus == 0 else { throw FixtureError("ffmpeg failed (\(ffmpeg.terminationStatus))") }
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    public struct FixtureError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// A pipe whose read end is returned; `bytes` are written from a background thread, then the write end closes.
    public static func pipe(_ bytes: [UInt8], chunk: Int = 4096) -> Int32 {
        var fds: [Int32] = [0, 0]
        precondition(Glibc.pipe(&fds) == 0)
        let writeEnd = fds[1]
        if bytes.count <= 32768 {  // fits the pipe buffer: no writer thread needed
            if !bytes.isEmpty { precondition(write(writeEnd, bytes, bytes.count) == bytes.count) }
            close(writeEnd)
            return fds[0]
        }
        let thread = Thread {
            var sent = 0
            bytes.withUnsafeBytes { raw in
                while sent < raw.count {
                    let n = write(writeEnd, raw.baseAddress! + sent, min(chunk, raw.count - sent))
                    if n <= 0 { break }
                    sent += n
                }
            }
            close(writeEnd)
        }
        thread.start()
        return fds[0]
    }

    /// Deterministic pseudo-random bytes.
    public static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var rng = SplitMix(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    }

    /// A baseline (or progressive) JPEG of noise, which is full of FF 00 stuffing.
    public static func jpeg(width: Int, height: Int, seed: UInt64, quality: Int32 = 90, progressive: Bool = false) -> [UInt8] {
        jpeg(
            rgb: bytes(width * height * 3, seed: seed), width: width, height: height, quality: quality,
            flags: progressive ? Int32(TJFLAG_PROGRESSIVE) : 0)
    }

    /// `rgb` (width × height × 3 bytes) encoded by libjpeg-turbo with its standard Huffman tables.
    public static func jpeg(
        rgb: [UInt8], width: Int, height: Int, subsampling: TJSAMP = TJSAMP_420, quality: Int32 = 90, flags: Int32 = 0
    ) -> [UInt8] {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = tjCompress2(
            handle, rgb, Int32(width), 0, Int32(height), Int32(TJPF_RGB.rawValue), &out, &size,
            Int32(subsampling.rawValue), quality, flags)
        precondition(status == 0 && out != nil)
        defer { tjFree(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(size)))
    }

    /// `jpeg` with `changes` random bytes of its coded data overwritten and, when `truncate`, a random
    /// part of up to half its coded data cut off the end.
    public static func damaged(_ jpeg: [UInt8], changes: Int, truncate: Bool, rng: inout SplitMix) -> [UInt8] {
        let start = entropyStart(jpeg)
        var damaged = jpeg
        for _ in 0..<changes {
            damaged[start + Int(rng.next() % UInt64(jpeg.count - start - 2))] = UInt8(truncatingIfNeeded: rng.next())
        }
        if truncate { damaged.removeLast(Int(rng.next() % UInt64((jpeg.count - start) / 2))) }
        return damaged
    }

    /// Offset just past the first SOS segment (where entropy-coded data starts).
    public static func entropyStart(_ jpeg: [UInt8]) -> Int {
        var i = 2
        while i + 4 <= jpeg.count {
            precondition(jpeg[i] == 0xFF)
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if jpeg[i + 1] == 0xDA { return i + 2 + length }
            i += 2 + length
        }
        fatalError("no SOS")
    }
}
