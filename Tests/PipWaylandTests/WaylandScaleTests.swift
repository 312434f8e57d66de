import PipWayland
import Testing

/// A surface's logical size at its output's scale: the buffer's size, and scales in 120ths.
struct WaylandScaleTests {
    @Test func aScaleIsSaidIn120ths() {
        #expect(WaylandScale.one.factor == 1)
        #expect(WaylandScale(integer: 2) == WaylandScale(oneHundredTwentieths: 240))
        #expect(WaylandScale(oneHundredTwentieths: 180).factor == 1.5)
        #expect(WaylandScale(oneHundredTwentieths: 150).factor == 1.25)
        #expect(WaylandScale(oneHundredTwentieths: 0) == .one, "0, which no compositor says, is 1")
        #expect(WaylandScale(integer: 0) == .one)
        #expect(WaylandScale(oneHundredTwentieths: 180).description == "1.5")
    }

    @Test func integerScalesMultiply() {
        #expect(WaylandScale.one.pixels(width: 320, height: 180) == (320, 180))
        #expect(WaylandScale(integer: 2).pixels(width: 320, height: 180) == (640, 360))
        #expect(WaylandScale(integer: 3).pixels(width: 321, height: 181) == (963, 543))
    }

    @Test func fractionalScalesRoundHalfAwayFromZero() {
        let oneAndAHalf = WaylandScale(oneHundredTwentieths: 180)
        #expect(oneAndAHalf.pixels(width: 320, height: 180) == (480, 270))
        #expect(oneAndAHalf.pixels(width: 321, height: 181) == (482, 272), "481.5 and 271.5 go up")
        let oneAndAQuarter = WaylandScale(oneHundredTwentieths: 150)
        #expect(oneAndAQuarter.pixels(width: 320, height: 180) == (400, 225))
        #expect(oneAndAQuarter.pixels(width: 321, height: 182) == (401, 228), "401.25 goes down, 227.5 up")
        #expect(WaylandScale(oneHundredTwentieths: 121).pixels(59) == 59, "59.49… goes down")
        #expect(WaylandScale(oneHundredTwentieths: 121).pixels(60) == 61, "60.5 goes up")
    }

    @Test func nothingIsNoPixels() {
        #expect(WaylandScale(integer: 2).pixels(0) == 0)
        #expect(WaylandScale(integer: 2).pixels(-5) == 0)
    }
}
