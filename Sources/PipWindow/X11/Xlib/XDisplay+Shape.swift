import CX11
import PipCore

extension XDisplay {
    /// Whether the server has the SHAPE extension (shaped and click-through windows need it).
    public var hasShape: Bool {
        var event: Int32 = 0, error: Int32 = 0
        return XShapeQueryExtension(raw, &event, &error) != 0
    }

    /// Sets the window's visible outline to `rects` (nil: the whole window).
    public func setBoundingShape(_ w: WindowID, _ rects: [Rect]?) {
        setShape(w, kind: ShapeBounding, rects)
    }

    /// Sets where the window takes pointer input: nil everywhere, `[]` nowhere (click-through).
    public func setInputShape(_ w: WindowID, _ rects: [Rect]?) {
        setShape(w, kind: ShapeInput, rects)
    }

    private func setShape(_ w: WindowID, kind: Int32, _ rects: [Rect]?) {
        guard let rects else {
            XShapeCombineMask(raw, w.rawValue, kind, 0, 0, 0, ShapeSet)
            return
        }
        var xrects = rects.map {
            XRectangle(x: Int16(clamping: $0.x), y: Int16(clamping: $0.y), width: UInt16(clamping: $0.width), height: UInt16(clamping: $0.height))
        }
        XShapeCombineRectangles(raw, w.rawValue, kind, 0, 0, &xrects, Int32(xrects.count), ShapeSet, YXBanded)
    }
}
