import PipCore

/// Where a layer-shell surface goes on its output: its size, the corner it keeps to (its anchor)
/// and its distances from that corner's two edges. A layer surface has no position of its own, so
/// a rectangle in output coordinates is said this way.
///
/// ```swift
/// // 320×180, 16 pixels from the bottom and right edges of a 640×360 output:
/// let place = WaylandOverlayPlace(rect: Rect(x: 304, y: 164, width: 320, height: 180), output: (640, 360))
/// place.anchor == [.bottom, .right]   // margins.right == 16, margins.bottom == 16
/// ```
public struct WaylandOverlayPlace: Sendable, Equatable, CustomStringConvertible {
    /// The output edges a surface keeps to (zwlr_layer_surface_v1's anchor values).
    public struct Edges: OptionSet, Sendable, Hashable {
        /// The protocol's bits: top 1, bottom 2, left 4, right 8.
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let top = Edges(rawValue: 1)
        public static let bottom = Edges(rawValue: 2)
        public static let left = Edges(rawValue: 4)
        public static let right = Edges(rawValue: 8)
    }

    /// Distances from the output's edges, in output pixels; each counts only toward an edge in `anchor`.
    public struct Margins: Sendable, Equatable {
        public var top, right, bottom, left: Int
        /// Margins of these sizes, 0 where not given.
        public init(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0) {
            self.top = top
            self.right = right
            self.bottom = bottom
            self.left = left
        }
    }

    /// The corner (or edge) it keeps to.
    public var anchor: Edges
    /// Its size, in output pixels.
    public var width: Int
    public var height: Int
    /// Its distances from the edges in `anchor`.
    public var margins: Margins

    /// A place as the protocol says it.
    public init(anchor: Edges, width: Int, height: Int, margins: Margins) {
        self.anchor = anchor
        self.width = width
        self.height = height
        self.margins = margins
    }

    /// `rect` (output coordinates) on an output of `output`'s size, kept to the corner nearest its
    /// centre: PiP sits in a corner, and stays in it when the output's size changes. Without the
    /// output's size, the top-left corner, whose margins are the rectangle's position.
    public init(rect: Rect, output: (width: Int, height: Int)?) {
        var anchor: Edges = [], margins = Margins()
        if let output, 2 * rect.x + rect.width > output.width {
            anchor.insert(.right)
            margins.right = output.width - rect.maxX
        } else {
            anchor.insert(.left)
            margins.left = rect.x
        }
        if let output, 2 * rect.y + rect.height > output.height {
            anchor.insert(.bottom)
            margins.bottom = output.height - rect.maxY
        } else {
            anchor.insert(.top)
            margins.top = rect.y
        }
        self.init(anchor: anchor, width: rect.width, height: rect.height, margins: margins)
    }

    /// Where it is on an output of `output`'s size, in output coordinates (centred along an axis
    /// anchored to neither or both of its edges, as the protocol says).
    public func rect(output: (width: Int, height: Int)) -> Rect {
        func position(_ start: Bool, _ end: Bool, _ before: Int, _ after: Int, size: Int, span: Int) -> Int {
            if start && !end { return before }
            if end && !start { return span - size - after }
            return (span - size) / 2
        }
        return Rect(
            x: position(anchor.contains(.left), anchor.contains(.right), margins.left, margins.right, size: width, span: output.width),
            y: position(anchor.contains(.top), anchor.contains(.bottom), margins.top, margins.bottom, size: height, span: output.height),
            width: width, height: height)
    }

    public var description: String {
        let edges = [(Edges.top, "top"), (.bottom, "bottom"), (.left, "left"), (.right, "right")]
            .filter { anchor.contains($0.0) }.map(\.1).joined(separator: "|")
        return "\(width)x\(height) at \(edges), margins t\(margins.top) r\(margins.right) b\(margins.bottom) l\(margins.left)"
    }
}
