import ArgumentParser
import PipControl

/// `pipcam controls`: the running instance's camera controls, listed.
struct ControlsCommand: ControlSubcommand {
    static let configuration = ControlVerb.controls.configuration
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { [] }
    var request: PipRequest { .camera(.list) }
}

/// `pipcam set NAME=VALUE…` and `pipcam set --reset [NAME]`: change the running instance's camera controls.
struct SetCommand: ControlSubcommand {
    static let configuration = ControlVerb.set.configuration
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
        if let bad = settings.first(where: { !ControlSettingText.isWellFormed($0) }) {
            throw ValidationError("set: '\(bad)' is not NAME=VALUE")
        }
    }

    var request: PipRequest { .camera(reset ? .reset(settings.first) : .set(settings)) }
}
