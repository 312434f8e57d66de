import Foundation
import TestSupport

/// What another process sees of a video device, through `v4l2-ctl`, and who holds it open.
enum V4L2Queries {
    /// The device's format as G_FMT gives it, e.g. (640x360, YUYV); empty strings where
    /// v4l2-ctl says nothing (a loopback device without a writer).
    static func format(of device: String) -> (size: String, fourcc: String) {
        let text = (try? run(["v4l2-ctl", "-d", device, "--get-fmt-video"]))?.stdoutText ?? ""
        var size = "", fourcc = ""
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2 else { continue }
            if fields[0] == "Width/Height" {
                size = fields[1].replacingOccurrences(of: "/", with: "x")
            } else if fields[0] == "Pixel Format" {
                fourcc = fields[1].split(separator: "'").first.map(String.init) ?? ""
            }
        }
        return (size, fourcc)
    }

    /// The format's size, e.g. "640x360" ("" when unknown).
    static func size(of device: String) -> String { format(of: device).size }

    /// "WxH FOURCC" of the device, e.g. "640x360 YUYV"; " " while a loopback has no writer.
    static func sizeAndFourCC(of device: String) -> String {
        let format = format(of: device)
        return "\(format.size) \(format.fourcc)"
    }

    /// The device's capabilities by name ("Video Capture", "Video Output"), comma-separated.
    static func capabilities(of device: String) -> String {
        let text = (try? run(["v4l2-ctl", "-d", device, "--info"]))?.stdoutText ?? ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.contains("Device Caps") }) else { return "" }
        return lines[start...].filter { $0.hasPrefix("\t\t") }.map { $0.dropFirst(2) }.joined(separator: ",")
    }

    /// What process `pid` has open: the targets of its descriptors.
    static func openFiles(of pid: pid_t) -> [String] {
        let directory = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)") }
    }

    /// Whether process `pid` has `device` open.
    static func holds(_ pid: pid_t, _ device: String) -> Bool { openFiles(of: pid).contains(device) }
}
