import Testing
@testable import PipWindow
import PipCore

@Suite struct WindowShapeTests {
    /// Which pixels the spans cover.
    func covered(_ spans: [Rect], _ x: Int, _ y: Int) -> Bool { spans.contains { $0.contains(x: x, y: y) } }

    @Test func rectNeedsNoMask() {
        #expect(WindowShape.rect.spans(width: 320, height: 180) == nil)
    }

    @Test func roundedCutsOnlyTheCorners() throws {
        let spans = try #require(WindowShape.rounded.spans(width: 320, height: 180))
        #expect(!covered(spans, 0, 0) && !covered(spans, 319, 0) && !covered(spans, 0, 179) && !covered(spans, 319, 179))
        #expect(covered(spans, 160, 0) && covered(spans, 0, 90) && covered(spans, 319, 90) && covered(spans, 160, 179))
        // Full-width middle rows are merged into one rectangle.
        #expect(spans.contains { $0.x == 0 && $0.width == 320 && $0.height > 100 })
        // Y-X banded: rectangles sorted by y.
        #expect(spans.map(\.y) == spans.map(\.y).sorted())
    }

    @Test func circleIsAnEllipseFillingTheWindow() throws {
        let spans = try #require(WindowShape.circle.spans(width: 200, height: 200))
        #expect(covered(spans, 100, 100) && covered(spans, 100, 1) && covered(spans, 1, 100))
        #expect(!covered(spans, 5, 5) && !covered(spans, 195, 195))
        // About π/4 of the square.
        let area = spans.reduce(0) { $0 + $1.width * $1.height }
        #expect(abs(Double(area) / 40_000 - Double.pi / 4) < 0.01)
    }
}
