import CX11

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
}
