import Foundation
import TestSupport

/// A window put over the PiP the way a user brings another window forward, and what the screen
/// then shows: the PiP's test pattern (colour bars) or xlogo (black and white).
extension XServer {
    /// Maps a small xlogo away from the PiP's corners, activates it and waits until it has the
    /// focus: the window a new PiP must leave the focus with.
    func startFocusHolder() throws -> XWindowID {
        _ = try start(["xlogo", "-name", "focus-holder", "-geometry", "200x150+900+450"])
        let holder = try waitForWindow(className: "focus-holder")
        try runChecked(["xdotool", "windowactivate", "--sync", "\(holder.raw)"])
        try waitUntil("the other window to have the focus", timeout: .seconds(3)) { try focusedWindow() == holder }
        return holder
    }

    /// Maps an xlogo (500x400, or `area` and 90 px around it if larger) centred on `area` (as far as the screen's top-left allows), activates
    /// it (`_NET_ACTIVE_WINDOW`, or a raise and focus with no WM), and checks it really is up:
    /// covering `area`, focused, and shown where the PiP is not. Throws when it is not.
    /// Without `lookingAtTheScreen` (a rootless Xwayland has no screen to read), only the focus
    /// says it is up.
    func mapAndActivateXlogo(covering area: XRect, lookingAtTheScreen: Bool = true) throws -> XWindowID {
        let size = (width: max(500, area.width + 180), height: max(400, area.height + 180))
        let origin = XPoint(max(0, area.center.x - size.width / 2), max(0, area.center.y - size.height / 2))
        _ = try start(["xlogo", "-geometry", "\(size.width)x\(size.height)+\(origin.x)+\(origin.y)"])
        let logo = try waitForWindow(className: "xlogo")
        var frame = try waitForStableGeometry(of: logo)
        if frame.intersection(area) != area {  // i3 centres new floating windows; desktops place by their own rules
            try runChecked(["xdotool", "windowmove", "\(logo.raw)", "\(origin.x)", "\(origin.y)"])
            frame = try waitForStableGeometry(of: logo)
        }
        guard frame.intersection(area) == area || !lookingAtTheScreen else {
            throw HarnessError("xlogo \(frame) does not cover the PiP \(area)")
        }
        if try runningWindowManagerName() == nil {
            try runChecked(["xdotool", "windowraise", "\(logo.raw)", "windowfocus", "--sync", "\(logo.raw)"])
        } else {
            try runChecked(["xdotool", "windowactivate", "--sync", "\(logo.raw)"])
        }
        try waitUntil("xlogo to have the focus", timeout: .seconds(3)) { try focusedWindow() == logo }
        guard lookingAtTheScreen else { return logo }
        // Where the PiP is not, xlogo shows: black and white, no colour.
        let beside = XRect(x: area.maxX + 20, y: area.maxY + 20, width: 100, height: 100).intersection(frame)
        guard beside.width > 50 && beside.height > 50 else { throw HarnessError("no xlogo area beside the PiP: \(frame) vs \(area)") }
        try waitUntil("xlogo to be drawn beside the PiP", timeout: .seconds(3)) {
            try screenshot(beside).colourfulFraction < 0.01
        }
        Thread.sleep(forTimeInterval: 0.3)  // let any restacking (the WM's, or pipcam's own raise) happen
        return logo
    }

    /// The fraction of `area` (inset by 4 px) that shows colour: above 0.4 when the test pattern
    /// shows there, near 0 when xlogo, a frame or the root does.
    func colourfulFraction(of area: XRect) throws -> Double {
        try screenshot(area.insetBy(4)).colourfulFraction
    }
}

extension Screenshot {
    /// The fraction of pixels with clearly different channels (the test pattern's bars are mostly
    /// saturated colours; xlogo, frames and the root are grey).
    var colourfulFraction: Double {
        var colourful = 0
        for index in stride(from: 0, to: rgb.count, by: 3) {
            let r = rgb[index], g = rgb[index + 1], b = rgb[index + 2]
            if max(r, g, b) - min(r, g, b) > 60 { colourful += 1 }
        }
        return Double(colourful) / Double(max(1, width * height))
    }
}
