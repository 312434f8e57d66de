import PipCore
import PipWayland
import Testing

/// A rectangle in output coordinates said as a layer surface's corner and margins, and back.
struct WaylandOverlayPlaceTests {
    static let output = (width: 640, height: 360)

    @Test func eachQuarterKeepsToItsCorner() {
        let cases: [(Rect, WaylandOverlayPlace.Edges, WaylandOverlayPlace.Margins)] = [
            (Rect(x: 304, y: 164, width: 320, height: 180), [.bottom, .right], .init(right: 16, bottom: 16)),
            (Rect(x: 10, y: 20, width: 200, height: 100), [.top, .left], .init(top: 20, left: 10)),
            (Rect(x: 400, y: 30, width: 200, height: 100), [.top, .right], .init(top: 30, right: 40)),
            (Rect(x: 12, y: 250, width: 200, height: 100), [.bottom, .left], .init(bottom: 10, left: 12)),
        ]
        for (rect, anchor, margins) in cases {
            let place = WaylandOverlayPlace(rect: rect, output: Self.output)
            #expect(place == WaylandOverlayPlace(anchor: anchor, width: rect.width, height: rect.height, margins: margins), "\(rect)")
            #expect(place.rect(output: Self.output) == rect, "\(place) is \(rect) again")
        }
    }

    @Test func withoutTheOutputsSizeTheTopLeftCornerKeepsThePosition() {
        let rect = Rect(x: 304, y: 164, width: 320, height: 180)
        let place = WaylandOverlayPlace(rect: rect, output: nil)
        #expect(place.anchor == [.top, .left])
        #expect(place.margins == .init(top: 164, left: 304))
        #expect(place.rect(output: Self.output) == rect)
    }

    @Test func anAxisAnchoredToNeitherEdgeIsCentred() {
        let place = WaylandOverlayPlace(anchor: [.bottom], width: 200, height: 100, margins: .init(bottom: 8))
        #expect(place.rect(output: Self.output) == Rect(x: 220, y: 252, width: 200, height: 100))
        #expect(place.description == "200x100 at bottom, margins t0 r0 b8 l0")
    }
}
