import Foundation
import TestSupport

/// An X window id.
struct XWindowID: Hashable, Sendable, CustomStringConvertible {
    let raw: UInt32
    init(_ raw: UInt32) { self.raw = raw }
    /// Parses "0x40000a" or "4194314".
    init?(_ text: some StringProtocol) {
        let text = text.trimmingCharacters(in: .whitespaces)
        let value = text.hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text)
        guard let value else { return nil }
        raw = value
    }
    var description: String { "0x" + String(raw, radix: 16) }
}

struct XPoint: Hashable, Sendable, CustomStringConvertible {
    var x: Int
    var y: Int
    init(_ x: Int, _ y: Int) { self.x = x; self.y = y }
    var description: String { "(\(x), \(y))" }
}

/// A rectangle in root-window coordinates.
struct XRect: Hashable, Sendable, CustomStringConvertible {
    var x: Int, y: Int, width: Int, height: Int
    init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    var origin: XPoint { XPoint(x, y) }
    var center: XPoint { XPoint(x + width / 2, y + height / 2) }
    var maxX: Int { x + width }
    var maxY: Int { y + height }
    func offsetBy(dx: Int, dy: Int) -> XRect { XRect(x: x + dx, y: y + dy, width: width, height: height) }
    func insetBy(_ inset: Int) -> XRect {
        XRect(x: x + inset, y: y + inset, width: max(0, width - 2 * inset), height: max(0, height - 2 * inset))
    }
    func intersection(_ other: XRect) -> XRect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(maxX, other.maxX), bottom = min(maxY, other.maxY)
        return XRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }
    var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// A window property as `xprop` prints it: `NAME(TYPE) = v1, v2` or `NAME(TYPE): window id # 0x…`.
struct XProperty: Sendable, CustomStringConvertible {
    let name: String
    let type: String
    /// Everything after `=` or `:`, trimmed.
    let text: String

    /// Parses one `xprop -id W NAME` output; nil for "not found" / "no such atom".
    init?(xpropOutput output: String) {
        let line = output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let open = line.firstIndex(of: "("), let close = line[open...].firstIndex(of: ")") else { return nil }
        name = String(line[..<open])
        type = String(line[line.index(after: open)..<close])
        var rest = line[line.index(after: close)...].drop { $0 == " " }
        guard let separator = rest.first, separator == "=" || separator == ":" else { return nil }
        rest = rest.dropFirst()
        text = rest.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The comma-separated items (for ATOM, CARDINAL, INTEGER, WINDOW lists).
    var items: [String] {
        let body = text.replacingOccurrences(of: "window id #", with: "")
        return body.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
    /// Quoted strings, unescaped (for STRING / UTF8_STRING, e.g. WM_CLASS).
    var strings: [String] {
        var result: [String] = []
        var current: String?
        var escaped = false
        for character in text {
            guard var string = current else {
                if character == "\"" { current = "" }
                continue
            }
            if escaped {
                string.append(character); escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                result.append(string); current = nil; continue
            } else {
                string.append(character)
            }
            current = string
        }
        return result
    }
    /// Numbers (decimal or 0x hex) among the items.
    var integers: [Int] {
        items.compactMap { $0.hasPrefix("0x") ? Int($0.dropFirst(2), radix: 16) : Int($0) }
    }
    var atoms: [String] { items }
    var windows: [XWindowID] { items.compactMap { XWindowID($0) } }

    var description: String { "\(name)(\(type)) = \(text)" }
}

/// What `xwininfo -id` says about a window.
struct XWindowInfo: Sendable {
    /// The window's own area (inside any WM frame) in root coordinates.
    let frame: XRect
    let borderWidth: Int
    /// "IsViewable", "IsUnMapped" or "IsUnviewable".
    let mapState: String
    var isViewable: Bool { mapState == "IsViewable" }
}

extension XServer {
    /// `_NET_WORKAREA` of the current desktop, else the whole screen (no WM).
    func workArea() throws -> XRect {
        let values = try rootProperty("_NET_WORKAREA")?.integers ?? []
        guard values.count >= 4 else { return XRect(x: 0, y: 0, width: width, height: height) }
        let desktop = try rootProperty("_NET_CURRENT_DESKTOP")?.integers.first ?? 0
        let base = values.count >= (desktop + 1) * 4 ? desktop * 4 : 0
        return XRect(x: values[base], y: values[base + 1], width: values[base + 2], height: values[base + 3])
    }

    // MARK: Properties

    /// Reads one property of `window`; nil when the window does not have it.
    func property(_ name: String, of window: XWindowID) throws -> XProperty? {
        let result = try run(["xprop", "-id", "\(window)", name])
        guard result.succeeded else { throw HarnessError("xprop on \(window): \(result.stderrText)") }
        return XProperty(xpropOutput: result.stdoutText)
    }

    func rootProperty(_ name: String) throws -> XProperty? {
        let result = try runChecked(["xprop", "-root", name])
        return XProperty(xpropOutput: result.stdoutText)
    }

    /// The atoms in `_NET_WM_STATE`, e.g. ["_NET_WM_STATE_ABOVE", "_NET_WM_STATE_STICKY"].
    func netWMState(of window: XWindowID) throws -> [String] {
        try property("_NET_WM_STATE", of: window)?.atoms ?? []
    }

    /// WM_CLASS as (instance, class), e.g. ("pipcam", "Pipcam").
    func wmClass(of window: XWindowID) throws -> (instance: String, class: String)? {
        let strings = try property("WM_CLASS", of: window)?.strings ?? []
        return strings.count == 2 ? (strings[0], strings[1]) : nil
    }

    // MARK: Finding windows

    /// Windows whose WM_CLASS instance name is exactly `className` (e.g. "pipcam"),
    /// optionally only those whose WM_WINDOW_ROLE is `role`.
    func windows(className: String, role: String? = nil) throws -> [XWindowID] {
        let pattern = "^" + NSRegularExpression.escapedPattern(for: className) + "$"
        let result = try run(["xdotool", "search", "--classname", pattern])
        // xdotool exits 1 when nothing matches.
        let ids = result.stdoutText.split(whereSeparator: \.isNewline).compactMap { XWindowID($0) }
        guard let role else { return ids }
        return try ids.filter { try property("WM_WINDOW_ROLE", of: $0)?.strings.first == role }
    }

    /// Waits until exactly one window matches and returns it; with `viewable`, until it is also mapped.
    func waitForWindow(
        className: String, role: String? = nil, viewable: Bool = true, timeout: Duration = .seconds(10)
    ) throws -> XWindowID {
        var seen: [XWindowID] = []
        do {
            return try poll(timeout: timeout, what: "a window of class \(className) role \(role ?? "any")") {
                seen = try windows(className: className, role: role)
                let candidates = try viewable ? seen.filter { try info(of: $0)?.isViewable == true } : seen
                return candidates.count == 1 ? candidates[0] : nil
            }
        } catch let error as HarnessError {
            throw HarnessError("\(error) (matching windows at the deadline: \(seen))\n\(diagnostics())")
        }
    }

    /// Waits until no window of `className` (and `role`) is viewable.
    func waitForNoWindow(className: String, role: String? = nil, timeout: Duration = .seconds(10)) throws {
        try waitUntil("no viewable window of class \(className) role \(role ?? "any")", timeout: timeout) {
            try windows(className: className, role: role).allSatisfy { try info(of: $0)?.isViewable != true }
        }
    }

    // MARK: Geometry

    /// The window's area and map state; nil if the window no longer exists.
    func info(of window: XWindowID) throws -> XWindowInfo? {
        let result = try run(["xwininfo", "-id", "\(window)"])
        guard result.succeeded else { return nil }  // BadWindow: it went away
        var fields: [String: String] = [:]
        for line in result.stdoutText.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].trimmingCharacters(in: .whitespaces)] =
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        func number(_ key: String) throws -> Int {
            guard let value = fields[key].flatMap({ Int($0) }) else {
                throw HarnessError("xwininfo -id \(window) has no '\(key)':\n\(result.stdoutText)")
            }
            return value
        }
        // xwininfo's absolute position is the window's outer corner (its border included);
        // xdotool getwindowgeometry adds the frame offset twice under some WMs, so it is not used.
        let border = try number("Border width")
        return XWindowInfo(
            frame: XRect(
                x: try number("Absolute upper-left X") + border, y: try number("Absolute upper-left Y") + border,
                width: try number("Width"), height: try number("Height")),
            borderWidth: border, mapState: fields["Map State"] ?? "?")
    }

    /// Waits until the window's geometry stops changing (a WM placing or tiling it, an
    /// animation ending): the same value read over `quietPeriod`. Returns that geometry.
    @discardableResult
    func waitForStableGeometry(
        of window: XWindowID, quietPeriod: Duration = .milliseconds(200), timeout: Duration = .seconds(5)
    ) throws -> XRect {
        let clock = ContinuousClock()
        var last = try geometry(of: window)
        var since = clock.now
        return try poll(timeout: timeout, what: "the geometry of \(window) to settle (last \(last))") {
            let now = try geometry(of: window)
            if now != last {
                last = now
                since = clock.now
                return nil
            }
            return clock.now - since >= quietPeriod ? now : nil
        }
    }

    /// The window's own area in root coordinates (no WM decorations). Throws if it is gone.
    func geometry(of window: XWindowID) throws -> XRect {
        guard let info = try info(of: window) else { throw HarnessError("window \(window) does not exist") }
        return info.frame
    }

    /// The area of the top-level window that holds `window`: the WM frame with its
    /// decorations, or the window itself when no WM reparented it.
    func outerGeometry(of window: XWindowID) throws -> XRect {
        let root = try rootWindow()
        var current = window
        while let parent = try parent(of: current), parent != root {
            current = parent
        }
        guard let info = try info(of: current) else { throw HarnessError("window \(window) does not exist") }
        let border = info.borderWidth
        return XRect(
            x: info.frame.x - border, y: info.frame.y - border,
            width: info.frame.width + 2 * border, height: info.frame.height + 2 * border)
    }

    func parent(of window: XWindowID) throws -> XWindowID? {
        let result = try run(["xwininfo", "-children", "-id", "\(window)"])
        guard result.succeeded else { return nil }
        let line = result.stdoutText.split(whereSeparator: \.isNewline).first { $0.contains("Parent window id:") }
        return line?.split(separator: " ").compactMap { XWindowID($0) }.first
    }

    func rootWindow() throws -> XWindowID {
        let text = try runChecked(["xwininfo", "-root"]).stdoutText
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.contains("Window id:") }),
            let id = line.split(separator: " ").compactMap({ XWindowID($0) }).first
        else { throw HarnessError("xwininfo -root printed no window id:\n\(text)") }
        return id
    }

    /// The window that has the input focus, if any.
    func focusedWindow() throws -> XWindowID? {
        let result = try run(["xdotool", "getwindowfocus", "-f"])
        return result.succeeded ? XWindowID(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    }
}
