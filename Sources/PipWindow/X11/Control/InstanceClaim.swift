#if canImport(Glibc)
import Glibc
import PipCore
#endif

/// This program's claim to be *the* pipcam on a display (or the one called `--name`): the
/// ownership of the selection `_PIPCAM_S<screen>[_<name>]` by a hidden control window.
///
/// The X server drops the ownership when the owner's connection closes, however the program
/// ended, so there is no stale lock to clean up after a crash or `kill -9`. Another client can
/// destroy the window or take the selection: `ControlServer` then claims again.
public struct InstanceClaim: Sendable, Equatable {
    /// The hidden window that owns the selection and receives commands.
    public let window: WindowID
    public let selection: Atom
    /// The server time the ownership starts at (requests from before it are refused).
    public let since: UInt
    /// The instance name (`--name`), nil for the default instance.
    public let name: String?

    /// Why a claim failed.
    public enum Failure: Error, Equatable {
        /// Another client owns the selection.
        case alreadyRunning(owner: WindowID)
    }

    /// Takes the selection for a new control window, checking before and after: another owner
    /// means another pipcam is running (the check and the claim run with the server grabbed, so
    /// of two racing starts exactly one wins).
    public static func claim(display: XDisplay, name: String?) throws(Failure) -> InstanceClaim {
        let selection = display.intern(InstanceName.selection(screen: display.screen, name: name))
        if let owner = display.selectionOwner(selection) { throw .alreadyRunning(owner: owner) }
        let window = display.createWindow(
            rect: Rect(x: -10, y: -10, width: 1, height: 1), events: [.propertyChange, .structureNotify], overrideRedirect: true)
        display.setClass(window, instance: "pipcam", className: "Pipcam")
        display.setTitle(window, "pipcam control" + (name.map { " (\($0))" } ?? ""))
        display.setProperty(window, ._NET_WM_PID, type: .CARDINAL_, values: [Int(getpid())])
        let time = display.serverTime(window)
        guard display.claimSelectionIfUnowned(selection, for: window, time: time) else {
            let owner = display.selectionOwner(selection) ?? 0
            display.destroy(window)
            throw .alreadyRunning(owner: owner)
        }
        return InstanceClaim(window: window, selection: selection, since: time, name: name)
    }
}
