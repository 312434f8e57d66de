import PipControl
import PipCore
import PipWindow
#if canImport(Glibc)
import Glibc
#endif

/// One control request, from finding the instance to what it answered (docs/BEHAVIOUR.md,
/// "Control channel"). The socket in the runtime directory first: the one for `$WAYLAND_DISPLAY`
/// when an instance runs there natively, else with `$DISPLAY` the one for that display, without
/// it the user's one running instance (or the one `--name` names). The X
/// selection when no socket answers for the display (an instance on another host of a shared
/// display, a session without a runtime directory).
struct ControlCall {
    let request: PipRequest
    let name: String?

    func run() -> ControlOutcome {
        if let tooLong = ControlOutcome.tooLong(request) { return tooLong }
        let display = environment("DISPLAY")
        let directory = ControlSocketPlace.directory(runtimeDirectory: environment("XDG_RUNTIME_DIR"))
        if let directory {
            if let wayland = environment("WAYLAND_DISPLAY") {
                let place = ControlSocketPlace(directory: directory, display: WindowSystemRoute.socketDisplay(wayland), name: name)
                if place.isRunning { return overSocket(place) }
            }
            if let display {
                let place = ControlSocketPlace(directory: directory, display: display, name: name)
                if place.isRunning { return overSocket(place) }
            } else {
                let running = ControlSocketPlace.running(in: directory).filter { name == nil || $0.name == name }
                switch running.count {
                case 1: return overSocket(running[0])
                case 0: return ControlOutcome(exitCode: 3, error: "pipcam: no pipcam\(called) is running (DISPLAY is not set; looked in \(directory))")
                default:
                    let which = running.map(\.described).joined(separator: ", ")
                    return ControlOutcome(
                        exitCode: 2,
                        error: "pipcam: \(running.count) pipcams\(called) are running, on \(which): set DISPLAY or give --name NAME")
                }
            }
        }
        guard let display else {
            return ControlOutcome(exitCode: 2, error: "pipcam: no X display ($DISPLAY is not set) and no $XDG_RUNTIME_DIR to find pipcam in")
        }
        return overX(display: display)
    }

    private var called: String { name.map { " '\($0)'" } ?? "" }
    private var patience: Int { request.verb.patienceMilliseconds }

    private func overSocket(_ place: ControlSocketPlace) -> ControlOutcome {
        let exchange = ControlSocketClient.exchange(request.encoded, with: place, within: patience)
        return ControlOutcome(exchange, for: request, name: place.name, display: place.display, waited: patience)
    }

    private func overX(display name: String) -> ControlOutcome {
        let display: XDisplay
        do {
            display = try XDisplay(name: name)
        } catch {
            return ControlOutcome(exitCode: 2, error: "pipcam: \(error)")
        }
        defer { display.close() }
        let exchange = ControlClient(display: display, name: self.name).exchange(request.encoded, within: patience, untilExit: request == .quit)
        return ControlOutcome(exchange, for: request, name: self.name, display: name, waited: patience)
    }

    private func environment(_ variable: String) -> String? {
        guard let value = getenv(variable).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }
}
