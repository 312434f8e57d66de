import ArgumentParser
import CameraSource
import PipWindow

/// `pipcam play`: the running instance's file plays (again).
struct PlayCommand: ControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "play", abstract: "Play the file the running pipcam shows (after 'pipcam pause'); --toggle pauses a playing one.")
    @Flag(help: "Pause when it plays, play when it is paused (what a play/pause key does).")
    var toggle = false
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { toggle ? ["--toggle"] : [] }
    func ask(_ client: ControlClient) -> ControlClient.Outcome { client.playback(toggle ? .toggle : .play) }
}

/// `pipcam pause`: the running instance's file stops at the frame shown.
struct PauseCommand: ControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "pause", abstract: "Pause the file the running pipcam shows, at the frame shown (a camera cannot pause).")
    @OptionGroup var target: ControlTarget
    @ParentCommand var root: PipcamCommand

    var operands: [String] { [] }
    func ask(_ client: ControlClient) -> ControlClient.Outcome { client.playback(.pause) }
}

/// `pipcam seek ±S|S|M:SS|fN`: the running instance's file goes to another time or frame.
struct SeekCommand: ControlSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "seek",
        abstract: "Move the file the running pipcam shows: +S or -S seconds from the frame shown, S or M:SS from the start, fN to frame N.",
        discussion: "Paused, the frame sought is shown and playback stays paused. Returns once the frame sought is shown. A pipe or standard input cannot seek.")
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

    func ask(_ client: ControlClient) -> ControlClient.Outcome { client.playback(.seek(position)) }
}
