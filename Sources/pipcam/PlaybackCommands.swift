import ArgumentParser
import CameraSource
import PipControl

/// `pipcam play`: the running instance's file plays (again).
struct PlayCommand: ControlSubcommand {
    static let configuration = ControlVerb.play.configuration
    @Flag(help: "Pause when it plays, play when it is paused (what a play/pause key does).")
    var toggle = false
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { toggle ? ["--toggle"] : [] }
    var request: PipRequest { .playback(toggle ? .toggle : .play) }
}

/// `pipcam pause`: the running instance's file stops at the frame shown.
struct PauseCommand: ControlSubcommand {
    static let configuration = ControlVerb.pause.configuration
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { [] }
    var request: PipRequest { .playback(.pause) }
}

/// `pipcam seek ±S|S|M:SS|fN`: the running instance's file goes to another time or frame.
struct SeekCommand: ControlSubcommand {
    static let configuration = ControlVerb.seek.configuration
    // Unrecognized arguments: `-5` is a seek, not an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("+10, -5, 90, 1:30 or f120.", valueName: "where"))
    var positions: [String] = []
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { positions }
    private var position: String { positions.first ?? "" }

    func validate() throws {
        guard positions.count == 1 else { throw ValidationError("seek: give one place, e.g. +10, -5, 90, 1:30 or f120") }
        guard SeekTarget.parse(position) != nil else {
            throw ValidationError("seek: '\(position)' is not +S, -S, S, M:SS or fN (e.g. +10, 90, 1:30, f120)")
        }
    }

    // `validate` has checked it parses.
    var request: PipRequest { .playback(.seek(SeekTarget.parse(position) ?? .relative(0))) }
}
