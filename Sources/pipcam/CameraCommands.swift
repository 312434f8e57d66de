import ArgumentParser
import PipWindow

/// `pipcam controls`: the running instance's camera controls, listed.
struct ControlsCommand: ControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "controls",
        abstract: "List the running pipcam's camera controls: name, type, range, step, default and value.",
        discussion: """
            Menus list their items by name. A camera read through PipeWire is listed when it is a V4L2 \
            device. Controls the user changed are remembered for the camera (docs/USAGE.md).
            """)
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { [] }
    func ask(_ client: ControlClient) -> ControlClient.Outcome { client.camera(.list) }
}

/// `pipcam set NAME=VALUE…` and `pipcam set --reset [NAME]`: change the running instance's camera controls.
struct SetCommand: ControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Change the running pipcam's camera controls, e.g. 'pipcam set brightness=140 focus_automatic_continuous=off'.",
        discussion: """
            Values are numbers (or default, min, max), on/off for switches, and item names for menus. \
            Setting a value an automatic mode governs (exposure_time_absolute, white_balance_temperature, \
            focus_absolute, gain) turns that mode off, and says so. The camera keeps the change for every \
            program that reads it, and pipcam remembers it for this camera and sets it again whenever it \
            opens it. --reset puts the named control, or every control, back to its default.
            """)
    @Flag(help: "Put the named control (or every control) back to its default and forget it.")
    var reset = false
    @Argument(help: ArgumentHelp("NAME=VALUE to set; with --reset, the control's NAME (none: all).", valueName: "setting"))
    var settings: [String] = []
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { settings + (reset ? ["--reset"] : []) }

    func validate() throws {
        if reset {
            if settings.count > 1 { throw ValidationError("set --reset: name one control, or none for all") }
            if let name = settings.first, name.contains("=") { throw ValidationError("set --reset: '\(name)' is a setting; give the control's name") }
            return
        }
        guard !settings.isEmpty else { throw ValidationError("set: give NAME=VALUE (see 'pipcam controls'), or --reset") }
        if let bad = settings.first(where: { !$0.contains("=") || $0.hasPrefix("=") || $0.contains("\n") }) {
            throw ValidationError("set: '\(bad)' is not NAME=VALUE")
        }
    }

    func ask(_ client: ControlClient) -> ControlClient.Outcome {
        client.camera(reset ? .reset(settings.first) : .set(settings))
    }
}
