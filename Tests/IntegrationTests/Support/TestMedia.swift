import Foundation
import Synchronization
import TestSupport

/// Small test clips made with ffmpeg's `testsrc2` (moving pattern with a frame counter),
/// generated once per test process into the scratch directory and shared by all tests.
enum TestMedia {
    /// A clip description; each distinct value is generated once.
    struct Clip: Hashable, Sendable, CustomStringConvertible {
        enum Container: String, Sendable { case raw, y4m, mjpeg }
        var container: Container
        /// ffmpeg pixel format: yuyv422, yuv420p, nv12, bgra, rgb24, yuv422p, yuv444p, yuvj422p…
        var pixelFormat: String
        var width: Int
        var height: Int
        var frames: Int
        var rate: Int

        var description: String { "\(container.rawValue)-\(pixelFormat)-\(width)x\(height)-\(frames)f@\(rate)" }
    }

    /// Raw frames, e.g. `raw(.yuyv)` → pipcam `--source raw:PATH:1280x720:yuyv@30` (see `sourceSpec`).
    static func raw(
        _ format: RawFormat, width: Int = 1280, height: Int = 720, frames: Int = 30, rate: Int = 30
    ) throws -> String {
        try path(Clip(container: .raw, pixelFormat: format.ffmpegName, width: width, height: height, frames: frames, rate: rate))
    }

    /// A YUV4MPEG2 file with chroma `subsampling` 420, 422 or 444.
    static func y4m(
        subsampling: Int = 420, width: Int = 640, height: Int = 360, frames: Int = 30, rate: Int = 30
    ) throws -> String {
        precondition([420, 422, 444].contains(subsampling), "y4m subsampling is 420, 422 or 444")
        return try path(Clip(container: .y4m, pixelFormat: "yuv\(subsampling)p", width: width, height: height, frames: frames, rate: rate))
    }

    /// A concatenated JPEG stream, as a camera sends it (4:2:2 like most webcams).
    static func mjpeg(width: Int = 1280, height: Int = 720, frames: Int = 30, rate: Int = 30) throws -> String {
        try path(Clip(container: .mjpeg, pixelFormat: "yuvj422p", width: width, height: height, frames: frames, rate: rate))
    }

    /// The raw formats of pipcam's `raw:` source, with ffmpeg's names.
    enum RawFormat: String, Sendable, CaseIterable {
        case yuyv, i420, nv12, bgra, rgb24
        var ffmpegName: String {
            switch self {
            case .yuyv: "yuyv422"
            case .i420: "yuv420p"
            case .nv12: "nv12"
            case .bgra: "bgra"
            case .rgb24: "rgb24"
            }
        }
    }

    /// The `--source` argument for a raw clip, e.g. `raw:/tmp/…/clip.raw:1280x720:yuyv@30`.
    static func rawSourceSpec(_ format: RawFormat, width: Int = 1280, height: Int = 720, frames: Int = 30, rate: Int = 30) throws -> String {
        "raw:\(try raw(format, width: width, height: height, frames: frames, rate: rate)):\(width)x\(height):\(format.rawValue)@\(rate)"
    }

    /// The path of `clip`, generating it on first use.
    static func path(_ clip: Clip) throws -> String {
        try cache.withLock { paths in
            if let path = paths[clip] { return path }
            let path = try generate(clip)
            paths[clip] = path
            return path
        }
    }

    private static let cache = Mutex<[Clip: String]>([:])
    private static let directory: String = {
        let path = Scratch.directory + "/media"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    private static func generate(_ clip: Clip) throws -> String {
        let (muxer, suffix, codec): (String, String, [String]) =
            switch clip.container {
            case .raw: ("rawvideo", "raw", [])
            case .y4m: ("yuv4mpegpipe", "y4m", [])
            case .mjpeg: ("mjpeg", "mjpeg", ["-c:v", "mjpeg", "-q:v", "5"])
            }
        let path = "\(directory)/\(clip).\(suffix)"
        try runChecked(
            ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
             "-i", "testsrc2=size=\(clip.width)x\(clip.height):rate=\(clip.rate)",
             "-frames:v", "\(clip.frames)", "-pix_fmt", clip.pixelFormat] + codec + ["-f", muxer, path],
            timeout: .seconds(60))
        return path
    }
}
