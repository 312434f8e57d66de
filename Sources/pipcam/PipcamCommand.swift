import ArgumentParser
import CameraSource
import PipCore
import PipControl
import PipWayland
import PipWindow
import PipcamApp
import PipConvert

/// `pipcam [OPTIONS]`: the options of docs/BEHAVIOUR.md, parsed and checked; running is `Launcher`'s job.
struct PipcamCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipcam",
        abstract: "Show a camera in a floating Picture-in-Picture window.",
        usage: (["pipcam [<options>]"] + ControlVerb.usageLines).joined(separator: "\n  "),
        discussion: """
            With no --source, pipcam shows the first capture camera, or the built-in test pattern \
            when there is none. File sources play once and pipcam exits at their end. \
            One pipcam runs per display (more with --name); the subcommands control it \
            ('pipcam help toggle').
            """,
        version: pipcamVersion,
        subcommands: [
            ToggleCommand.self, StartCommand.self, StopCommand.self, StatusCommand.self, SwitchCommand.self, QuitCommand.self,
            ControlsCommand.self, SetCommand.self, PlayCommand.self, PauseCommand.self, SeekCommand.self,
        ])

    // Flags a config file may set have a --no- form, so that the command line can still win.
    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Start in Picture in Picture.")
    var pip = false

    @Option(help: ArgumentHelp(
        "Where frames come from: /dev/videoN, pipewire[:NAME] (a camera through PipeWire), test, y4m:PATH, raw:PATH:WxH:FMT[@FPS] (FMT yuyv|i420|nv12|bgra|rgb24) or mjpeg:PATH[@FPS]; PATH '-' is standard input; auto for the first camera (over a config file's source).",
        valueName: "spec"), completion: .shellCommand(CompletionValues.sources))
    var source: SourceValue?

    // Unconditional: `--size -480x270` is a (refused) value, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The PiP window size, e.g. 480x270 (default: as left last time, else a quarter of the work area's width); auto for the default (over a config file's size).", valueName: "WxH"))
    var size: PipSizeValue?

    @Option(help: ArgumentHelp(
        "Initial PiP corner: top-left, top-right, bottom-left or bottom-right (default: where it was last time, else bottom-right; a given --size or --corner sets that memory aside); auto for the default (over a config file's corner).",
        valueName: "corner"), completion: .list(["top-left", "top-right", "bottom-left", "bottom-right", "auto"]))
    var corner: CornerValue?

    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Flip the picture horizontally (default: on for cameras, off for files).")
    var mirror: Bool?

    // Unconditional: `--rotate -90` is a (refused) value, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp("Rotate the picture clockwise by 0, 90, 180 or 270 degrees.", valueName: "degrees"),
        completion: .list(["0", "90", "180", "270"]))
    var rotate: Int = 0

    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Show frames as fast as they come instead of at the stream's rate.")
    var untimed = false

    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Play a file again from its start at its end, instead of exiting.")
    var loop = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Exit after this many frames were shown.", valueName: "N"))
    var frames: Int?

    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Print a stats line on standard error every second and at exit.")
    var stats = false

    @Option(name: .customLong("auto-pip"), help: ArgumentHelp(
        "When PiP starts by itself: hidden (the main window minimized, on another desktop or workspace, in a scratchpad), minimize (only minimized) or never (default: hidden).",
        valueName: "when"), completion: .list(["hidden", "minimize", "never"]))
    var autoPip: ChoiceValue<AutoPipOption>?

    @Option(help: ArgumentHelp(
        "A global key that toggles Picture in Picture, e.g. super+shift+p or ctrl+alt+p; none for no key (over a config file's).",
        valueName: "spec"))
    var hotkey: KeyValue<HotkeyFlag>?

    @Option(name: .customLong("switch-key"), help: ArgumentHelp(
        "A global key that switches to the next camera ('pipcam switch next'), e.g. super+shift+n; none for no key (over a config file's).",
        valueName: "spec"))
    var switchKey: KeyValue<SwitchKeyFlag>?

    @Option(name: .customLong("idle-release"), parsing: .unconditional, help: ArgumentHelp(
        "Let the camera go (its light off) after this many seconds with no window showing video, until one does again; 0: never (default 10; never while --share feeds a virtual camera).",
        valueName: "seconds"))
    var idleRelease: Double?

    @Option(help: ArgumentHelp(
        "Run as the instance NAME, besides the unnamed one; control it with 'pipcam toggle --name NAME'; none for the unnamed one (over a config file's name).", valueName: "name"))
    var name: NameValue?

    /// The instance this pipcam runs as: nil for the unnamed one (`--name none` or no `--name`).
    var instanceName: String? { name?.name }

    @Option(help: ArgumentHelp("The PiP window's outline: rect, rounded or circle.", valueName: "shape"),
        completion: .list(["rect", "rounded", "circle"]))
    var shape: ChoiceValue<ShapeOption>?

    @Option(parsing: .unconditional, help: ArgumentHelp("The PiP window's opacity, 0.1 to 1.0 (needs a compositing window manager).", valueName: "alpha"))
    var opacity: Double?

    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Let clicks pass through the PiP window (the hotkey and 'pipcam toggle' still work).")
    var clickThrough = false

    @Option(help: ArgumentHelp(
        "Share the camera with call apps through a virtual camera: this v4l2loopback device, or pipewire[:NAME] for a PipeWire camera node (alone: the first v4l2loopback device no other program writes, else PipeWire); none for no sharing (over a config file's).",
        valueName: "device"), completion: .shellCommand(CompletionValues.shareDevices))
    var share: ShareValue?

    @Option(help: ArgumentHelp(
        "The camera mode for sharing, e.g. 1280x720 (the default; the camera's nearest mode at 25 fps or more).", valueName: "WxH"))
    var shareSize: ShareSizeValue?

    @Flag(inversion: .prefixedNo, exclusivity: .chooseLast, help: "Share the whole picture even when the window shows it zoomed in.")
    var shareFullFrame = false

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Start zoomed in this many times (1 to 8; digital zoom, instead of the camera's remembered framing, and remembered for it).", valueName: "zoom"))
    var zoom: ZoomValue?

    // Unconditional: `--pan -0.1,0.5` is a (refused) value, not a missing one.
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The middle of the part shown when zoomed, as fractions of the picture's width and height (default 0.5,0.5).",
        valueName: "X,Y"))
    var pan: PanValue?

    @Flag(help: "List capture devices with their formats, sizes and frame rates.")
    var listCameras = false

    @Option(name: [.customShort("w"), .customLong("wid")], parsing: .unconditional, help: ArgumentHelp(
        "Embed the camera view into window XID (decimal or 0x hex); $XEMBED works too.", valueName: "XID"))
    var wid: WindowIDValue<WidFlag>?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Use another application's window as the PiP source and restore target: minimizing it starts PiP.",
        valueName: "XID"))
    var followWindow: WindowIDValue<FollowWindowFlag>?

    @Option(name: .customLong("window-system"), help: ArgumentHelp(
        "The window system PiP uses: wayland (an overlay-layer surface, PiP alone), x11 (also through XWayland) or auto (default: wayland when the compositor offers an overlay layer, else x11).",
        valueName: "system"), completion: .list(["auto", "x11", "wayland"]))
    var windowSystemChoice: ChoiceValue<WindowSystemOption>?

    /// The window system asked for (`auto` when not given).
    var windowSystem: WindowSystemPreference { windowSystemChoice?.choice ?? .auto }

    func validate() throws {
        let checked: [(any CheckedValue)?] = [
            source, name, size, corner, autoPip, hotkey, switchKey, wid, followWindow, shape, share, shareSize, zoom, pan, windowSystemChoice,
        ]
        if let problem = checked.lazy.compactMap({ $0?.problem }).first { throw ValidationError(problem) }
        if ![0, 90, 180, 270].contains(rotate) {
            throw ValidationError("--rotate: \(rotate) is not 0, 90, 180 or 270")
        }
        if let toggle = hotkey?.key, let next = switchKey?.key, toggle.keysym == next.keysym && toggle.modifiers == next.modifiers {
            throw ValidationError("--switch-key: \(next) is the --hotkey already; give each its own key")
        }
        if wid != nil && followWindow != nil {
            throw ValidationError("--wid and --follow-window cannot be used together")
        }
        if let opacity, !(0.1...1).contains(opacity) {
            throw ValidationError("--opacity: \(opacity) is not between 0.1 and 1.0")
        }
        if let idleRelease, !(0...86_400).contains(idleRelease) {
            throw ValidationError("--idle-release: \(idleRelease) is not a number of seconds from 0 to 86400")
        }
        if let frames, frames < 1 {
            throw ValidationError("--frames: \(frames) is not a positive number of frames")
        }
    }

    /// The options a config file may set (long names), and how each takes its value.
    static let configurable = ConfigFile.pipcamOptions

    /// How each option and flag is read, for dropping the occurrences a later one overrides
    /// (`RepeatedOptions`).
    static let repeatable = PipcamOptions.repeatable

    /// A parse error as the first part of one line: ArgumentParser's sentences ("Unknown option
    /// '--x'") start lower-case there, as pipcam's own messages do.
    static func oneLine(for error: Error, otherwise: String) -> String {
        guard let line = message(for: error).split(separator: "\n").first.map(String.init) else { return otherwise }
        let head = line.prefix(2)
        guard head.count == 2, head.first!.isUppercase, head.last!.isLowercase else { return line }
        return line.prefix(1).lowercased() + line.dropFirst()
    }

    /// What `--share` asks for: nil for no sharing.
    var shareRequest: ShareRequest? { share?.request ?? nil }

    /// The camera mode asked for while sharing.
    var shareSizeRequested: (width: Int, height: Int) { shareSize?.size ?? ShareSizeValue.standard }

    var sessionOptions: SessionOptions {
        var o = SessionOptions()
        o.size = size?.size.map { ($0.width, $0.height) }
        o.corner = corner?.corner ?? .bottomRight
        // `auto` for both (or neither given): the place PiP was left at is taken again.
        o.remembersGeometry = size?.size == nil && corner?.corner == nil
        o.mirror = mirror
        o.rotation = Rotation(degrees: rotate) ?? Rotation(degrees: 0)!
        if zoom != nil || pan != nil {
            o.framing = Framing(zoom: zoom?.zoom ?? 1, centreX: pan?.centre.x ?? 0.5, centreY: pan?.centre.y ?? 0.5)
        }
        o.shareFullFrame = shareFullFrame
        o.frameLimit = frames
        o.printStats = stats
        o.startInPip = pip
        o.automaticPip = autoPip?.choice ?? .hidden
        o.hotkey = hotkey?.key
        o.switchKey = switchKey?.key
        o.idleReleaseSeconds = idleRelease ?? 10
        o.followWindow = followWindow?.id
        o.style = PipWindowStyle(shape: shape?.choice ?? .rect, opacity: opacity ?? 1, clickThrough: clickThrough)
        return o
    }
}
