/// The control subcommands: their names, help and operands, in the one table the command line,
/// its usage text, `pipcam help COMMAND` and the man page's COMMANDS (checked by a test) come from.
public enum ControlVerb: String, CaseIterable, Sendable {
    case toggle, start, stop, status
    case `switch`
    case quit, controls, set, play, pause, seek

    /// The subcommand's name.
    public var name: String { rawValue }

    /// What it does, in one sentence (its help's first line, and the man page's first sentence).
    public var abstract: String {
        switch self {
        case .toggle: return "Start Picture in Picture in the running pipcam, or stop it when it is up."
        case .start: return "Start Picture in Picture in the running pipcam."
        case .stop: return "Stop Picture in Picture in the running pipcam, restoring its main window."
        case .status: return "Print the running pipcam's state as one JSON object."
        case .switch: return "Make the running pipcam show another source, in the same window; returns once it does."
        case .quit: return "Make the running pipcam exit; returns once it has."
        case .controls: return "List the running pipcam's camera controls: name, type, range, step, default and value."
        case .set: return "Change the running pipcam's camera controls, e.g. 'pipcam set brightness=140 focus_automatic_continuous=off'."
        case .play: return "Play the file the running pipcam shows (after 'pipcam pause'); --toggle pauses a playing one."
        case .pause: return "Pause the file the running pipcam shows, at the frame shown (a camera cannot pause)."
        case .seek: return "Move the file the running pipcam shows: +S or -S seconds from the frame shown, S or M:SS from the start, fN to frame N."
        }
    }

    /// More than the abstract, for `pipcam help COMMAND`; empty when the abstract says it all.
    public var discussion: String {
        switch self {
        case .switch:
            return "The new source opens while the old one still shows, and replaces it between two frames. "
                + "If it cannot (a missing file, a camera in use or unplugged, no frame within 4 s), the old one "
                + "stays and pipcam says why (exit 1)."
        case .controls:
            return "Menus list their items by name. A camera read through PipeWire is listed when it is a V4L2 "
                + "device. Controls the user changed are remembered for the camera (docs/USAGE.md)."
        case .set:
            return "Values are numbers (or default, min, max), on/off for switches, and item names for menus. "
                + "Setting a value an automatic mode governs (exposure_time_absolute, white_balance_temperature, "
                + "focus_absolute, gain) turns that mode off, and says so. The camera keeps the change for every "
                + "program that reads it, and pipcam remembers it for this camera and sets it again whenever it "
                + "opens it. --reset puts the named control, or every control, back to its default."
        case .seek:
            return "Paused, the frame sought is shown and playback stays paused. Returns once the frame sought is shown. "
                + "A pipe or standard input cannot seek."
        default: return ""
        }
    }

    /// What it takes besides `--name NAME`, as the usage text writes it ("" for nothing).
    public var operands: String {
        switch self {
        case .switch: return "<source>|next"
        case .set: return "<name>=<value>... | --reset [<name>]"
        case .play: return "[--toggle]"
        case .seek: return "<where>"
        default: return ""
        }
    }

    /// The usage lines of every subcommand: those without operands on one line, then one line each.
    public static var usageLines: [String] {
        let plain = allCases.filter { $0.operands.isEmpty }.map(\.name).joined(separator: "|")
        return ["pipcam \(plain) [--name <name>]"]
            + allCases.filter { !$0.operands.isEmpty }.map { "pipcam \($0.name) \($0.operands) [--name <name>]" }
    }

    /// How long a client waits for the instance's answer, in milliseconds: opening a camera takes
    /// up to a few seconds (the instance gives a new source 4 s for its first frame), a seek is
    /// answered once its frame shows (or after 1.5 s), `quit` once the instance has exited (it
    /// releases its camera first). A PiP command is answered once its first step is made (windows
    /// mapped and a frame drawn), which a loaded or emulated machine may take most of a second
    /// for; a wrong "not yet confirmed" costs more than a longer wait on a stopped instance.
    public var patienceMilliseconds: Int {
        switch self {
        case .switch: return 10_000
        case .seek: return 4000
        case .quit, .toggle, .start, .stop: return 3000
        default: return 1000
        }
    }
}

extension PipRequest {
    /// The subcommand that asks this.
    public var verb: ControlVerb {
        switch self {
        case .pip(.toggle): return .toggle
        case .pip(.start): return .start
        case .pip(.stop): return .stop
        case .status: return .status
        case .switchSource: return .switch
        case .quit: return .quit
        case .camera(.list): return .controls
        case .camera(.set), .camera(.reset): return .set
        case .playback(.play), .playback(.toggle): return .play
        case .playback(.pause): return .pause
        case .playback(.seek): return .seek
        }
    }
}
