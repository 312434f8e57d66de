import PipCore

/// Why a source could not start or go on, worded for a one-line message: `pipcam: <description>`.
public enum SourceError: Error, Equatable, CustomStringConvertible {
    /// The user's input is wrong: a bad spec, a missing or malformed file, a device that is not a camera.
    case badInput(thing: String, reason: String)
    /// The input was fine but the device or system failed at run time.
    case runtime(thing: String, reason: String)
    /// The camera was interrupted (in use elsewhere, disconnected): a cause kept as a value, which
    /// `ResilientCamera` acts on, never recovered from the message's words.
    case interrupted(thing: String, CameraInterruption)

    public var description: String {
        switch self {
        case .badInput(let thing, let reason), .runtime(let thing, let reason):
            return "\(thing): \(reason)"
        case .interrupted(let thing, let why):
            return "\(thing): \(why.reason)"
        }
    }

    /// Exit status the command line uses for this error (2 bad input, 1 runtime failure).
    public var exitCode: Int32 {
        switch self {
        case .badInput: return 2
        case .runtime, .interrupted: return 1
        }
    }

    /// The camera interruption this error reports, if it is one (in use, disconnected).
    public var cameraInterruption: CameraInterruption? {
        guard case .interrupted(_, let why) = self else { return nil }
        return why
    }
}
