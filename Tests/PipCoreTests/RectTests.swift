import PipCore
import Testing

@Suite struct RectTests {
    @Test func edgesAndContainment() {
        let r = Rect(x: 80, y: 40, width: 640, height: 360)
        #expect(r.maxX == 720 && r.maxY == 400)
        #expect(r.contains(x: 80, y: 40) && r.contains(x: 719, y: 399))
        #expect(!r.contains(x: 720, y: 40) && !r.contains(x: 80, y: 400) && !r.contains(x: 79, y: 40))
        #expect(r.description == "640x360+80+40")
    }

    @Test func wholeAndEmpty() {
        #expect(Rect.whole(width: 4, height: 3) == Rect(x: 0, y: 0, width: 4, height: 3))
        #expect(Rect.whole(width: 4, height: 3).isWhole(width: 4, height: 3))
        #expect(!Rect(x: 2, y: 0, width: 2, height: 3).isWhole(width: 4, height: 3))
        #expect(Rect(x: 0, y: 0, width: 0, height: 3).isEmpty && Rect(x: 5, y: 5, width: 3, height: -1).isEmpty)
        #expect(!Rect(x: 5, y: 5, width: 1, height: 1).isEmpty)
    }
}
