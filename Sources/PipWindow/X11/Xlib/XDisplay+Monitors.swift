import CX11
import PipCore

extension XDisplay {
    /// The monitors' rectangles in root coordinates, the primary first: Xinerama's heads, which
    /// RandR servers answer with their monitors. Empty when the server has no Xinerama (the
    /// screen is one monitor).
    public func monitors() -> [Rect] {
        var event: Int32 = 0, error: Int32 = 0
        guard XineramaQueryExtension(raw, &event, &error) != 0, XineramaIsActive(raw) != 0 else { return [] }
        var count: Int32 = 0
        guard let heads = XineramaQueryScreens(raw, &count) else { return [] }
        defer { XFree(heads) }
        return (0..<Int(max(0, count))).map {
            let h = heads[$0]
            return Rect(x: Int(h.x_org), y: Int(h.y_org), width: Int(h.width), height: Int(h.height))
        }
    }

    /// Asks for `.screenChanged` whenever RandR changes the screen, an output or a CRTC: a monitor
    /// switched off or unplugged does not always resize the root window or change the work area.
    /// Nothing without RandR.
    public func watchScreenChanges() {
        guard randrEventBase >= 0 else { return }
        XRRSelectInput(raw, root.rawValue, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
    }

    static func randrEventBase(_ d: OpaquePointer) -> Int32 {
        var event: Int32 = 0, error: Int32 = 0
        return XRRQueryExtension(d, &event, &error) != 0 ? event : -1
    }

    func translateScreenEvent(_ e: inout XEvent) -> WindowEvent? {
        guard randrEventBase >= 0 else { return nil }
        switch e.type {
        case randrEventBase + RRScreenChangeNotify:
            // Keeps Xlib's idea of the screen's size current.
            XRRUpdateConfiguration(&e)
            return .screenChanged
        case randrEventBase + RRNotify:
            return .screenChanged
        default:
            return nil
        }
    }
}
