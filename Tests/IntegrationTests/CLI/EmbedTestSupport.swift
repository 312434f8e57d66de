import Foundation
import Synchronization
import TestSupport
import Testing

/// Embedding at the X level: pipcam inside another program's window (`--wid`, `$XEMBED`), following
/// another program's window (`--follow-window`), and the library example. Files `Embed*Tests.swift`.
/// Serialized like `PipTests`: the animation checks sample windows while a 250 ms animation runs.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct EmbedTests {}

/// pipcam's windows (WM_CLASS instance `pipcam`) by role.
enum PipcamRole {
    static let main = "main"
    static let pip = "PictureInPicture"
    static let proxy = "PictureInPictureAnimation"
}

/// Another program's window: `xlogo` from x11-apps, with its own WM_CLASS instance name.
struct ForeignWindow {
    let process: RunningProcess
    let window: XWindowID
}

extension XServer {
    /// Starts `xlogo -name name -geometry geometry` and waits until its window is viewable (and,
    /// under a window manager, managed: it has WM_STATE and has settled where the WM put it).
    func startForeignWindow(name: String = "host-app", geometry: String = "400x300+120+90") throws -> ForeignWindow {
        let process = try start(["xlogo", "-name", name, "-geometry", geometry])
        let window = try waitForWindow(className: name)
        if windowManager != .none {
            try waitUntil("the WM to manage \(name)", timeout: .seconds(5)) { try property("WM_STATE", of: window) != nil }
        }
        try waitForStableGeometry(of: window)
        return ForeignWindow(process: process, window: window)
    }

    /// Hides a top-level window the way a user does: minimized under a WM, unmapped without one.
    func hide(_ window: XWindowID) throws {
        try runChecked(["xdotool", windowManager == .none ? "windowunmap" : "windowminimize", "\(window.raw)"])
    }

    /// Brings a hidden top-level window back: activated under a WM, mapped without one.
    func show(_ window: XWindowID) throws {
        try runChecked(["xdotool", windowManager == .none ? "windowmap" : "windowactivate", "\(window.raw)"])
    }

    /// pipcam's PiP window and animation proxy (both exist, unmapped, from the start).
    func pipWindows() throws -> (pip: XWindowID, proxy: XWindowID) {
        (try waitForWindow(className: "pipcam", role: PipcamRole.pip, viewable: false),
         try waitForWindow(className: "pipcam", role: PipcamRole.proxy, viewable: false))
    }

    /// Every position and size `window` was given while `body` ran, in order, from its
    /// ConfigureNotify events (xev): exact and complete, unlike sampling with xwininfo, whose
    /// size and position come from two requests and miss the first steps of a 250 ms animation.
    /// For a child of the root (the animation proxy), the positions are root coordinates.
    func configureRects(of window: XWindowID, during body: () throws -> Void) throws -> [XRect] {
        try structureEvents(of: window, during: body).matches(of: /\((-?\d+),(-?\d+)\), width (\d+), height (\d+)/).compactMap { m in
            guard let x = Int(m.1), let y = Int(m.2), let w = Int(m.3), let h = Int(m.4) else { return nil }
            return XRect(x: x, y: y, width: w, height: h)
        }
    }

    /// xev's report of `window`'s structure events (map, unmap, configure) while `body` ran.
    /// Event-driven, so it misses nothing and, unlike polling xwininfo, leaves the CPUs to pipcam.
    func structureEvents(of window: XWindowID, during body: () throws -> Void) throws -> String {
        let xev = try start(["stdbuf", "-oL", "xev", "-id", "\(window)", "-event", "structure", "-event", "property"])
        defer { xev.terminate(grace: .milliseconds(200)) }
        try waitUntil("xev to listen on \(window)", timeout: .seconds(5)) {
            try runChecked(["xprop", "-id", "\(window)", "-f", "_EMBED_TEST_SENTINEL", "8s", "-set", "_EMBED_TEST_SENTINEL", "x"])
            return xev.stdoutText.contains("PropertyNotify")
        }
        try body()
        Thread.sleep(forTimeInterval: 0.1)
        return xev.stdoutText
    }

    /// Whether `window` shows a moving picture within `within`: a drawn picture (not a blank or
    /// single-colour window), then a different one. The test pattern moves at 30 fps; a loaded
    /// machine may be slow to draw a just-resized window or hold a frame back for a while.
    func showsMovingPicture(_ window: XWindowID, within: Duration = .seconds(2)) throws -> Bool {
        let clock = ContinuousClock(), deadline = clock.now + within
        var first: Screenshot?
        repeat {
            let shot = try screenshot(of: window)
            if let first, shot.fractionDiffering(from: first) > 0.001 { return true }
            if first == nil, shot.distinctColorCount > 6 { first = shot }
            Thread.sleep(forTimeInterval: 0.1)
        } while clock.now < deadline
        return false
    }
}

/// The distance between two points.
func distance(_ a: XPoint, _ b: XPoint) -> Double {
    Double((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
}

/// Whether two rectangles are the same within `tolerance` pixels on every side (a border).
func roughlyEqual(_ a: XRect, _ b: XRect, tolerance: Int = 2) -> Bool {
    abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
        && abs(a.maxX - b.maxX) <= tolerance && abs(a.maxY - b.maxY) <= tolerance
}

/// Whether the animation proxy's configures `rects` went from `from` to `to`: the first is `from`,
/// the last `to`, and there are steps between them.
func animation(_ rects: [XRect], goesFrom from: XRect, to: XRect) -> Bool {
    // Start and end are what matter: on a loaded machine the 250 ms may pass in one or two steps.
    guard let first = rects.first, let last = rects.last, rects.count >= 2 else { return false }
    return roughlyEqual(first, from) && roughlyEqual(last, to)
}

/// Whether the animation proxy's configures `rects` shrank into `target`: steps, the last one `target`.
func animation(_ rects: [XRect], shrinksInto target: XRect) -> Bool {
    guard let last = rects.last, rects.count >= 2 else { return false }
    return roughlyEqual(last, target)
}
