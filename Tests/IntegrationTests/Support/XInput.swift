import Foundation
import TestSupport

/// Pointer and keyboard input through xdotool (XTEST), as a user would give it.
extension XServer {
    /// Presses `button` at `from`, moves to `to` in `steps` moves `stepDelay` apart, releases.
    ///
    /// With `moving`, the release waits until that window has moved or changed size: whoever moves
    /// it then has the pointer and gets the release — pipcam itself, or a window manager that took
    /// the pointer when pipcam asked it to, which on a busy machine may be after the last motion
    /// (it then sees none: the pointer is nudged at `to` until the window follows). A window
    /// manager that moves only an outline until the release gets it after `minimumWait`. Without
    /// `moving` (a drag that must move nothing) the drag is one xdotool run. The button is
    /// released whatever happens.
    func drag(
        from start: XPoint, to end: XPoint, moving window: XWindowID? = nil, button: Int = 1, steps: Int = 8,
        stepDelay: Duration = .milliseconds(15)
    ) throws {
        let pause = String(format: "%.3f", stepDelay.seconds)
        var press = ["xdotool", "mousemove", "\(start.x)", "\(start.y)", "mousedown", "\(button)"]
        for step in 1...max(1, steps) {
            let x = start.x + (end.x - start.x) * step / max(1, steps)
            let y = start.y + (end.y - start.y) * step / max(1, steps)
            press += ["sleep", pause, "mousemove", "\(x)", "\(y)"]
        }
        let release = ["xdotool", "sleep", pause, "mouseup", "\(button)"]
        guard let window else {
            try runChecked(press + release.dropFirst())
            return
        }
        let before = try geometry(of: window)
        do {
            try runChecked(press)
            let deadline = ContinuousClock.now + minimumWait
            while try geometry(of: window) == before, ContinuousClock.now < deadline {
                try runChecked(["xdotool", "mousemove", "\(end.x + 1)", "\(end.y)", "mousemove", "\(end.x)", "\(end.y)"])
                Thread.sleep(forTimeInterval: 0.02)
            }
        } catch {
            _ = try? run(release)
            throw error
        }
        try runChecked(release)
    }

    /// Moves the pointer to `point` (root coordinates).
    func movePointer(to point: XPoint) throws {
        try runChecked(["xdotool", "mousemove", "\(point.x)", "\(point.y)"])
    }

    /// Clicks `button` `count` times at `point` (buttons 4/5 are the wheel up/down).
    func click(at point: XPoint, button: Int = 1, count: Int = 1) throws {
        try runChecked([
            "xdotool", "mousemove", "\(point.x)", "\(point.y)", "click", "--repeat", "\(count)",
            "--delay", "30", "\(button)",
        ])
    }

    /// Scrolls the wheel at `point`: positive `clicks` up (button 4), negative down (button 5).
    func scroll(at point: XPoint, clicks: Int) throws {
        guard clicks != 0 else { return }
        try click(at: point, button: clicks > 0 ? 4 : 5, count: abs(clicks))
    }

    /// Types a key combination, e.g. "super+shift+p" or "Escape".
    func key(_ combination: String) throws {
        try runChecked(["xdotool", "key", "--clearmodifiers", combination])
    }

    /// The pointer position in root coordinates.
    func pointerLocation() throws -> XPoint {
        let text = try runChecked(["xdotool", "getmouselocation", "--shell"]).stdoutText
        var values: [String: Int] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        guard let x = values["X"], let y = values["Y"] else { throw HarnessError("xdotool getmouselocation: \(text)") }
        return XPoint(x, y)
    }
}
