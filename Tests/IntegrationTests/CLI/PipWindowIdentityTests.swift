import Foundation
import TestSupport
import Testing

extension PipTests {
    /// The PiP window's identity, hints and initial placement (docs/BEHAVIOUR.md "Window identity",
    /// docs/WINDOW-MANAGERS.md).
    @Suite struct Window {
        /// Everything a WM rule or a pager relies on, under openbox and with no WM.
        @Test(arguments: [WindowManager.openbox, .none])
        func identityAndHints(_ manager: WindowManager) throws {
            let x = try makeServer(manager)
            let (pipcam, window) = try x.startPip(["--source", "test"])

            let wmClass = try #require(try x.wmClass(of: window), "WM_CLASS missing")
            #expect(wmClass.instance == PipIdentity.instance)
            #expect(wmClass.class == PipIdentity.className)
            #expect(try x.property("WM_WINDOW_ROLE", of: window)?.strings == [PipIdentity.role])
            let name = try #require(try x.property("_NET_WM_NAME", of: window), "_NET_WM_NAME missing")
            #expect(name.type == "UTF8_STRING")
            #expect(name.strings == [PipIdentity.title])
            #expect(try x.property("WM_NAME", of: window)?.strings == [PipIdentity.title], "ICCCM WM_NAME (xdotool, xwininfo)")
            // Looked up by its name, as scripts do, PiP is found alone (the animation window,
            // unmapped now, has its own name); every window pipcam made has pipcam's WM_CLASS.
            let named = try x.run(["xdotool", "search", "--name", PipIdentity.title]).stdoutText
                .split(whereSeparator: \.isNewline).compactMap { XWindowID($0) }
            #expect(named == [window], "windows named \(PipIdentity.title): \(named)")
            let own = try x.run(["xdotool", "search", "--pid", "\(pipcam.pid)"]).stdoutText
                .split(whereSeparator: \.isNewline).compactMap { XWindowID($0) }
            #expect(own.count >= 4, "PiP, animation, main and control windows: \(own)")
            for w in own {
                let owned = try x.wmClass(of: w)
                #expect(owned?.instance == PipIdentity.instance && owned?.class == PipIdentity.className, "WM_CLASS of \(w): \(String(describing: owned))")
            }

            #expect(try x.property("_NET_WM_DESKTOP", of: window)?.integers == [0xFFFF_FFFF])
            // The icon taskbars and switchers show: 32 and 48 px, the first pixel a transparent corner.
            let icon = try #require(try x.rawIntegers("_NET_WM_ICON", of: window), "_NET_WM_ICON missing")
            #expect(icon.count == 2 + 32 * 32 + 2 + 48 * 48 && Array(icon.prefix(2)) == [32, 32] && icon[2] == 0, "\(icon.prefix(4))")
            #expect(try x.property("_NET_WM_USER_TIME", of: window)?.integers == [0])

            // _MOTIF_WM_HINTS: flags, functions, decorations, input mode, status; MWM_HINTS_DECORATIONS = 2.
            let motif = try #require(try x.property("_MOTIF_WM_HINTS", of: window)?.integers, "_MOTIF_WM_HINTS missing")
            #expect(motif.count == 5, "\(motif)")
            if motif.count == 5 {
                #expect(motif[0] & 2 != 0, "decorations flag not set: \(motif)")
                #expect(motif[2] == 0, "decorations must be 0: \(motif)")
            }

            let protocols = try #require(try x.property("WM_PROTOCOLS", of: window), "WM_PROTOCOLS missing")
            #expect(protocols.text.contains("WM_DELETE_WINDOW") && protocols.text.contains("_NET_WM_PING"), "\(protocols)")
            // Answered like a window manager's ping (it says pipcam is alive, and has caught up).
            try x.waitForPipcamToCatchUp(window, timeout: .seconds(3))

            let hints = try #require(SizeHints(try x.rawIntegers("WM_NORMAL_HINTS", of: window) ?? []), "WM_NORMAL_HINTS missing")
            #expect(hints.has(SizeHints.pAspect), "\(hints)")
            #expect(hints.has(SizeHints.pMinSize), "\(hints)")
            #expect(hints.minSize.width > 0 && hints.minSize.height > 0, "\(hints)")
            // The test pattern is 640x360: min = max = 16:9.
            #expect(hints.minAspect.0 * 9 == hints.minAspect.1 * 16 && hints.minAspect.1 > 0, "\(hints)")
            #expect(hints.maxAspect.0 * 9 == hints.maxAspect.1 * 16 && hints.maxAspect.1 > 0, "\(hints)")
            #expect(hints.has(SizeHints.pBaseSize), "\(hints)")
            #expect(hints.baseSize.map { $0.width == 0 && $0.height == 0 } == true, "base size must be 0x0: \(hints)")

            let state = try x.netWMState(of: window)
            if manager == .openbox {
                // openbox supports ABOVE, SKIP_TASKBAR and SKIP_PAGER (not STICKY) and
                // publishes the state it applied.
                for atom in ["_NET_WM_STATE_ABOVE", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER"] {
                    #expect(state.contains(atom), "_NET_WM_STATE = \(state)")
                }
                #expect(!state.contains("_NET_WM_STATE_STICKY"), "openbox has no STICKY: \(state)")
                // Borderless: openbox draws no frame decorations around it.
                let extents = try x.property("_NET_FRAME_EXTENTS", of: window)?.integers
                #expect(extents == [0, 0, 0, 0], "_NET_FRAME_EXTENTS = \(String(describing: extents))")
            }
            #expect(pipcam.isRunning)
        }

        /// The aspect hints follow the source (a 4:3 clip), not a fixed 16:9, and so does the window.
        @Test func aspectHintsFollowTheSource() throws {
            let x = try makeServer()
            let clip = try TestMedia.y4m(subsampling: 420, width: 160, height: 120, frames: 300, rate: 30)
            let (_, window) = try x.startPip(["--source", "y4m:\(clip)"])
            let hints = try #require(SizeHints(try x.rawIntegers("WM_NORMAL_HINTS", of: window) ?? []))
            #expect(hints.minAspect.0 * 3 == hints.minAspect.1 * 4 && hints.minAspect.1 > 0, "\(hints)")
            #expect(hints.maxAspect.0 * 3 == hints.maxAspect.1 * 4 && hints.maxAspect.1 > 0, "\(hints)")
            let frame = try x.geometry(of: window)
            let ratio = Double(frame.width) / Double(frame.height)
            #expect(abs(ratio / (4.0 / 3.0) - 1) < 0.02, "window \(frame) is not 4:3")
            // Default width: a quarter of the work area (the whole 1280-pixel screen with no WM).
            #expect(abs(frame.width - 1280 / 4) <= 2, "window \(frame)")
        }

        /// Default placement: bottom-right of `_NET_WORKAREA`, 24 px margin, a quarter of the
        /// work area wide. openbox with a "panel" reserving strips on three sides, so the work
        /// area differs from the screen.
        @Test func defaultPlacementIsBottomRightOfTheWorkArea() throws {
            let x = try makeServer(.openbox)
            let area = try reserveStruts(on: x, left: 50, top: 30, bottom: 40)
            #expect(area == XRect(x: 50, y: 30, width: 1230, height: 650), "work area with struts")

            let (_, window) = try x.startPip(["--source", "test"])
            let frame = try x.settledGeometry(of: window)
            let outer = try x.outerGeometry(of: window)
            #expect(abs(frame.width - area.width / 4) <= 2, "width \(frame.width), work area \(area)")
            #expect(abs(frame.height - frame.width * 9 / 16) <= 2, "16:9 test pattern, window \(frame)")
            #expect(abs(outer.maxX - (area.maxX - 24)) <= 2, "right edge: window \(outer), work area \(area)")
            #expect(abs(outer.maxY - (area.maxY - 24)) <= 2, "bottom edge: window \(outer), work area \(area)")
        }

        /// `--size` sets the window size exactly; `--corner` picks the corner, 24 px from the work area's edges.
        @Test(arguments: [
            (WindowManager.openbox, "bottom-right"), (.openbox, "top-left"),
            (.none, "top-left"), (.none, "top-right"), (.none, "bottom-left"),
        ])
        func sizeAndCorner(_ manager: WindowManager, _ corner: String) throws {
            let x = try makeServer(manager)
            let area = try x.workArea()
            let (_, window) = try x.startPip(["--source", "test", "--size", "400x225", "--corner", corner])
            let frame = try x.settledGeometry(of: window)
            let outer = try x.outerGeometry(of: window)
            #expect(frame.width == 400 && frame.height == 225, "--size 400x225 gave \(frame)")
            let (left, top) = (corner.hasSuffix("left"), corner.hasPrefix("top"))
            let expectedX = left ? area.x + 24 : area.maxX - 24 - outer.width
            let expectedY = top ? area.y + 24 : area.maxY - 24 - outer.height
            #expect(abs(outer.x - expectedX) <= 2, "\(corner): x \(outer.x), expected \(expectedX) (work area \(area))")
            #expect(abs(outer.y - expectedY) <= 2, "\(corner): y \(outer.y), expected \(expectedY) (work area \(area))")
        }

        /// Maps a window reserving `_NET_WM_STRUT` strips and waits until openbox shrinks the work area.
        /// Root properties another client wrote wrong (a desktop number of -1 / 0xFFFFFFFF, a work
        /// area too short for it, of zero size or off the screen) are ignored: the whole screen is
        /// the work area.
        @Test(arguments: [
            ("4294967295", "0, 0, 1280, 720"), ("5", "0, 0, 1280, 720"), ("0", "0, 0, 0, 0"),
            ("0", "2147483000, 0, 2000, 1000"), ("0", "1000, 500, 1280, 720"),
        ])
        func badWorkAreaPropertiesFallBackToTheScreen(_ desktop: String, _ area: String) throws {
            let x = try makeServer()
            try x.runChecked(["xprop", "-root", "-f", "_NET_CURRENT_DESKTOP", "32c", "-set", "_NET_CURRENT_DESKTOP", desktop])
            try x.runChecked(["xprop", "-root", "-f", "_NET_WORKAREA", "32c", "-set", "_NET_WORKAREA", area])
            let (pipcam, window) = try x.startPip(["--source", "test", "--size", "320x180"])
            let frame = try x.settledGeometry(of: window)
            #expect(frame.maxX == x.width - 24 && frame.maxY == x.height - 24, "bottom-right of the screen: \(frame)")
            pipcam.send(SIGTERM)
            let result = try pipcam.wait(timeout: .seconds(5))
            #expect(result.termination == .exited(0), "\(result)")
        }

        /// PiP started again after the work area shrank (a monitor unplugged, a panel added) comes
        /// up on today's work area, not at its old place off it.
        @Test func pipStartedAfterTheWorkAreaShrankComesUpOnIt() throws {
            let x = try makeServer()
            let (_, window) = try x.startPip(["--source", "test", "--size", "320x180"])
            let before = try x.settledGeometry(of: window)
            #expect(before.maxY == x.height - 24, "\(before)")
            try x.runChecked([Pipcam.binaryPath(), "stop"])
            try waitUntil("PiP stopped", timeout: .seconds(3)) { try !x.isViewable(window) }
            try x.runChecked(["xprop", "-root", "-f", "_NET_CURRENT_DESKTOP", "32c", "-set", "_NET_CURRENT_DESKTOP", "0"])
            try x.runChecked(["xprop", "-root", "-f", "_NET_WORKAREA", "32c", "-set", "_NET_WORKAREA", "0, 0, 1280, 400"])
            try x.runChecked([Pipcam.binaryPath(), "start"])
            try waitUntil("PiP is up", timeout: .seconds(3)) { try x.isViewable(window) }
            let after = try x.settledGeometry(of: window)
            #expect(after.maxY <= 400 && after.y >= 0 && after.maxX <= 1280, "PiP at \(after), work area 1280x400")
            #expect(after.width == before.width && after.height == before.height, "the same size: \(before) → \(after)")
        }

        /// A panel added while PiP is shown moves PiP with the work area's edge, 24 px from it, and
        /// PiP goes back when the panel goes.
        @Test func pipKeepsItsCornerWhenTheWorkAreaChanges() throws {
            let x = try makeServer()
            let (_, window) = try x.startPip(["--source", "test", "--size", "320x180"])
            let before = try x.settledGeometry(of: window)
            #expect(before.maxX == x.width - 24 && before.maxY == x.height - 24, "\(before)")
            func setWorkArea(bottom: Int) throws {
                try x.runChecked(["xprop", "-root", "-f", "_NET_CURRENT_DESKTOP", "32c", "-set", "_NET_CURRENT_DESKTOP", "0"])
                try x.runChecked([
                    "xprop", "-root", "-f", "_NET_WORKAREA", "32c", "-set", "_NET_WORKAREA", "0, 0, \(x.width), \(x.height - bottom)",
                ])
            }
            try setWorkArea(bottom: 60)
            try waitUntil("PiP above the panel", timeout: .seconds(5)) { try x.geometry(of: window).maxY == x.height - 60 - 24 }
            let above = try x.settledGeometry(of: window)
            #expect(above.maxX == before.maxX && above.width == before.width && above.height == before.height,
                    "only up: \(before) → \(above)")
            try setWorkArea(bottom: 0)
            try waitUntil("PiP back in the corner", timeout: .seconds(5)) { try x.geometry(of: window) == before }
        }

        /// The same under openbox with a real panel: a window reserving a strip at the bottom
        /// (`_NET_WM_STRUT`) and then giving it up.
        @Test func pipKeepsItsCornerWhenAPanelComesAndGoesUnderOpenbox() throws {
            let x = try makeServer(.openbox)
            let (_, window) = try x.startPip(["--source", "test", "--size", "320x180"])
            _ = try x.settledGeometry(of: window)
            let before = try x.outerGeometry(of: window)
            #expect(abs(before.maxY - (x.height - 24)) <= 2, "\(before)")
            let area = try reserveStruts(on: x, left: 0, top: 0, bottom: 60)
            try waitUntil("PiP above the panel", timeout: .seconds(5)) { abs(try x.outerGeometry(of: window).maxY - (area.maxY - 24)) <= 2 }
            let panel = try x.waitForWindow(className: "xmessage")
            try x.runChecked(["xprop", "-id", "\(panel)", "-remove", "_NET_WM_STRUT"])
            try waitUntil("PiP back in the corner", timeout: .seconds(5)) { try x.outerGeometry(of: window) == before }
        }

        private func reserveStruts(on x: XServer, left: Int, top: Int, bottom: Int) throws -> XRect {
            _ = try x.start(["xmessage", "-geometry", "+400+300", "panel"])
            let panel = try x.waitForWindow(className: "xmessage")
            try x.runChecked([
                "xprop", "-id", "\(panel)", "-f", "_NET_WM_STRUT", "32c", "-set", "_NET_WM_STRUT",
                "\(left), 0, \(top), \(bottom)",
            ])
            let expected = XRect(x: left, y: top, width: x.width - left, height: x.height - top - bottom)
            return try poll(timeout: .seconds(5), what: "openbox to apply the struts") {
                let area = try x.workArea()
                return area == expected ? area : nil
            }
        }
    }
}
