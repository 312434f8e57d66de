import ArgumentParser
import CameraSource
import PipWindow

/// `pipcam [OPTIONS]`: the options of PRODUCT.md, parsed and checked; running is `Launcher`'s job.
struct PipcamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipcam",
        abstract: "Show a camera in a floating Picture-in-Picture window.",
        discussion: """
            With no --source, pipcam shows the first capture camera, or the built-in test pattern \
            when there is none. File sources play once and pipcam exits at their end. \
            One pipcam runs per display (more with --name); the subcommands control it.
            """,
        subcommands: [ToggleCommand.self, StartCommand.self, StopCommand.self, StatusCommand.self, QuitCommand.self])

    @Flag(help: "Start in Picture in Picture.")
    var pip = false

    @Option(help: ArgumentHelp(
        "Where frames come from: /dev/videoN, test, y4m:PATH, raw:PATH:WxH:FMT[@FPS] (FMT yuyv|i420|nv12|bgra|rgb24) or mjpeg:PATH[@FPS]; PATH '-' is standard input.",
        valueName: "spec"))
    var source: String?

    @Option(help: ArgumentHelp("The PiP window size, e.g. 480x270.", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("Initial PiP corner: top-left, top-right, bottom-left or bottom-right.", valueName: "corner"))
    var corner: String = "bottom-right"

    @Flag(inversion: .prefixedNo, help: "Flip the picture horizontally (default: on for cameras, off for files).")
    var mirror: Bool?

    @Option(help: ArgumentHelp("Rotate the picture clockwise by 0, 90, 180 or 270 degrees.", valueName: "degrees"))
    var rotate: Int = 0

    @Flag(help: "Show frames as fast as they come instead of at the stream's rate.")
    var untimed = false

    @Option(help: ArgumentHelp("Exit after this many frames were shown.", valueName: "N"))
    var frames: Int?

    @Flag(help: "Print a stats line on standard error every second and at exit.")
    var stats = false

    @Option(help: ArgumentHelp("A global key that toggles Picture in Picture, e.g. super+shift+p or ctrl+alt+F9.", valueName: "spec"))
    var hotkey: String?

    @Option(help: ArgumentHelp(
        "Run as the instance NAME, besides the unnamed one; control it with 'pipcam toggle --name NAME'.", valueName: "name"))
    var name: String?

    @Flag(help: "List capture devices with their formats, sizes and frame rates.")
    var listCameras = false

    func validate() throws {
        if let size, Self.parseSize(size) == nil {
            throw ValidationError("--size: bad size '\(size)': expected WxH, e.g. 480x270")
        }
        if Corner(rawValue: corner) == nil {
            throw ValidationError("--corner: unknown corner '\(corner)' (expected top-left, top-right, bottom-left or bottom-right)")
        }
        if Rotation(degrees: rotate) == nil {
            throw ValidationError("--rotate: \(rotate) is not 0, 90, 180 or 270")
        }
        if let hotkey {
            do {
                _ = try HotkeySpec.parse(hotkey)
            } catch {
                throw ValidationError(error.description)
            }
        }
        if let name, let problem = InstanceName.problem(with: name) { throw ValidationError(problem) }
        if let frames, frames < 1 {
            throw ValidationError("--frames: \(frames) is not a positive number of frames")
        }
    }

    /// "WxH" with both sides in 16…16384.
    static func parseSize(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
            (16...16384).contains(w), (16...16384).contains(h)
        else { return nil }
        return (w, h)
    }

    var sessionOptions: SessionOptions {
        var o = SessionOptions()
        o.size = size.flatMap(Self.parseSize)
        o.corner = Corner(rawValue: corner) ?? .bottomRight
        o.mirror = mirror
        o.rotation = Rotation(degrees: rotate) ?? Rotation(degrees: 0)!
        o.frameLimit = frames
        o.printStats = stats
        o.startInPip = pip
        o.hotkey = hotkey.flatMap { try? HotkeySpec.parse($0) }
        return o
    }
}
